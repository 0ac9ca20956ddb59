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

extension Evaluation {
  /// Data loaded for scoring, in one of the two shapes `loadForScoring` gives.
  public enum ScoringData: Sendable {
    /// The model's windows made and scored as the files were read: their features dropped,
    /// their scores kept.
    case scored(WindowedLoad, WindowScores)
    /// The data loaded whole (resampled to the model's rate when a recording was off it);
    /// callers may change its dataset (a simulated device) before `run`.
    case whole(WholeLoad)

    /// Every recording loaded, the labels and the load's report.
    public var outline: LoadOutline {
      switch self {
      case .scored(let windowed, _): windowed.outline
      case .whole(let loaded): LoadOutline(loaded.result)
      }
    }
  }

  /// Loads `source` for scoring with `model` (`DataSource.reading(recipes:sampleRateHz:)`):
  /// windowed and scored as read when every recording is at the model's rate and the files
  /// allow it, else loaded whole, resampled to the model's rate when a recording is off it.
  ///
  /// - Parameters:
  ///   - minimumPurity, smoothing: Those `run(model:loaded:...)` will be given.
  ///   - whole: Load whole in any case (to change the dataset before scoring).
  /// - Throws: What `DataSource.load` throws, `DataSourceError.sampleRateMismatch`,
  ///   `EvaluationError.channelMismatch`, and `FeatureSpecError` for a window's non-finite
  ///   feature.
  public static func loadForScoring(
    _ source: DataSource, model: TrainedModel, minimumPurity: Float = 0,
    smoothing: Smoothing = .none, whole: Bool = false, progress: DataSource.Progress? = nil
  ) throws -> ScoringData {
    if whole { return .whole(try load(source, model: model, progress: progress)) }
    let spec = model.featureSpec
    // Each part's windows are scored as they are made, and their features dropped.
    var scores = WindowScores(classCount: model.classes.count)
    let scoreAndDrop: (inout WindowTable) -> Void = { part in
      scores.append(WindowScores(model: model, features: part.features))
      part.dropFeatures()
    }
    let windows = try source.reading(recipes: spec.recipes, sampleRateHz: spec.sampleRateHz)
      .windowsAsRead(
        minimumPurity: tablePurity(minimumPurity, smoothing: smoothing), copies: nil,
        progress: progress, eachPart: scoreAndDrop
      ) { recipes, rates in
        // Any other rate or channels: the whole load resamples or names the mismatch.
        recipes == spec.recipes
          && rates.allSatisfy { DataSource.isModelRate($0, spec.sampleRateHz) }
          ? .use(spec) : .loadWhole
      }
    switch windows {
    case .windowed(let windowed):
      return .scored(windowed, scores)
    case .whole(let loaded):
      try checkChannels(loaded.result.recipes, model: model)
      return .whole(loaded)
    }
  }

  /// `run(model:dataset:...)` on data from `loadForScoring`.
  public static func run(
    model: TrainedModel, loaded: ScoringData, minimumPurity: Float = 0,
    smoothing: Smoothing = .none, trips: TripRule? = StreamConfiguration().trips,
    evidence: ClassEvidence = StreamConfiguration().evidence
  ) throws -> EvaluationResult {
    switch loaded {
    case .whole(let whole):
      return try run(
        model: model, dataset: whole.result.dataset, minimumPurity: minimumPurity,
        smoothing: smoothing, trips: trips, evidence: evidence)
    case .scored(let windowed, let scores):
      try checkLabels(windowed.outline.labels, negativeLabels: [], model: model)
      return try score(
        model: model, table: windowed.table, recordings: windowed.outline.recordings,
        negativeLabels: [], minimumPurity: minimumPurity, smoothing: smoothing, trips: trips,
        evidence: evidence, scores: scores)
    }
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

    /// No windows' scores yet, for `append` to add to.
    init(classCount: Int) {
      probabilities = Matrix(rowCount: 0, columnCount: classCount)
      novelty = nil
    }

    /// `other`'s rows after these.
    mutating func append(_ other: WindowScores) {
      probabilities.appendRows(other.probabilities)
      guard let more = other.novelty else { return }
      if novelty == nil { novelty = more } else { novelty!.append(contentsOf: more) }
    }
  }
}
