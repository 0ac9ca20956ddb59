// Scores a trained model on labelled data: load with the model's channel recipes (and its rate)
// -> windows and features exactly as in training (the model's FeatureSpec) -> calibrated
// probabilities [N, K] -> optionally smoothed over time as the stream smooths them
// -> EvaluationResult.

import Foundation
import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusStreaming
import MotusTraining

/// Batch evaluation of a `TrainedModel`.
///
///     let loaded = try Evaluation.loadForScoring(DataSource(files: ["test.csv"]), model: model)
///     let result = try Evaluation.run(model: model, loaded: loaded)
///     print(result.accuracy, result.macroF1, result.logLoss)
public enum Evaluation {
  /// Loads `source` so the channels are the model's recipes and the rate is the model's
  /// (`DataSource.reading(recipes:sampleRateHz:)`), and checks the channels.
  ///
  /// - Throws: What `DataSource.load` throws, `EvaluationError.channelMismatch`,
  ///   `DataSourceError.sampleRateMismatch`.
  static func load(
    _ source: DataSource, model: TrainedModel, progress: DataSource.Progress? = nil
  ) throws -> WholeLoad {
    let spec = model.featureSpec
    let loaded = try source.reading(recipes: spec.recipes, sampleRateHz: spec.sampleRateHz)
      .load(progress: progress)
    try checkChannels(loaded.result.recipes, model: model)
    return loaded
  }

  /// - Throws: `EvaluationError.channelMismatch` unless `recipes` equal the model's.
  public static func checkChannels(_ recipes: [ChannelRecipe], model: TrainedModel) throws {
    guard recipes != model.featureSpec.recipes else { return }
    throw EvaluationError.channelMismatch(
      data: recipes.map(\.evaluationDescription),
      model: model.featureSpec.recipes.map(\.evaluationDescription))
  }

  /// Windows `dataset` with the model's spec and scores every window.
  ///
  /// - Parameters:
  ///   - dataset: Channels equal to the model's recipe names, at the model's rate (see `load`).
  ///   - minimumPurity: Windows whose majority label covers less than this are dropped. With
  ///     smoothing they still feed the smoother (the stream sees them too) but are not scored.
  ///   - smoothing: Applied to each recording's windows in time order, restarting at every
  ///     recording, exactly as `StreamingClassifier` applies it: the scores are then those of
  ///     the stream's output rather than of single windows.
  ///   Windows of the dataset's negative labels are not scored as a class: the result counts
  ///   how many of them the model answers unknown for (`negatives`).
  /// - Throws: `EvaluationError.unknownLabels` when the data has labels the model lacks (model
  ///   classes absent from the data, and negative labels, are fine), `.noWindows`,
  ///   `FeatureSpecError` for a rate or channel mismatch.
  /// - Complexity: O(windows · (feature extraction + model)).
  public static func run(
    model: TrainedModel, dataset: Dataset, minimumPurity: Float = 0, smoothing: Smoothing = .none,
    trips: TripRule? = StreamConfiguration().trips,
    evidence: ClassEvidence = StreamConfiguration().evidence
  ) throws -> EvaluationResult {
    try checkLabels(dataset.labels, negativeLabels: dataset.negativeLabels, model: model)
    let table = try WindowTable.make(
      dataset: dataset, extractor: FeatureExtractor(spec: model.featureSpec),
      minimumPurity: tablePurity(minimumPurity, smoothing: smoothing))
    return try score(
      model: model, table: table, recordings: dataset.recordings.map(RecordingOutline.init),
      negativeLabels: dataset.negativeLabels, minimumPurity: minimumPurity, smoothing: smoothing,
      trips: trips, evidence: evidence)
  }

  /// The purity below which `run` drops windows from its table: with smoothing, none (they
  /// feed the smoother).
  static func tablePurity(_ minimumPurity: Float, smoothing: Smoothing) -> Float {
    smoothing == .none ? minimumPurity : 0
  }

  /// - Throws: `EvaluationError.unknownLabels` for data labels neither the model's classes
  ///   nor negatives.
  static func checkLabels(_ labels: [String], negativeLabels: [String], model: TrainedModel) throws
  {
    let unknown = labels.filter { !model.classes.contains($0) && !negativeLabels.contains($0) }
    guard unknown.isEmpty else {
      throw EvaluationError.unknownLabels(unknown, modelClasses: model.classes)
    }
  }

