// The facts `motus inspect` reports about a load, gathered once so that its text and JSON
// forms say the same thing. Durations in seconds, rates in Hz, shares in percent.

import MotusData

/// What a `LoadResult` holds: files, channels, sessions, subjects, labels, rates, gaps in the
/// data. Encodes to JSON with the property names as keys (documented on each property).
public struct DatasetSummary: Encodable, Sendable, Equatable {
  public struct Channel: Encodable, Sendable, Equatable {
    public var name: String
    /// `copy`, `sum` or `magnitude`.
    public var operation: String
    public var inputs: [String]
    /// 1, or -1 for negated (Android-sign) acceleration.
    public var scale: Float
  }

  public struct Session: Encodable, Sendable, Equatable {
    public var name: String
    public var subject: String
    public var file: String
    /// Data rows read (before label filtering).
    public var rows: Int
    /// 1 / median time step; 0 with fewer than two rows.
    public var rateHz: Double
    /// Recordings the session became after gap splitting (0 when skipped).
    public var recordings: Int
  }

  public struct Subject: Encodable, Sendable, Equatable {
    public var name: String
    public var recordings: Int
    /// Samples / rate, summed over the subject's recordings.
    public var durationSeconds: Double
  }

  public struct Label: Encodable, Sendable, Equatable {
    public var name: String
    public var samples: Int
    public var durationSeconds: Double
    /// Percent of all labelled time, 0-100.
    public var sharePercent: Double
    /// Whether the label is a negative (none of the classes; see `Dataset.negativeLabels`).
    public var isNegative: Bool
  }

  public struct Rate: Encodable, Sendable, Equatable {
    /// A recording rate rounded to 0.01 Hz.
    public var rateHz: Double
    public var recordings: Int
  }

  public struct Skipped: Encodable, Sendable, Equatable {
    public var session: String
    public var file: String
    public var rows: Int
    public var reason: String
  }

  /// Files read, in order.
  public var files: [String]
  public var rowsRead: Int
  /// Rows dropped because their label was empty or not kept.
  public var rowsDroppedByLabel: Int
  /// Recordings in the dataset (sessions split at gaps).
  public var recordings: Int
  public var samples: Int
  /// Channels in dataset order, each with how it is computed from the CSV columns.
  public var channels: [Channel]
  public var sessions: [Session]
  /// Natural order ("2" before "10").
  public var subjects: [Subject]
  /// Dataset label order.
  public var labels: [Label]
  /// Ascending by rate.
  public var recordingRates: [Rate]
  /// Empty cells per raw column (filled by linear interpolation in time); zero counts omitted.
  public var missingValues: [String: Int]
  public var skipped: [Skipped]
  /// Notes from loading (for example channels added so that a magnitude can be computed).
  public var notes: [String]

  public init(_ result: LoadResult) { self.init(LoadOutline(result)) }

  public init(_ outline: LoadOutline) {
    let report = outline.report
    files = report.files
    rowsRead = report.rowsRead
    rowsDroppedByLabel = report.rowsDroppedByLabel
    recordings = outline.recordings.count
    samples = outline.recordings.reduce(0) { $0 + $1.sampleCount }
    channels = outline.recipes.map {
      Channel(name: $0.name, operation: $0.operation.rawValue, inputs: $0.inputs, scale: $0.scale)
    }
    sessions = report.sessions.map {
      Session(
        name: $0.name, subject: $0.subject, file: $0.file, rows: $0.rowCount,
        rateHz: $0.detectedRateHz, recordings: $0.recordingCount)
    }
    var seconds: [String: Double] = [:]
    var counts: [String: Int] = [:]
    for r in outline.recordings {
      seconds[r.subject, default: 0] += Double(r.sampleCount) / r.sampleRateHz
      counts[r.subject, default: 0] += 1
    }
    subjects = outline.subjects.map {
      Subject(name: $0, recordings: counts[$0] ?? 0, durationSeconds: seconds[$0] ?? 0)
    }
    // Summed in vocabulary order: a dictionary's order changes from run to run, and with it
    // the last bits of a sum.
    let total = outline.labels.reduce(0) { $0 + (report.labelDurationsSeconds[$1] ?? 0) }
    labels = outline.labels.map { label in
      let s = report.labelDurationsSeconds[label] ?? 0
      return Label(
        name: label, samples: report.labelSampleCounts[label] ?? 0, durationSeconds: s,
        sharePercent: total > 0 ? 100 * s / total : 0,
        isNegative: outline.negativeLabels.contains(label))
    }
    var rateCounts: [Double: Int] = [:]
    for r in outline.recordings {
      rateCounts[(r.sampleRateHz * 100).rounded() / 100, default: 0] += 1
    }
    recordingRates = rateCounts.keys.sorted().map { Rate(rateHz: $0, recordings: rateCounts[$0]!) }
    missingValues = report.missingValues.filter { $0.value > 0 }
    skipped = report.skipped.map {
      Skipped(session: $0.session, file: $0.file, rows: $0.rowCount, reason: $0.reason)
    }
    notes = report.notes
  }

  /// Skipped sessions grouped by reason, with counts, sorted by reason.
  public var skippedByReason: [(reason: String, count: Int)] {
    var counts: [String: Int] = [:]
    for s in skipped { counts[s.reason, default: 0] += 1 }
    return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }
}
