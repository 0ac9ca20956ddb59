// One continuous recording and the labelled set of recordings that ingestion produces.
// Columns are stored channel-major (`columns[c][t]`) because every consumer downstream
// (resampling, windowing, features) walks one channel at a time.

import Foundation

/// One continuous stretch of samples from one subject on one clock.
///
/// A CSV session becomes one or more recordings: a time gap splits it, so within a
/// recording the samples are (nearly) evenly spaced at `sampleRateHz`.
public struct Recording: Sendable, Equatable {
  /// The session name as read (plus a `#k` suffix when a gap split it).
  public var session: String
  /// The person; `"unknown"` when the data does not say.
  public var subject: String
  /// The file the samples came from, for error messages and reports.
  public var source: String
  /// Seconds, strictly ascending. Shape `[sampleCount]`.
  public var timestamps: [Double]
  /// Channel values, `columns[c][t]`, in the order of `Dataset.channels`.
  public var columns: [[Float]]
  /// Per sample, an index into `Dataset.labels`. Shape `[sampleCount]`.
  public var labelIndices: [Int32]
  /// Median sampling rate of this recording (or the rate it was resampled to).
  public var sampleRateHz: Double
  /// The phone's own step count over this recording, when it came from an app export that
  /// logs one (see `PedometerReference`).
  public var pedometer: PedometerReference? = nil

  public init(
    session: String, subject: String, source: String, timestamps: [Double],
    columns: [[Float]], labelIndices: [Int32], sampleRateHz: Double
  ) {
    self.session = session
    self.subject = subject
    self.source = source
    self.timestamps = timestamps
    self.columns = columns
    self.labelIndices = labelIndices
    self.sampleRateHz = sampleRateHz
  }

  public var sampleCount: Int { timestamps.count }
  public var durationSeconds: Double {
    guard let first = timestamps.first, let last = timestamps.last else { return 0 }
    return last - first + (sampleRateHz > 0 ? 1 / sampleRateHz : 0)
  }
}

/// Recordings that share one channel list and one label vocabulary.
public struct Dataset: Sendable, Equatable {
  /// Channel names, the order of `Recording.columns`.
  public var channels: [String]
  /// Label names; `Recording.labelIndices` point into this array.
  public var labels: [String]
  public var recordings: [Recording]
  /// Labels among `labels` that name none of the classes a model should learn (rowing, jumping
  /// in a dataset of everyday activities): kept so that a model can learn to answer `unknown`
  /// for them and an evaluation can measure how often it does.
  public var negativeLabels: [String]

  public init(
    channels: [String], labels: [String], recordings: [Recording], negativeLabels: [String] = []
  ) {
    self.channels = channels
    self.labels = labels
    self.recordings = recordings
    self.negativeLabels = negativeLabels
  }

  /// Whether `labels[index]` is a negative label.
  public func isNegative(labelIndex index: Int) -> Bool {
    index >= 0 && index < labels.count && negativeLabels.contains(labels[index])
  }

  /// Labels that are classes (not negatives), in `labels` order.
  public var classLabels: [String] { labels.filter { !negativeLabels.contains($0) } }

  public var sampleCount: Int { recordings.reduce(0) { $0 + $1.sampleCount } }
  public var subjects: [String] { Array(Set(recordings.map(\.subject))).sorted(by: naturalOrder) }
}

/// Orders "2" before "10" and "sub2" before "sub10"; plain string order otherwise.
public func naturalOrder(_ a: String, _ b: String) -> Bool {
  a.compare(b, options: .numeric) == .orderedAscending
}
