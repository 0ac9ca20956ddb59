// Scoring files without holding their samples: with the model's spec known up front, each
// session is windowed and scored as the files are read (`WindowedLoad`), and only each
// window's scores, its place and the recordings' outlines are kept, not its features. When
// that cannot be done as the files are read (a recording off the model's rate, a phone-app
// export, a session split across the file), the data is loaded whole as `load` does,
// resampled when needed, and scored by `run`: the same scores.

import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusStreaming

extension Evaluation {
  /// Tells `WindowedLoad` to give up streaming.
  private struct LoadWhole: Error {}

  /// Data loaded for scoring: the model's windows built as the files were read, or the
  /// dataset loaded whole.
  public struct LoadedData: Sendable {
    public var outline: LoadOutline
    /// Whether the data was resampled to the model's rate.
    public var resampled: Bool
    /// The dataset when it was loaded whole (nil when windowed as read); callers may change
    /// it (a simulated device) before `run`.
    public var dataset: Dataset?
    /// The model's windows when the files were windowed as read (their features dropped), and
    /// their scores.
    var table: WindowTable?
    var scores: WindowScores?

    /// A dataset loaded whole (a manifest's, say), to score with `run(model:loaded:...)`.
    public init(_ result: LoadResult, resampled: Bool) {
      outline = LoadOutline(result)
      self.resampled = resampled
      dataset = result.dataset
    }

    init(windowed: WindowedLoad, scores: WindowScores?) {
      outline = windowed.outline
      resampled = false
      dataset = nil
      table = windowed.table
      self.scores = scores
    }
  }

  /// Loads `paths` for scoring with `model`: windowed as read when every recording is at the
  /// model's rate and the files allow it, else as `load(_:model:options:progress:)`.
  ///
  /// - Parameters:
  ///   - minimumPurity, smoothing: Those `run(model:loaded:...)` will be given.
  ///   - whole: Load whole in any case (to change the dataset before scoring).
  /// - Throws: What `load` throws, and `FeatureSpecError` for a window's non-finite feature.
  public static func loadForScoring(
    _ paths: [String], model: TrainedModel, options: LoadOptions, minimumPurity: Float = 0,
    smoothing: Smoothing = .none, whole: Bool = false, progress: ((Int, Int) -> Void)? = nil
  ) throws -> LoadedData {
    let spec = model.featureSpec
    var streamOptions = options
    streamOptions.modelRecipes = spec.recipes
    // Each batch's windows are scored as they are made, and their features dropped.
    var scores: WindowScores?
    let scoreAndDrop: (inout WindowTable) -> Void = { part in
      let partScores = WindowScores(model: model, features: part.features)
      if scores == nil { scores = partScores } else { scores!.append(partScores) }
      part.dropFeatures()
    }
    if !whole, options.channelPatterns.isEmpty, options.sampleRateHz == nil,
      let windowed = WindowedLoad.loadStreaming(
        paths, options: streamOptions,
        minimumPurity: tablePurity(minimumPurity, smoothing: smoothing), progress: progress,
        eachPart: scoreAndDrop,
        chooseSpec: { recipes, rates in
          // Any other rate or channels: the whole load resamples or names the mismatch.
          guard recipes == spec.recipes, rates.allSatisfy({ sameRate($0, spec.sampleRateHz) })
          else { throw LoadWhole() }
          return spec
        })
    {
      return LoadedData(windowed: windowed, scores: scores)
    }
    let loaded = try load(paths, model: model, options: options, progress: progress)
    return LoadedData(loaded.result, resampled: loaded.resampled)
  }

  /// `run(model:dataset:...)` on data from `loadForScoring` (or a whole dataset).
  public static func run(
    model: TrainedModel, loaded: LoadedData, minimumPurity: Float = 0,
    smoothing: Smoothing = .none
  ) throws -> EvaluationResult {
    guard let table = loaded.table else {
      guard let dataset = loaded.dataset else {
        preconditionFailure("LoadedData loaded whole without its dataset")
      }
      return try run(
        model: model, dataset: dataset, minimumPurity: minimumPurity, smoothing: smoothing)
    }
    try checkLabels(loaded.outline.labels, negativeLabels: [], model: model)
    return try score(
      model: model, table: table, recordings: loaded.outline.recordings, negativeLabels: [],
      minimumPurity: minimumPurity, smoothing: smoothing, scores: loaded.scores)
  }

  /// Each window's calibrated probabilities (before smoothing) and novelty score: all that
  /// scoring reads of its features, row by row, so windows scored a batch at a time score as
  /// they would together.
  public struct WindowScores: Sendable {
    /// `[windows, classes]`.
    public var probabilities: Matrix
    public var novelty: [Float]?

    public init(model: TrainedModel, features: Matrix) {
      probabilities = model.predictProbabilities(features)
      novelty = model.noveltyScores(features)
    }

    /// `other`'s rows after these.
    mutating func append(_ other: WindowScores) {
      probabilities.appendRows(other.probabilities)
      guard let more = other.novelty else { return }
      if novelty == nil { novelty = more } else { novelty!.append(contentsOf: more) }
    }
  }
}
