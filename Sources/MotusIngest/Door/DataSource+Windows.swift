// A source's windows: the one place that decides whether sessions are windowed as the files
// are read or the data is loaded whole first. Both give the same table (see `WindowedLoad`);
// scoring takes the whole load as it is (`windowsAsRead`).

import MotusData
import MotusFeatures

/// What a streaming spec chooser decides for the data it is shown.
package enum SpecDecision: Sendable, Equatable {
  /// Window the data with this spec.
  case use(FeatureSpec)
  /// The data cannot be windowed as it is read (a recording off a model's rate, say): load
  /// it whole.
  case loadWhole
}

/// Windows of a source made as the files were read, or the source loaded whole for a caller
/// that windows it itself.
package enum SourceWindows: Sendable {
  case windowed(WindowedLoad)
  case whole(WholeLoad)
}

extension DataSource {
  /// Chooses the feature spec from the data's recipes and its recordings' rates (Hz).
  public typealias SpecChoice = (
    _ recipes: [ChannelRecipe], _ recordingRates: [Double]
  ) throws -> FeatureSpec

  /// Every window of the data, with the spec `chooseSpec` picks.
  ///
  /// CSV files are windowed a session at a time as they are read, so memory follows the
  /// table rather than the samples, when the spec chosen for the first recording holds for
  /// the whole data and the files allow it (`DatasetLoader.loadSessions`); otherwise (a
  /// manifest, a pipe, a spec that changes) the data is loaded whole and windowed on every
  /// core. The table is the same either way.
  ///
  /// - Parameters:
  ///   - minimumPurity: As `WindowTable.make`.
  ///   - copies: Copies of the data whose windows follow the data's (none by default).
  ///   - eachPart: Called on each part's table (then on each copy's) before it joins the
  ///     rest, in order: a caller that needs less than the features takes it here and drops
  ///     them (`WindowTable.dropFeatures`).
  ///   - chooseSpec: Called with the first recording's rate alone, then with every
  ///     recording's.
  /// - Throws: What `load`, `chooseSpec` and `WindowTable.makeWithCopies` throw.
  public func windows(
    minimumPurity: Float = 0, copies: WindowTable.Copies? = nil, progress: Progress? = nil,
    eachPart: ((inout WindowTable) throws -> Void)? = nil, chooseSpec: @escaping SpecChoice
  ) throws -> WindowedLoad {
    let windows = try windowsAsRead(
      minimumPurity: minimumPurity, copies: copies, progress: progress, eachPart: eachPart
    ) { .use(try chooseSpec($0, $1)) }
    switch windows {
    case .windowed(let windowed): return windowed
    case .whole(let whole):
      let result = whole.result
      var windowed = try WindowedLoad(
        result: result,
        spec: chooseSpec(result.recipes, result.dataset.recordings.map(\.sampleRateHz)),
        minimumPurity: minimumPurity, copies: copies, eachPart: eachPart)
      windowed.sourceWeights = whole.sourceWeights
      return windowed
    }
  }

  /// The data windowed as the files are read when they allow it and `chooseSpec` answers
  /// `.use` (as `windows` describes), else loaded whole: for scoring, which resamples it or
  /// changes it before windowing it itself, and for `windows`.
  package func windowsAsRead(
    minimumPurity: Float, copies: WindowTable.Copies?, progress: Progress?,
    eachPart: ((inout WindowTable) throws -> Void)?,
    chooseSpec: @escaping (_ recipes: [ChannelRecipe], _ recordingRates: [Double]) throws
      -> SpecDecision
  ) throws -> SourceWindows {
    if let paths = streamablePaths,
      let streamed = WindowedLoad.loadStreaming(
        paths, options: options, minimumPurity: minimumPurity, copies: copies,
        progress: progress, eachPart: eachPart, chooseSpec: chooseSpec)
    {
      return .windowed(streamed)
    }
    return .whole(try load(progress: progress))
  }
}
