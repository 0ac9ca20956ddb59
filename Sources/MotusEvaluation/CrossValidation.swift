// Leave-groups-out cross-validation: whole subjects (or sessions) per fold, so each estimate is
// on people or recordings the model never saw. Features are extracted once; each fold trains on
// the other folds' rows (with its own group-held-out calibration split) and scores its own.

import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusTraining

/// Fold assignment, per-fold training and evaluation, and the summary over folds.
public enum CrossValidation {
  /// One fold: the groups it tests on and the row indices of each side.
  public struct Fold: Sendable, Equatable {
    /// Held-out group names, in natural order.
    public var groups: [String]
    /// Row indices, ascending.
    public var testRows: [Int]
    public var trainingRows: [Int]
  }

  /// Splits distinct groups into `foldCount` folds; no group is on both sides of a fold and
  /// every row is tested exactly once.
  ///
  /// The distinct groups are sorted (natural order), shuffled with `SplitMix64(seed)`, then each
  /// goes, in that order, to the fold with the fewest rows so far (lowest index on ties), which
  /// keeps fold sizes close even when groups differ in size.
  ///
  /// - Parameters:
  ///   - groups: One group name per row.
  ///   - foldCount: In `2...distinct groups`.
  /// - Throws: `EvaluationError.invalidFoldCount`.
  /// - Complexity: O(N + G·K) for N rows, G groups and K folds.
  public static func folds(groups: [String], foldCount: Int, seed: UInt64) throws -> [Fold] {
    var rowsByGroup: [String: [Int]] = [:]
    for (row, group) in groups.enumerated() { rowsByGroup[group, default: []].append(row) }
    var names = rowsByGroup.keys.sorted(by: naturalOrder)
    guard foldCount >= 2 && foldCount <= names.count else {
      throw EvaluationError.invalidFoldCount(folds: foldCount, groups: names.count)
    }
    var generator = SplitMix64(seed: seed)
    generator.shuffle(&names)
    var foldOf: [String: Int] = [:]
    var sizes = [Int](repeating: 0, count: foldCount)
    for name in names {
      var lightest = 0
      for k in 1..<foldCount where sizes[k] < sizes[lightest] { lightest = k }
      foldOf[name] = lightest
      sizes[lightest] += rowsByGroup[name, default: []].count
    }
    var folds = (0..<foldCount).map { _ in Fold(groups: [], testRows: [], trainingRows: []) }
    for (name, k) in foldOf { folds[k].groups.append(name) }
    for (row, group) in groups.enumerated() {
      let home = foldOf[group, default: 0]
      for k in 0..<foldCount {
        if k == home { folds[k].testRows.append(row) } else { folds[k].trainingRows.append(row) }
      }
    }
    for k in folds.indices { folds[k].groups.sort(by: naturalOrder) }
    return folds
  }

  /// The metrics of one fold's test part.
  public struct FoldResult: Sendable {
    public var fold: Fold
    public var evaluation: EvaluationResult
    /// Metric name -> value, keys of `CrossValidation.metricNames`.
    public var metrics: [String: Double] {
      [
        "accuracy": evaluation.accuracy, "macro_f1": evaluation.macroF1,
        "balanced_accuracy": evaluation.balancedAccuracy, "log_loss": evaluation.logLoss,
        "ece": evaluation.expectedCalibrationError,
      ]
    }
  }

  /// Mean and sample standard deviation (n - 1 in the denominator; 0 for one fold).
  public struct Summary: Sendable, Equatable {
    public var name: String
    public var mean: Double
    public var standardDeviation: Double
  }

  /// The metrics summarised over folds, in report order.
  public static let metricNames = ["accuracy", "macro_f1", "balanced_accuracy", "log_loss", "ece"]

  /// Mean and standard deviation of each metric over folds, in `metricNames` order.
  public static func summarize(_ results: [FoldResult]) -> [Summary] {
    metricNames.map { name in
      let values = results.map { $0.metrics[name] ?? .nan }
      let (mean, sd) = meanAndStandardDeviation(values)
      return Summary(name: name, mean: mean, standardDeviation: sd)
    }
  }

  /// Mean and sample standard deviation (n - 1); NaN mean for no values, 0 deviation for one.
  public static func meanAndStandardDeviation(_ values: [Double]) -> (Double, Double) {
    guard !values.isEmpty else { return (.nan, .nan) }
    let mean = values.reduce(0, +) / Double(values.count)
    guard values.count > 1 else { return (mean, 0) }
    let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
    return (mean, (squares / Double(values.count - 1)).squareRoot())
  }

  /// Trains on all folds but one and scores the held-out fold, for every fold.
  ///
  /// - Parameters:
  ///   - table: Windows of the whole dataset, features following `spec`.
  ///   - spec: Stored in each fold's model.
  ///   - group: What a fold holds out (subjects, sessions or a manifest's sources).
  ///   - foldCount: In `2...distinct groups`.
  ///   - seed: Fold assignment; `options.seed` drives each fold's training.
  ///   - validationGroup: What each fold's inner calibration split holds out.
  ///   - sourceWeights: A manifest's source weights, as `Trainer.train(dataset:)` takes them.
  ///   - progress: Called before each fold is trained, with (fold index, fold count).
  /// - Throws: `EvaluationError` (folds, or a test fold with labels its training lacks) and
  ///   whatever `Trainer.train` throws.
  public static func run(
    table: WindowTable, spec: FeatureSpec, group: Trainer.ValidationGroup, foldCount: Int,
    seed: UInt64, options: TrainingOptions, validationGroup: Trainer.ValidationGroup = .source,
    sourceWeights: [String: Double] = [:], progress: ((Int, Int) -> Void)? = nil
  ) throws -> [FoldResult] {
    let groupOf = { (row: Int) -> String in
      group.group(subject: table.subject(at: row), session: table.session(at: row))
    }
    let folds = try folds(
      groups: (0..<table.windowCount).map(groupOf), foldCount: foldCount, seed: seed)
    var results: [FoldResult] = []
    for (k, fold) in folds.enumerated() {
      progress?(k, folds.count)
      // Classes: labels with training windows, in the table's label order (as Trainer does).
      var present = [Bool](repeating: false, count: table.labels.count)
      for row in fold.trainingRows { present[Int(table.labelIndices[row])] = true }
      let classNames = table.labels.indices.filter { present[$0] }.map { table.labels[$0] }
      let missing = Set(fold.testRows.map { table.label(at: $0) }).subtracting(classNames)
      guard missing.isEmpty else {
        throw EvaluationError.foldLacksClasses(fold: k, labels: missing.sorted(by: naturalOrder))
      }
      let classIndex = Dictionary(
        classNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
      let labels = fold.trainingRows.map { classIndex[table.label(at: $0), default: 0] }
      let innerGroups = Trainer.validationGroups(
        table: table, rows: fold.trainingRows, by: validationGroup)
      let trained = try Trainer.train(
        features: table.features.rows(fold.trainingRows), labels: labels, groups: innerGroups,
        classNames: classNames, spec: spec,
        sampleWeights: Trainer.rowWeights(
          table: table, rows: fold.trainingRows,
          sourceWeights: Trainer.balancedSourceWeights(
            table: table, rows: fold.trainingRows, sourceWeights: sourceWeights,
            balance: options.sourceBalance)),
        options: options)
      let evaluation = try Evaluation.evaluate(
        model: trained.model, table: table, rows: fold.testRows)
      results.append(FoldResult(fold: fold, evaluation: evaluation))
    }
    return results
  }
}
