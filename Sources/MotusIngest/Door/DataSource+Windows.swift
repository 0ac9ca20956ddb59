// A source's windows: the one place that decides whether sessions are windowed as the files
// are read or the data is loaded whole first. Both give the same table (see `WindowedLoad`).

import MotusData
import MotusFeatures

/// What a spec chooser decides for the data it is shown.
public enum SpecDecision: Sendable, Equatable {
  /// Window the data with this spec.
  case use(FeatureSpec)
  /// The data cannot be windowed as it is read (a recording off a model's rate, say): load
  /// it whole.
  case loadWhole
}

/// Windows of a source, or the source loaded whole for a caller that windows it itself.
package enum SourceWindows: Sendable {
  case windowed(WindowedLoad)
  case whole(WholeLoad)
}

extension DataSource {
  /// Chooses the feature spec from the data's recipes and its recordings' rates (Hz).
  public typealias SpecChoice = (
    _ recipes: [ChannelRecipe], _ recordingRates: [Double]
  ) throws -> SpecDecision

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
  ///     recording's; must choose a spec for data loaded whole.
  /// - Throws: What `load`, `chooseSpec` and `WindowTable.makeWithCopies` throw.
  public func windows(
    minimumPurity: Float = 0, copies: WindowTable.Copies? = nil, progress: Progress? = nil,
    eachPart: ((inout WindowTable) throws -> Void)? = nil, chooseSpec: @escaping SpecChoice
  ) throws -> WindowedLoad {
    let windows = try windows(
      minimumPurity: minimumPurity, copies: copies, progress: progress, eachPart: eachPart,
      handingBackWhole: false, chooseSpec: chooseSpec)
    guard case .windowed(let windowed) = windows else {
      preconditionFailure("windows handed back data it was asked to window")
    }
    return windowed
  }

  /// `windows`, or, with `handingBackWhole`, the data unwindowed when it must be loaded
  /// whole: for scoring, which resamples it or changes it before windowing it itself.
  package func windows(
    minimumPurity: Float, copies: WindowTable.Copies?, progress: Progress?,
    eachPart: ((inout WindowTable) throws -> Void)?, handingBackWhole: Bool,
    chooseSpec: @escaping SpecChoice
  ) throws -> SourceWindows {
    if let paths = streamablePaths,
      let streamed = WindowedLoad.loadStreaming(
        paths, options: options, minimumPurity: minimumPurity, copies: copies,
        progress: progress, eachPart: eachPart, chooseSpec: chooseSpec)
    {
      return .windowed(streamed)
    }
    let whole = try load(progress: progress)
    if handingBackWhole { return .whole(whole) }
    var windowed = try WindowedLoad(
      result: whole.result, minimumPurity: minimumPurity, copies: copies, eachPart: eachPart,
      chooseSpec: chooseSpec)
    windowed.sourceWeights = whole.sourceWeights
    return .windowed(windowed)
  }
}