  /// `run` once the table of the model's windows (purity `tablePurity`) is built: the
  /// recordings too short for a window, the check that something is left to score, the scores.
  static func score(
    model: TrainedModel, table: WindowTable, recordings: [RecordingOutline],
    negativeLabels: [String], minimumPurity: Float, smoothing: Smoothing, trips: TripRule?,
    evidence: ClassEvidence, scores: WindowScores? = nil
  ) throws -> EvaluationResult {
    let spec = model.featureSpec
    let window = SlidingWindow(length: spec.windowLength, hop: spec.hopLength)
    let skipped = recordings.filter { window.count(sampleCount: $0.sampleCount) == 0 }
      .map {
        EvaluationResult.SkippedRecording(
          session: $0.session, subject: $0.subject, source: $0.source,
          sampleCount: $0.sampleCount,
          reason: "shorter than one window (\(spec.windowLength) samples)")
      }
    let negatives = Set(negativeLabels)
    guard
      table.purity.indices.contains(where: {
        table.purity[$0] >= minimumPurity && !negatives.contains(table.label(at: $0))
      })
    else {
      throw EvaluationError.noWindows(
        skippedRecordings: table.skippedRecordingCount,
        droppedImpure: table.droppedImpureCount + table.windowCount,
        windowSeconds: spec.windowSeconds)
    }
    let rows = Array(0..<table.windowCount)
    var result = try evaluate(
      model: model, table: table, rows: rows, smoothing: smoothing, trips: trips,
      evidence: evidence, minimumPurity: minimumPurity, negativeLabels: negativeLabels
    ) { scores ?? WindowScores(model: model, features: table.features) }
    result.skippedRecordings = skipped
    result.droppedImpureCount = table.droppedImpureCount + table.windowCount - result.windowCount
    return result
  }

  /// Scores rows of a window table whose features follow `model.featureSpec`.
  ///
  /// - Parameters:
  ///   - rows: Row indices into `table`; at least one. With smoothing, consecutive windows of
  ///     one recording are smoothed in this order.
  ///   - smoothing: See `run`.
  ///   - trips: The hidden Markov smoother's trips, as a stream's (`StreamConfiguration.trips`).
  ///   - evidence: The hidden Markov smoother's class evidence, as a stream's
  ///     (`StreamConfiguration.evidence`).
  ///   - minimumPurity: Rows whose purity is below this only feed the smoother; at least one
  ///     row that is not a negative must reach it.
  ///   - negativeLabels: Labels of activities that are none of the classes: their rows feed
  ///     the smoother and are counted in `negatives`, not scored as a class.
  /// - Throws: `EvaluationError.unknownLabels` for a scored row's label outside the model's
  ///   classes.
  public static func evaluate(
    model: TrainedModel, table: WindowTable, rows: [Int], smoothing: Smoothing = .none,
    trips: TripRule? = StreamConfiguration().trips,
    evidence: ClassEvidence = StreamConfiguration().evidence, minimumPurity: Float = 0,
    negativeLabels: [String] = []
  ) throws -> EvaluationResult {
    precondition(
      table.features.columnCount == model.featureCount,
      "table has \(table.features.columnCount) features, model \(model.featureCount)")
    return try evaluate(
      model: model, table: table, rows: rows, smoothing: smoothing, trips: trips,
      evidence: evidence, minimumPurity: minimumPurity, negativeLabels: negativeLabels
    ) { WindowScores(model: model, features: table.features.rows(rows)) }
  }

  /// `evaluate` with each row's scores from `scores` (taken after the labels are checked):
  /// the table's features are not read, so they may already be gone.
  static func evaluate(
    model: TrainedModel, table: WindowTable, rows: [Int], smoothing: Smoothing, trips: TripRule?,
    evidence: ClassEvidence, minimumPurity: Float, negativeLabels: [String],
    scores: () -> WindowScores
  ) throws -> EvaluationResult {
    precondition(!rows.isEmpty, "no rows to evaluate")
    let negative = Set(negativeLabels)
    let pure = rows.indices.filter { table.purity[rows[$0]] >= minimumPurity }
    let scored = pure.filter { !negative.contains(table.label(at: rows[$0])) }
    let negativeScored = pure.filter { negative.contains(table.label(at: rows[$0])) }
    precondition(!scored.isEmpty, "no row reaches purity \(minimumPurity)")
    let scoredRows = scored.map { rows[$0] }
    let truth = try classIndices(of: scoredRows, in: table, classes: model.classes)
    let windowScores = scores()
    var probabilities = windowScores.probabilities
    // A NaN probability must not reach a metric: name the window instead.
    if let bad = probabilities.values.firstIndex(where: { !$0.isFinite }) {
      let row = rows[bad / probabilities.columnCount]
      throw EvaluationError.nonFiniteProbabilities(
        session: table.session(at: row), startSeconds: table.startTimes[row])
    }
    let spec = model.featureSpec
    if smoothing != .none {
      smoothAlongRecordings(
        &probabilities, recordings: rows.map { table.recordingIndices[$0] },
        starts: rows.map { table.starts[$0] }, hop: spec.hopLength
      ) { PredictionSmoother(
        smoothing: smoothing, classes: model.classes, spec: spec, trips: trips, evidence: evidence)
      }
    }
    // The stream's answer per row: its (smoothed) top class, or unknown and why.
    let novelty = windowScores.novelty
    let answers = (0..<probabilities.rowCount).map { i in
      model.answer(probabilities: probabilities.row(i), noveltyScore: novelty?[i])
    }
    let reasons = answers.map(\.unknownReason)
    let negatives = negativeSummary(
      negativeScored.map { (table.label(at: rows[$0]), answers[$0]) }, classes: model.classes,
      labels: negativeLabels)
    if scored.count < rows.count { probabilities = probabilities.rows(scored) }
    var result = EvaluationResult(
      classes: model.classes, truth: truth, predicted: Metrics.argmax(probabilities),
      probabilities: probabilities, sessions: scoredRows.map { table.session(at: $0) },
      subjects: scoredRows.map { table.subject(at: $0) },
      startTimes: scoredRows.map { table.startTimes[$0] },
      windowLength: spec.windowLength, hopLength: spec.hopLength,
      sampleRateHz: spec.sampleRateHz)
    result.unknownThreshold = model.unknownThreshold
    result.unknownReasons = scored.map { reasons[$0] }
    result.negatives = negativeScored.isEmpty ? nil : negatives
    result.smoothing = smoothing
    if case .hiddenMarkov = smoothing {
      // Trips are reported where the smoother knew them: a model with both of their classes.
      if TripStates(rule: trips, classes: model.classes, spec: spec) != nil { result.trips = trips }
      if evidence.acts(on: model.classes) { result.evidence = evidence }
    }
    return result
  }

