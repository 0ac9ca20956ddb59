// `WindowTable.make` with the recordings shared out over several threads. Recordings are
// cut into contiguous groups, each group is windowed on its own, and the groups' rows are
// joined in recording order: the same table, and the same first error, as one pass.

import Foundation
import MotusData
import MotusFeatures
import MotusLinearAlgebra

extension WindowTable {
  /// `make(dataset:extractor:minimumPurity:)` on up to `threads` threads.
  ///
  /// - Throws: What `make` throws, for the first recording (in order) that fails.
  public static func makeConcurrently(
    dataset: Dataset, extractor: FeatureExtractor, minimumPurity: Float = 0,
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) throws -> WindowTable {
    let recordings = dataset.recordings
    guard threads > 1, recordings.count > 1 else {
      return try make(dataset: dataset, extractor: extractor, minimumPurity: minimumPurity)
    }
    // The checks `make` runs on every recording before any window, so that they come first.
    _ = try make(
      dataset: Dataset(
        channels: dataset.channels, labels: dataset.labels,
        recordings: recordings.map { Self.header(of: $0) }, negativeLabels: dataset.negativeLabels),
      extractor: extractor, minimumPurity: minimumPurity)
    let window = SlidingWindow(length: extractor.spec.windowLength, hop: extractor.spec.hopLength)
    let windowCount = window.count(in: recordings)
    try checkMemory(windowCount: windowCount, featureCount: extractor.featureCount)
    let groups = Self.groups(recordings, count: 4 * threads)
    let parts = GroupResults(count: groups.count)
    DispatchQueue.concurrentPerform(iterations: groups.count) { g in
      parts.set(
        g,
        Result {
          try make(
            dataset: Dataset(
              channels: dataset.channels, labels: dataset.labels,
              recordings: Array(recordings[groups[g]]), negativeLabels: dataset.negativeLabels),
            extractor: extractor, minimumPurity: minimumPurity)
        })
    }
    var table = try parts.values[0]!.get()
    table.features.values.reserveCapacity(windowCount * extractor.featureCount)
    for g in 1..<groups.count { table.append(try parts.values[g]!.get()) }
    return table
  }

  /// `part`'s rows after these, its recordings after this table's: the table of both datasets'
  /// recordings in order, when both share the feature names and label vocabulary.
  public mutating func append(_ part: WindowTable) {
    precondition(
      part.featureNames == featureNames && part.labels == labels,
      "appended table has other features or labels")
    features.appendRows(part.features)
    labelIndices += part.labelIndices
    purity += part.purity
    recordingIndices += part.recordingIndices.map { $0 + recordingSessions.count }
    recordingSessions += part.recordingSessions
    recordingSubjects += part.recordingSubjects
    starts += part.starts
    startTimes += part.startTimes
    skippedRecordingCount += part.skippedRecordingCount
    droppedImpureCount += part.droppedImpureCount
  }

  /// A recording's name, subject and rate with a single sample: too short for any window,
  /// so `make` on it runs only its per-recording checks.
  private static func header(of recording: Recording) -> Recording {
    Recording(
      session: recording.session, subject: recording.subject, source: recording.source,
      timestamps: [recording.timestamps.first ?? 0],
      columns: recording.columns.map { Array($0.prefix(1)) },
      labelIndices: Array(recording.labelIndices.prefix(1)), sampleRateHz: recording.sampleRateHz)
  }

  /// Up to `count` contiguous ranges of recordings with about the same number of samples.
  private static func groups(_ recordings: [Recording], count: Int) -> [Range<Int>] {
    let total = recordings.reduce(0) { $0 + $1.sampleCount }
    let target = max(1, total / max(1, count))
    var groups: [Range<Int>] = []
    var start = 0
    var samples = 0
    for (i, r) in recordings.enumerated() {
      samples += r.sampleCount
      if samples >= target || i == recordings.count - 1 {
        groups.append(start..<(i + 1))
        start = i + 1
        samples = 0
      }
    }
    return groups
  }
}

/// One group's table (or error) per slot, filled concurrently.
private final class GroupResults: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var values: [Result<WindowTable, Error>?]

  init(count: Int) { values = Array(repeating: nil, count: count) }

  func set(_ index: Int, _ value: Result<WindowTable, Error>) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }
}

extension WindowTable {
  /// The windows of the recordings `keep` accepts (by index into `recordingSessions`), in
  /// table order; recordings and their names stay as they are, so indices keep their meaning.
  ///
  /// - Complexity: O(windows · features) for the copy.
  public func keepingRecordings(_ keep: (Int) -> Bool) -> WindowTable {
    let rows = recordingIndices.indices.filter { keep(recordingIndices[$0]) }
    var table = self
    table.features = features.rows(rows)
    table.labelIndices = rows.map { labelIndices[$0] }
    table.purity = rows.map { purity[$0] }
    table.recordingIndices = rows.map { recordingIndices[$0] }
    table.starts = rows.map { starts[$0] }
    table.startTimes = rows.map { startTimes[$0] }
    return table
  }
}
