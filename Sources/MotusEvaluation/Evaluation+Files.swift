// Scoring data without holding its samples: with the model's spec known up front, each
// session is windowed and scored as the files are read (`DataSource.windows`), and only each
// window's scores, its place and the recordings' outlines are kept, not its features. When
// that cannot be done as the files are read (a recording off the model's rate, a pipe, a
// session split across the file, a manifest), the data is loaded whole, resampled to the
// model's rate when needed, and scored by `run`: the same scores.

import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusStreaming

extension DataSource {
  /// This source read as a model's input: channels computed by the model's `recipes` (each
  /// raw input they read comes from the files by the rule the stream applies, so a Core
  /// Motion device-motion file feeds a raw-acceleration model here as it does in `motus
  /// stream`), at its own rate unless a recording is more than 2 % off `sampleRateHz`, then
  /// resampled to it (`LoadOptions.modelSampleRateHz`). A manifest fixes its own channels
  /// and rate.
  ///
  /// - Precondition: `options.channelPatterns` is empty (the channels are the recipes').
  /// - Throws: `EvaluationError.sampleRateMismatch` when `options.sampleRateHz` asks for
  ///   another rate than `sampleRateHz`.
  public func reading(recipes: [ChannelRecipe], sampleRateHz: Double) throws -> DataSource {
    precondition(options.channelPatterns.isEmpty, "channels come from the model's recipes")
    if let requested = options.sampleRateHz, !Self.isModelRate(requested, sampleRateHz) {
      throw EvaluationError.sampleRateMismatch(requestedHz: requested, modelHz: sampleRateHz)
    }
    var source = self
    source.options.modelRecipes = recipes
    source.options.modelSampleRateHz = sampleRateHz
    return source
  }
}

extension Evaluation {
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

    /// A dataset loaded whole, to score with `run(model:loaded:...)`.
    init(_ loaded: WholeLoad) {
      outline = LoadOutline(loaded.result)
      resampled = loaded.resampled
      dataset = loaded.result.dataset
    }

    init(windowed: WindowedLoad, scores: WindowScores?) {
      outline = windowed.outline
      resampled = false
      dataset = nil
      table = windowed.table
      self.scores = scores
    }
  }

  /// Loads `source` for scoring with `model` (`DataSource.reading(recipes:sampleRateHz:)`):
  /// windowed and scored as read when every recording is at the model's rate and the files
  /// allow it, else loaded whole, resampled to the model's rate when a recording is off it.
  ///
  /// - Parameters:
  ///   - minimumPurity, smoothing: Those `run(model:loaded:...)` will be given.
  ///   - whole: Load whole in any case (to change the dataset before scoring).
  /// - Throws: What `DataSource.load` throws, `EvaluationError.channelMismatch` /
  ///   `.sampleRateMismatch`, and `FeatureSpecError` for a window's non-finite feature.
  public static func loadForScoring(
    _ source: DataSource, model: TrainedModel, minimumPurity: Float = 0,
    smoothing: Smoothing = .none, whole: Bool = false, progress: DataSource.Progress? = nil
  ) throws -> LoadedData {
    if whole { return LoadedData(try load(source, model: model, progress: progress)) }
    let spec = model.featureSpec
    // Each part's windows are scored as they are made, and their features dropped.
    var scores: WindowScores?
    let scoreAndDrop: (inout WindowTable) -> Void = { part in
      let partScores = WindowScores(model: model, features: part.features)
      if scores == nil { scores = partScores } else { scores!.append(partScores) }
      part.dropFeatures()
    }
    let windows = try source.reading(recipes: spec.recipes, sampleRateHz: spec.sampleRateHz)
      .windows(
        minimumPurity: tablePurity(minimumPurity, smoothing: smoothing), copies: nil,
        progress: progress, eachPart: scoreAndDrop, handingBackWhole: true
      ) { recipes, rates in
        // Any other rate or channels: the whole load resamples or names the mismatch.
        recipes == spec.recipes
          && rates.allSatisfy { DataSource.isModelRate($0, spec.sampleRateHz) }
          ? .use(spec) : .loadWhole
      }
    switch windows {
    case .windowed(let windowed):
      return LoadedData(windowed: windowed, scores: scores)
    case .whole(let loaded):
      try checkChannels(loaded.result.recipes, model: model)
      return LoadedData(loaded)
    }
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