  /// Each row's label as an index into `classes`.
  /// - Throws: `EvaluationError.unknownLabels` naming every label the model does not know.
  private static func classIndices(
    of rows: [Int], in table: WindowTable, classes: [String]
  ) throws -> [Int] {
    let classIndex = Dictionary(
      classes.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    var truth: [Int] = []
    truth.reserveCapacity(rows.count)
    var unknown: [String] = []
    for row in rows {
      let label = table.label(at: row)
      if let c = classIndex[label] {
        truth.append(c)
      } else if !unknown.contains(label) {
        unknown.append(label)
      }
    }
    guard unknown.isEmpty else {
      throw EvaluationError.unknownLabels(unknown.sorted(by: naturalOrder), modelClasses: classes)
    }
    return truth
  }

  /// How the windows of negative labels (none of the classes) were answered.
  private static func negativeSummary(
    _ windows: [(label: String, answer: Prediction)], classes: [String], labels: [String]
  ) -> EvaluationResult.NegativeSummary {
    var negatives = EvaluationResult.NegativeSummary(
      labels: labels.filter { label in windows.contains { $0.label == label } })
    for window in windows {
      negatives.windows += 1
      if let reason = window.answer.unknownReason {
        negatives.unknownByReason[reason.rawValue, default: 0] += 1
      } else {
        negatives.answeredAs[classes[window.answer.classIndex], default: 0] += 1
      }
    }
    return negatives
  }

  /// Smooths the rows of `probabilities` in order with one smoother (`makeSmoother()`, the
  /// stream's), restarting it where a row is not the next window (`starts` one `hop` on) of the
  /// same recording: a new recording, or a gap, restarts the stream's smoother too.
  static func smoothAlongRecordings(
    _ probabilities: inout Matrix, recordings: [Int], starts: [Int], hop: Int,
    makeSmoother: () -> PredictionSmoother
  ) {
    let k = probabilities.columnCount
    precondition(recordings.count == probabilities.rowCount && starts.count == recordings.count)
    var smoother = makeSmoother()
    probabilities.values.withUnsafeMutableBufferPointer { values in
      for i in 0..<recordings.count {
        if i > 0, recordings[i] != recordings[i - 1] || starts[i] != starts[i - 1] + hop {
          smoother.reset()
        }
        smoother.smooth(UnsafeMutableBufferPointer(rebasing: values[(i * k)..<((i + 1) * k)]))
      }
    }
  }
}

extension EvaluationResult.SkippedRecording {
  /// Sessions the loader left out because of their data (fewer than 2 samples, an empty
  /// channel), as skipped recordings. Sessions removed by the subject and label filters were
  /// asked for and are not listed.
  public static func loaderSkips(_ report: LoadReport) -> [EvaluationResult.SkippedRecording] {
    let subjects = Dictionary(
      report.sessions.map { ($0.name, $0.subject) }, uniquingKeysWith: { a, _ in a })
    let filterReasons: Set<String> = [
      "subject not in --subjects", "subject in --exclude-subjects", "no rows with a kept label",
    ]
    return report.skipped.filter { !filterReasons.contains($0.reason) }.map {
      EvaluationResult.SkippedRecording(
        session: $0.session, subject: subjects[$0.session] ?? "unknown", source: $0.file,
        sampleCount: $0.rowCount, reason: $0.reason)
    }
  }
}
