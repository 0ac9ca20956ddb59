// Every window of a dataset as one feature row: features [N, F] plus, per row, the majority
// label, its purity, the recording and the start sample. The batch path training reads.

import MotusData
import MotusFeatures
import MotusLinearAlgebra

/// One row per kept window of a dataset.
public struct WindowTable: Sendable, Equatable {
  /// `[windowCount, featureCount]`, columns in `featureNames` order.
  public var features: Matrix
  public var featureNames: [String]
  /// Majority label of each window, an index into `labels`. Shape `[windowCount]`.
  public var labelIndices: [Int32]
  /// Fraction of the window's samples that carry its label, in (0, 1].
  public var purity: [Float]
  /// Index into `recordingSessions` / `recordingSubjects` (the dataset's recordings).
  public var recordingIndices: [Int]
  /// First sample of each window within its recording.
  public var starts: [Int]
  /// Timestamp in seconds of each window's first sample.
  public var startTimes: [Double]
  /// The dataset's label vocabulary.
  public var labels: [String]
  public var recordingSessions: [String]
  public var recordingSubjects: [String]
  /// Recordings shorter than one window, which gave no rows.
  public var skippedRecordingCount: Int
  /// Windows dropped because their purity was below the minimum.
  public var droppedImpureCount: Int

  public var windowCount: Int { labelIndices.count }
  public func label(at row: Int) -> String { labels[Int(labelIndices[row])] }
  public func session(at row: Int) -> String { recordingSessions[recordingIndices[row]] }
  public func subject(at row: Int) -> String { recordingSubjects[recordingIndices[row]] }

  /// Extracts every window of every recording.
  ///
  /// - Parameters:
  ///   - dataset: Its `channels` must equal `extractor.spec.recipes.map(\.name)`, and each
  ///     recording must be sampled at the spec's rate (within 2 %).
  ///   - extractor: Planned once; copied here, so the caller's stays untouched.
  ///   - minimumPurity: Windows whose majority label covers less than this fraction are
  ///     dropped (0, the default, keeps all).
  /// - Throws: `FeatureSpecError.channelMismatch`, `.sampleRateMismatch`, or
  ///   `.nonFiniteFeature` naming the window; `LimitError.memory` when the table would not fit.
  /// - Complexity: O(windows * cost of one extraction).
  public static func make(
    dataset: Dataset, extractor: FeatureExtractor, minimumPurity: Float = 0
  ) throws -> WindowTable {
    let spec = extractor.spec
    try checkCompatible(dataset, spec: spec)
    var extractor = extractor
    let window = SlidingWindow(length: spec.windowLength, hop: spec.hopLength)
    let featureCount = extractor.featureCount
    var table = WindowTable(
      features: Matrix(rowCount: 0, columnCount: featureCount),
      featureNames: extractor.featureNames,
      labelIndices: [], purity: [], recordingIndices: [], starts: [], startTimes: [],
      labels: dataset.labels, recordingSessions: dataset.recordings.map(\.session),
      recordingSubjects: dataset.recordings.map(\.subject), skippedRecordingCount: 0,
      droppedImpureCount: 0)
    let windowCount = window.count(in: dataset.recordings)
    try checkMemory(windowCount: windowCount, featureCount: featureCount)
    var values: [Float] = []
    values.reserveCapacity(windowCount * featureCount)
    var row = [Float](repeating: 0, count: featureCount)
    for (r, recording) in dataset.recordings.enumerated() {
      try table.appendWindows(
        of: recording, index: r, window: window, extractor: &extractor, row: &row,
        values: &values, minimumPurity: minimumPurity)
    }
    table.features = Matrix(
      rowCount: table.labelIndices.count, columnCount: featureCount, values: values)
    return table
  }

  /// Throws `LimitError.memory` when a table of `windowCount` rows of `featureCount` floats
  /// would not fit: refusing up front beats swapping or trapping halfway.
  public static func checkMemory(
    windowCount: Int, featureCount: Int,
    hint: String = "use a longer --hop, fewer features, or less data at once."
  ) throws {
    try Limits.checkMemory(
      Double(windowCount) * Double(featureCount) * 4,
      for: "a table of \(windowCount) windows x \(featureCount) features", hint: hint)
  }

  /// The dataset's channels are the spec's recipes and its recordings are at the spec's rate.
  static func checkCompatible(_ dataset: Dataset, spec: FeatureSpec) throws {
    let recipeNames = spec.recipes.map(\.name)
    guard dataset.channels == recipeNames else {
      throw FeatureSpecError.channelMismatch(dataset: dataset.channels, recipes: recipeNames)
    }
    for recording in dataset.recordings
    where abs(recording.sampleRateHz - spec.sampleRateHz) > 0.02 * spec.sampleRateHz {
      throw FeatureSpecError.sampleRateMismatch(
        session: recording.session, recordingHz: recording.sampleRateHz,
        specHz: spec.sampleRateHz)
    }
  }

  /// Every window of `recording` pure enough: its features appended to `values` (through the
  /// scratch `row`) and its label, purity, recording, start and time to the table.
  private mutating func appendWindows(
    of recording: Recording, index r: Int, window: SlidingWindow,
    extractor: inout FeatureExtractor, row: inout [Float], values: inout [Float],
    minimumPurity: Float
  ) throws {
    guard window.count(sampleCount: recording.sampleCount) > 0 else {
      skippedRecordingCount += 1
      return
    }
    extractor.restartContext()
    let hasContext = extractor.spec.context != nil
    for start in window.starts(sampleCount: recording.sampleCount) {
      let majority = SlidingWindow.majorityLabel(
        recording.labelIndices[start..<(start + window.length)])
      // A dropped window still passes through the context, as it does in a stream.
      if majority.purity < minimumPurity && !hasContext {
        droppedImpureCount += 1
        continue
      }
      row.withUnsafeMutableBufferPointer {
        extractor.extract(columns: recording.columns, start: start, into: $0)
      }
      if majority.purity < minimumPurity {
        droppedImpureCount += 1
        continue
      }
      // A NaN feature would reach a model or a metric; name the window instead.
      if let bad = row.firstIndex(where: { !$0.isFinite }) {
        throw FeatureSpecError.nonFiniteFeature(
          feature: extractor.featureNames[bad], session: recording.session,
          source: recording.source, startSeconds: recording.timestamps[start])
      }
      values.append(contentsOf: row)
      labelIndices.append(majority.label)
      purity.append(majority.purity)
      recordingIndices.append(r)
      starts.append(start)
      startTimes.append(recording.timestamps[start])
    }
  }
}
