// The machine-readable report: snake_case keys, sorted, so other tools can read
// `accuracy`, `macro_f1`, `log_loss`, ... and files diff cleanly.

import Foundation
import MotusData
import MotusStreaming

extension EvaluationResult {
  /// The JSON document `motus evaluate --format json` prints.
  ///
  /// Keys: `accuracy`, `macro_f1`, `balanced_accuracy`, `log_loss`, `ece`, `windows`,
  /// `classes`, `confusion_matrix` (`labels`, `counts` with rows = truth), `per_class`
  /// (label -> `precision`, `recall`, `f1`, `support`), `per_source` (empty unless subjects
  /// are `source:subject`), `per_subject` and `per_session` (name -> `accuracy`, `macro_f1`,
  /// `windows`), `reliability` (bins), `skipped_recordings`, `dropped_impure_windows`,
  /// `window_length`, `hop_length`, `sample_rate_hz`, `unknown_threshold`, `coverage` (share
  /// of windows named a class), `covered_accuracy` (null when no window is named),
  /// `unknown_by_reason` (reason -> windows), `negatives` (absent without negative-label
  /// windows: `labels`, `windows`, `unknown_share`, `unknown_by_reason`, `answered_as`: class ->
  /// windows answered it, false alarms all), `smoothing`.
  public struct Report: Codable, Equatable, Sendable {
    public struct Confusion: Codable, Equatable, Sendable {
      public var labels: [String]
      public var counts: [[Int]]
    }
    public struct PerClass: Codable, Equatable, Sendable {
      public var precision: Double
      public var recall: Double
      public var f1: Double
      public var support: Int
    }
    public struct Group: Codable, Equatable, Sendable {
      public var accuracy: Double
      public var macroF1: Double
      public var windows: Int
      enum CodingKeys: String, CodingKey {
        case accuracy, windows
        case macroF1 = "macro_f1"
      }
    }
    public struct Bin: Codable, Equatable, Sendable {
      public var lower: Double
      public var upper: Double
      public var count: Int
      /// Null for an empty bin.
      public var confidence: Double?
      public var accuracy: Double?
    }
    public struct Negatives: Codable, Equatable, Sendable {
      public var labels: [String]
      public var windows: Int
      public var unknownShare: Double
      public var unknownByReason: [String: Int]
      /// Windows answered a class, by class (false alarms).
      public var answeredAs: [String: Int]
      enum CodingKeys: String, CodingKey {
        case labels, windows
        case unknownShare = "unknown_share"
        case unknownByReason = "unknown_by_reason"
        case answeredAs = "answered_as"
      }
    }
    public struct Skipped: Codable, Equatable, Sendable {
      public var session: String
      public var subject: String
      public var source: String
      public var samples: Int
      public var reason: String
    }

    public var accuracy: Double
    public var macroF1: Double
    public var balancedAccuracy: Double
    public var logLoss: Double
    public var ece: Double
    public var windows: Int
    public var classes: [String]
    public var confusionMatrix: Confusion
    public var perClass: [String: PerClass]
    public var perSource: [String: Group]
    public var perSubject: [String: Group]
    public var perSession: [String: Group]
    public var reliability: [Bin]
    public var skippedRecordings: [Skipped]
    public var droppedImpureWindows: Int
    public var windowLength: Int
    public var hopLength: Int
    public var sampleRateHz: Double
    /// The model's unknown threshold, the share of windows it names a class for, and the
    /// accuracy on those (1 and `accuracy` when the threshold is 0).
    public var unknownThreshold: Double
    public var coverage: Double
    public var coveredAccuracy: Double?
    public var unknownByReason: [String: Int]
    public var negatives: Negatives?
    /// How probabilities were smoothed over each recording before scoring: `none`,
    /// `ema alpha=A` or `hmm switch-probability=P`.
    public var smoothing: String

    enum CodingKeys: String, CodingKey {
      case accuracy, ece, windows, classes, reliability
      case macroF1 = "macro_f1"
      case balancedAccuracy = "balanced_accuracy"
      case logLoss = "log_loss"
      case confusionMatrix = "confusion_matrix"
      case perClass = "per_class"
      case perSource = "per_source"
      case perSubject = "per_subject"
      case perSession = "per_session"
      case skippedRecordings = "skipped_recordings"
      case droppedImpureWindows = "dropped_impure_windows"
      case windowLength = "window_length"
      case hopLength = "hop_length"
      case sampleRateHz = "sample_rate_hz"
      case unknownThreshold = "unknown_threshold"
      case coverage, smoothing
      case coveredAccuracy = "covered_accuracy"
      case unknownByReason = "unknown_by_reason"
      case negatives
    }
  }

  /// The report as a value (what `jsonData()` encodes).
  public var report: Report {
    let named = self.named
    func group(_ g: GroupMetrics) -> (String, Report.Group) {
      (g.name, Report.Group(accuracy: g.accuracy, macroF1: g.macroF1, windows: g.windows))
    }
    return Report(
      accuracy: accuracy, macroF1: macroF1, balancedAccuracy: balancedAccuracy, logLoss: logLoss,
      ece: expectedCalibrationError, windows: windowCount, classes: classes,
      confusionMatrix: Report.Confusion(labels: classes, counts: confusion.counts),
      perClass: Dictionary(
        perClass.map {
          (
            $0.label,
            Report.PerClass(
              precision: $0.precision, recall: $0.recall, f1: $0.f1, support: $0.support)
          )
        }, uniquingKeysWith: { a, _ in a }),
      perSource: Dictionary(perSource.map(group), uniquingKeysWith: { a, _ in a }),
      perSubject: Dictionary(perSubject.map(group), uniquingKeysWith: { a, _ in a }),
      perSession: Dictionary(perSession.map(group), uniquingKeysWith: { a, _ in a }),
      reliability: reliability.map {
        Report.Bin(
          lower: $0.lower, upper: $0.upper, count: $0.count,
          confidence: $0.count > 0 ? $0.meanConfidence : nil,
          accuracy: $0.count > 0 ? $0.accuracy : nil)
      },
      skippedRecordings: skippedRecordings.map {
        Report.Skipped(
          session: $0.session, subject: $0.subject, source: $0.source, samples: $0.sampleCount,
          reason: $0.reason)
      },
      droppedImpureWindows: droppedImpureCount, windowLength: windowLength,
      hopLength: hopLength, sampleRateHz: sampleRateHz, unknownThreshold: Double(unknownThreshold),
      coverage: named.coverage, coveredAccuracy: named.accuracy.isNaN ? nil : named.accuracy,
      unknownByReason: unknownByReason,
      negatives: negatives.map {
        Report.Negatives(
          labels: $0.labels, windows: $0.windows, unknownShare: $0.unknownShare,
          unknownByReason: $0.unknownByReason, answeredAs: $0.answeredAs)
      },
      smoothing: smoothingDescription)
  }

  /// UTF-8 JSON of `report`, keys sorted, pretty-printed, ending in a newline.
  public func jsonData() throws -> Data {
    var data = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(report)
    data.append(UInt8(ascii: "\n"))
    return data
  }
}
