// What `DataSource.windows` gives: every window of the data. CSV files are windowed a session
// at a time while they are read (`DatasetLoader.loadSessions`), so memory follows the table,
// not the raw samples; the table is the one loading whole and then windowing gives, and where
// that cannot be promised as the files are read, `DataSource.windows` loads them whole.

import MotusData
import MotusFeatures
import MotusLinearAlgebra

/// Every window of labelled data, and what the load said.
public struct WindowedLoad: Sendable {
  /// The data's windows, then each copy's (see `WindowTable.Copies`).
  public var table: WindowTable
  public var spec: FeatureSpec
  /// Every recording loaded (those too short for a window too), the labels and the report.
  public var outline: LoadOutline
  /// Whether the sessions were windowed as they were read (false: the data was loaded whole).
  public var streamed: Bool
  /// A manifest's source weights (`WholeLoad.sourceWeights`); empty for CSV files.
  public var sourceWeights: [String: Double] = [:]

  /// Windows a dataset already loaded with `spec`, on every core.
  ///
  /// - Parameter eachPart: As `DataSource.windows`.
  init(
    result: LoadResult, spec: FeatureSpec, minimumPurity: Float = 0,
    copies: WindowTable.Copies? = nil, eachPart: ((inout WindowTable) throws -> Void)? = nil
  ) throws {
    self.spec = spec
    var parts = try WindowTable.makeWithCopies(
      dataset: result.dataset, extractor: FeatureExtractor(spec: spec),
      minimumPurity: minimumPurity, copies: copies)
    if let eachPart { for k in parts.indices { try eachPart(&parts[k]) } }
    table = WindowTable.join(&parts)
    outline = LoadOutline(result)
    streamed = false
  }

  private init(table: WindowTable, spec: FeatureSpec, outline: LoadOutline) {
    (self.table, self.spec, self.outline) = (table, spec, outline)
    streamed = true
  }

  /// Stops a streaming load whose chooser asked for the whole load.
  private struct Declined: Error {}

  /// `paths` windowed as each batch of sessions is handed over by `loadSessions` (and its
  /// copies, each kind in a table of its own until the end); nil when the load cannot stream,
  /// when `chooseSpec` throws or answers `.loadWhole`, or when the spec the first recording
  /// suggested is not the whole data's. The caller then loads whole (`DataSource.windows`).
  ///
  /// - Parameter eachPart: Called on each batch's table (then on each copy's) before it joins
  ///   the rest, in order.
  static func loadStreaming(
    _ paths: [String], options: LoadOptions, minimumPurity: Float = 0,
    copies: WindowTable.Copies? = nil, progress: ((Int, Int) -> Void)? = nil,
    eachPart: ((inout WindowTable) throws -> Void)? = nil,
    chooseSpec: @escaping ([ChannelRecipe], [Double]) throws -> SpecDecision
  ) -> WindowedLoad? {
    var extractor: FeatureExtractor?
    // Per kind (the data, then each copy), its batches' tables in order. Joined once at the
    // end, each freed as it is copied: memory peaks at the table plus one batch's part, not
    // at growing tables plus the whole.
    var kinds: [[WindowTable]] = []
    var windowCount = 0
    var recordingCount = 0
    let loaded = DatasetLoader.loadSessions(paths, options: options, progress: progress) { batch in
      guard let first = batch.recordings.first else { return }
      if extractor == nil {
        guard case .use(let spec) = try chooseSpec(batch.recipes, [first.sampleRateHz]) else {
          throw Declined()
        }
        extractor = try FeatureExtractor(spec: spec)
      }
      var parts = try WindowTable.makeWithCopies(
        dataset: naturallyOrdered(batch), extractor: extractor!, minimumPurity: minimumPurity,
        copies: copies, firstIndex: recordingCount)
      recordingCount += batch.recordings.count
      if let eachPart { for k in parts.indices { try eachPart(&parts[k]) } }
      if kinds.isEmpty { kinds = parts.map { _ in [] } }
      for (k, part) in parts.enumerated() {
        kinds[k].append(part)
        windowCount += part.windowCount
      }
      try WindowTable.checkMemory(
        windowCount: windowCount, featureCount: parts[0].featureNames.count)
    }
    guard let loaded, !kinds.isEmpty, let spec = extractor?.spec,
      (try? chooseSpec(loaded.recipes, loaded.recordings.map(\.sampleRateHz))) == .use(spec)
    else { return nil }
    var inOrder = kinds.flatMap { $0 }
    kinds = []  // the parts' one reference each is `inOrder`'s, so `join` frees them
    for k in inOrder.indices { inOrder[k].relabel(to: loaded.labels) }
    return WindowedLoad(table: WindowTable.join(&inOrder), spec: spec, outline: loaded)
  }

  /// The batch as a dataset whose labels are in natural order, as the final vocabulary is:
  /// a window whose labels tie takes the first in that order, as it would in the whole load.
  private static func naturallyOrdered(_ batch: SessionBatch) -> Dataset {
    let sorted = batch.labels.sorted(by: naturalOrder)
    var rank = [Int32](repeating: 0, count: batch.labels.count)
    for (i, name) in sorted.enumerated() { rank[batch.labels.firstIndex(of: name)!] = Int32(i) }
    let recordings = batch.recordings.map { recording in
      var ranked = recording
      ranked.labelIndices = recording.labelIndices.map { rank[Int($0)] }
      return ranked
    }
    return Dataset(channels: batch.recipes.map(\.name), labels: sorted, recordings: recordings)
  }
}

extension WindowTable {
  /// The same rows without their features (no feature columns): what is left once a caller
  /// has taken what it needs of them.
  public mutating func dropFeatures() {
    features = Matrix(rowCount: windowCount, columnCount: 0)
    featureNames = []
  }

  /// A table of no rows with `table`'s features and labels.
  static func empty(like table: WindowTable) -> WindowTable {
    WindowTable(
      features: Matrix(rowCount: 0, columnCount: table.featureNames.count),
      featureNames: table.featureNames, labelIndices: [], purity: [], recordingIndices: [],
      starts: [], startTimes: [], labels: table.labels, recordingSessions: [],
      recordingSubjects: [], skippedRecordingCount: 0, droppedImpureCount: 0)
  }

  /// The same rows, their labels given as indices into `vocabulary`, which must hold every
  /// label a row uses.
  public mutating func relabel(to vocabulary: [String]) {
    guard vocabulary != labels else { return }
    var index: [String: Int32] = [:]
    for (i, name) in vocabulary.enumerated() where index[name] == nil { index[name] = Int32(i) }
    let mapped = labels.map { index[$0] ?? -1 }
    labelIndices = labelIndices.map { old in
      let new = mapped[Int(old)]
      precondition(new >= 0, "relabel: '\(labels[Int(old)])' is not in the vocabulary")
      return new
    }
    labels = vocabulary
  }
}
