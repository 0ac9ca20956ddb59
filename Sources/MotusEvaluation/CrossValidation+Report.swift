// Text and JSON renderings of a cross-validation: one row per fold, then mean ± sd per metric.

import Foundation
import MotusData

extension CrossValidation {
  /// The JSON document `motus cross-validate --format json` prints.
  ///
  /// Keys: `group`, `folds` (each: `fold`, `groups`, `training_windows`, `test_windows`,
  /// `accuracy`, `macro_f1`, `balanced_accuracy`, `log_loss`, `ece`) and `summary`
  /// (metric -> `mean`, `std`; std with n - 1).
  public struct Report: Codable, Equatable, Sendable {
    public struct FoldRow: Codable, Equatable, Sendable {
      public var fold: Int
      public var groups: [String]
      public var trainingWindows: Int
      public var testWindows: Int
      public var accuracy: Double
      public var macroF1: Double
      public var balancedAccuracy: Double
      public var logLoss: Double
      public var ece: Double
      enum CodingKeys: String, CodingKey {
        case fold, groups, accuracy, ece
        case trainingWindows = "training_windows"
        case testWindows = "test_windows"
        case macroF1 = "macro_f1"
        case balancedAccuracy = "balanced_accuracy"
        case logLoss = "log_loss"
      }
    }
    public struct Statistic: Codable, Equatable, Sendable {
      public var mean: Double
      public var std: Double
    }
    public var group: String
    public var folds: [FoldRow]
    public var summary: [String: Statistic]

    public init(results: [FoldResult], group: String) {
      self.group = group
      folds = results.enumerated().map { k, r in
        FoldRow(
          fold: k + 1, groups: r.fold.groups, trainingWindows: r.fold.trainingRows.count,
          testWindows: r.fold.testRows.count, accuracy: r.evaluation.accuracy,
          macroF1: r.evaluation.macroF1, balancedAccuracy: r.evaluation.balancedAccuracy,
          logLoss: r.evaluation.logLoss, ece: r.evaluation.expectedCalibrationError)
      }
      summary = Dictionary(
        CrossValidation.summarize(results).map {
          ($0.name, Statistic(mean: $0.mean, std: $0.standardDeviation))
        }, uniquingKeysWith: { a, _ in a })
    }
  }

  /// UTF-8 JSON of the report, keys sorted, ending in a newline.
  public static func jsonData(_ results: [FoldResult], group: String) throws -> Data {
    var data = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(
      Report(results: results, group: group))
    data.append(UInt8(ascii: "\n"))
    return data
  }

  /// Per-fold table, then one line per metric with mean ± standard deviation.
  public static func text(_ results: [FoldResult], group: String) -> String {
    func f(_ x: Double) -> String { EvaluationResult.decimal(x) }
    let rows = results.enumerated().map { k, r -> [String] in
      let shown =
        r.fold.groups.prefix(8).joined(separator: ",")
        + (r.fold.groups.count > 8 ? ",+\(r.fold.groups.count - 8)" : "")
      return [
        String(k + 1), shown, String(r.fold.trainingRows.count), String(r.fold.testRows.count),
        f(r.evaluation.accuracy), f(r.evaluation.macroF1), f(r.evaluation.balancedAccuracy),
        f(r.evaluation.logLoss), f(r.evaluation.expectedCalibrationError),
      ]
    }
    var lines = EvaluationResult.table(
      header: [
        "fold", "test \(group)s", "train windows", "test windows", "accuracy", "macro-F1",
        "bal. acc.", "log loss", "ECE",
      ], rows: rows, leftAligned: [0, 1])
    lines.append("")
    lines.append("Over \(results.count) folds (mean ± sample standard deviation):")
    lines += EvaluationResult.table(
      header: ["metric", "mean", "std"],
      rows: summarize(results).map { [$0.name, f($0.mean), f($0.standardDeviation)] })
    return lines.joined(separator: "\n") + "\n"
  }
}
