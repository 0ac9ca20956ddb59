// After parsing: label map and filters, subject filters, rate detection, missing-cell
// filling, gap splitting, channel recipes and resampling, per session. Times in seconds.

import Foundation
import MotusData
import MotusOutput

/// What `finish` decided about labels before looking at sessions.
struct LabelDecisions: Sendable {
  /// Per raw label id: whether its rows are kept, and its id after the label map.
  var keep: [Bool]
  var mappedID: [Int32]
  var mappedNames: Interner
}

/// What one CSV session became: its report lines and its recordings.
struct SessionOutcome: Sendable {
  var summary: LoadReport.Session
  var skipped: [LoadReport.Skipped] = []
  var notes: [String] = []
  var rowsDroppedByLabel = 0
  var recordings: [Recording] = []
}

/// One session to finish: its rows and what it is called.
struct SessionWork: Sendable {
  var data: SessionData
  var name: String
  var subject: String
  var file: String
}

/// Samples and seconds per mapped label id, summed over recordings in order (the order the
/// report's totals have always been summed in).
struct LabelTally {
  private(set) var counts: [Int] = []
  private(set) var seconds: [Double] = []

  func isUsed(_ id: Int) -> Bool { id < counts.count && counts[id] > 0 }

  mutating func add(_ recordings: [Recording]) {
    for recording in recordings {
      let step = 1 / recording.sampleRateHz
      for l in recording.labelIndices {
        let id = Int(l)
        if id >= counts.count {
          counts += [Int](repeating: 0, count: id + 1 - counts.count)
          seconds += [Double](repeating: 0, count: id + 1 - seconds.count)
        }
        seconds[id] += step
        counts[id] += 1
      }
    }
  }
}

/// Everything a session needs from the whole load, shared by the threads that finish them.
struct FinishContext: Sendable {
  let options: LoadOptions
  let plan: ChannelPlan
  let labels: LabelDecisions
  let rawChannels: [String]
  let adapterCount: Int
}

extension LoadState {
  mutating func finish(files: [String]) throws -> LoadResult {
    recordFileTotals(files: files)
    let plan = try channelPlan()
    let labels = try labelDecisions()
    var work = sessionWork(files: files, names: qualifiedSessionNames(files: files))
    let outcomes = try Self.finishConcurrently(
      &work, context: finishContext(labels: labels, plan: plan))
    sessions = []
    let recordings = addToReport(outcomes)
    var tally = LabelTally()
    tally.add(recordings)
    return try assemble(recordings, tally: tally, mappedNames: labels.mappedNames)
  }

  /// The report's files and the missing cells of every file.
  mutating func recordFileTotals(files: [String]) {
    report.files = files
    for (c, name) in rawChannels.enumerated() where missing[c] > 0 {
      report.missingValues[name] = missing[c]
    }
  }

  func channelPlan() throws -> ChannelPlan {
    try ChannelPlan(recipes: adapterRecipes + recipes, rawChannels: rawChannels)
  }

  func finishContext(labels: LabelDecisions, plan: ChannelPlan) -> FinishContext {
    FinishContext(
      options: options, plan: plan, labels: labels, rawChannels: rawChannels,
      adapterCount: adapterRecipes.count)
  }

  /// Adds the sessions' report lines in order; returns their recordings.
  mutating func addToReport(_ outcomes: [SessionOutcome]) -> [Recording] {
    var recordings: [Recording] = []
    for outcome in outcomes {
      report.skipped += outcome.skipped
      report.notes += outcome.notes
      report.rowsDroppedByLabel += outcome.rowsDroppedByLabel
      report.sessions.append(outcome.summary)
      recordings += outcome.recordings
    }
    return recordings
  }

  /// Labels: map, check the map and the keep list against the data, decide per raw label.
  func labelDecisions() throws -> LabelDecisions {
    let present = labelNames.names.sorted(by: naturalOrder)
    for key in options.labelMap.keys.sorted() where !labelNames.names.contains(key) {
      throw CSVError.unknownLabelInMap(label: key, present: present)
    }
    let decisions = labelDecisionsSoFar()
    if let keepLabels = options.keepLabels {
      let mappedPresent = decisions.mappedNames.names.sorted(by: naturalOrder)
      for k in keepLabels where !mappedPresent.contains(k) {
        throw CSVError.unknownKeptLabel(label: k, present: mappedPresent)
      }
    }
    return decisions
  }

  /// The decisions for the labels read so far, without the checks that need all of them:
  /// a label's mapped id and whether it is kept do not change as more labels are read.
  func labelDecisionsSoFar() -> LabelDecisions {
    let mapped = labelNames.names.map { options.labelMap[$0] ?? $0 }
    var keep = [Bool](repeating: true, count: mapped.count)
    if let keepLabels = options.keepLabels {
      let keepSet = Set(keepLabels)
      keep = mapped.map { keepSet.contains($0) }
    }
    var mappedIDs = Interner()
    let mappedID = mapped.map { mappedIDs.id(of: $0) }
    return LabelDecisions(keep: keep, mappedID: mappedID, mappedNames: mappedIDs)
  }

  /// Each session's name: as read, or prefixed with its file's name when sessions of that
  /// name come from more than one file (names must be unique across files).
  func qualifiedSessionNames(files: [String]) -> [String] {
    var filesOfName: [Int32: Set<Int>] = [:]
    for s in sessions { filesOfName[s.name, default: []].insert(s.fileIndex) }
    return sessions.map { s -> String in
      let name = sessionNames.names[Int(s.name)]
      guard (filesOfName[s.name]?.count ?? 0) > 1 else { return name }
      return (PathName.last(files[s.fileIndex]) as NSString)
        .deletingPathExtension + "/" + name
    }
  }

  /// `sessions[range]` with their names, subjects and files, ready to finish; each session's
  /// rows move out of `sessions` (only its name, file and subject stay).
  mutating func sessionWork(
    files: [String], names: [String], range: Range<Int>? = nil
  ) -> [SessionWork] {
    (range ?? sessions.indices).map { i in
      let s = sessions[i]
      sessions[i] = SessionData(name: s.name, fileIndex: s.fileIndex, subject: s.subject)
      return SessionWork(
        data: s, name: names[i - (range?.lowerBound ?? 0)],
        subject: subjectNames.names[Int(s.subject)], file: files[s.fileIndex])
    }
  }

  /// Every session finished on every core, in order; each session's raw rows are released as
  /// soon as it is done, so raw rows and recordings are not all held at once.
  /// - Throws: The error of the first session (in order) that failed.
  static func finishConcurrently(
    _ work: inout [SessionWork], context: FinishContext
  ) throws -> [SessionOutcome] {
    let inputs = ConcurrentSlots<SessionWork>(count: work.count)
    for (i, w) in work.enumerated() { inputs.set(i, w) }
    let count = work.count
    work = []  // the slots hold the only copy: each session's rows go as it is taken
    let outcomes = ConcurrentSlots<Result<SessionOutcome, Error>>(count: count)
    let next = ConcurrentSlots<Int>(count: 1)
    DispatchQueue.concurrentPerform(
      iterations: min(count, max(1, ProcessInfo.processInfo.activeProcessorCount))
    ) { _ in
      while let i = next.increment(below: count), let w = inputs.take(i) {
        outcomes.set(
          i,
          Result {
            try Self.finish(
              w.data, name: w.name, subject: w.subject, file: w.file, context: context)
          })
      }
    }
    return try outcomes.values.map { try $0!.get() }
  }

  /// Label vocabulary, counts and the dataset from every recording.
  private mutating func assemble(
    _ recordings: [Recording], tally: LabelTally, mappedNames: Interner
  ) throws -> LoadResult {
    var recordings = recordings
    let (vocabulary, finalIndex) = try vocabulary(
      tally, recordingCount: recordings.count, mappedNames: mappedNames)
    for i in recordings.indices {
      recordings[i].labelIndices = recordings[i].labelIndices.map { finalIndex[Int($0)] }
    }
    let dataset = Dataset(
      channels: recipes.map(\.name), labels: vocabulary, recordings: recordings)
    return LoadResult(dataset: dataset, recipes: recipes, report: report)
  }

  /// The final label vocabulary (the labels recordings use, in natural order), each mapped
  /// id's index in it (-1 when unused), and the report's label totals and recording count.
  /// - Throws: `CSVError.nothingLeft` when there are no recordings.
  mutating func vocabulary(
    _ tally: LabelTally, recordingCount: Int, mappedNames: Interner
  ) throws -> (labels: [String], finalIndex: [Int32]) {
    var mappedIDs = mappedNames
    let vocabulary = mappedIDs.names.indices.filter { tally.isUsed($0) }
      .map { mappedIDs.names[$0] }.sorted(by: naturalOrder)
    var finalIndex = [Int32](repeating: -1, count: mappedIDs.names.count)
    for (i, l) in vocabulary.enumerated() {
      let id = Int(mappedIDs.id(of: l))
      finalIndex[id] = Int32(i)
      report.labelDurationsSeconds[l] = tally.seconds[id]
      report.labelSampleCounts[l] = tally.counts[id]
    }
    report.recordingCount = recordingCount
    guard recordingCount > 0 else {
      throw CSVError.nothingLeft(reasons: report.skippedByReason.map { "\($0.count) \($0.reason)" })
    }
    return (vocabulary, finalIndex)
  }

  /// One session: subject filters, kept labels, missing cells filled, split at gaps.
  private static func finish(
    _ s: SessionData, name: String, subject: String, file: String, context: FinishContext
  ) throws -> SessionOutcome {
    let options = context.options
    let rowCount = s.timestamps.count
    let period = typicalTimeStep(timestamps: s.timestamps) ?? 0
    var outcome = SessionOutcome(
      summary: LoadReport.Session(
        name: name, subject: subject, file: file, rowCount: rowCount,
        detectedRateHz: period > 0 ? 1 / period : 0, recordingCount: 0))
    func skip(_ reason: String) -> SessionOutcome {
      outcome.skipped.append(
        LoadReport.Skipped(session: name, file: file, rowCount: rowCount, reason: reason))
      return outcome
    }
    if let only = options.subjects, !only.contains(subject) {
      return skip("subject not in --subjects")
    }
    if let excluded = options.excludeSubjects, excluded.contains(subject) {
      return skip("subject in --exclude-subjects")
    }
    // Rows whose label is kept.
    var rows: [Int] = []
    rows.reserveCapacity(rowCount)
    for r in 0..<rowCount {
      let l = s.labels[r]
      if l >= 0 && context.labels.keep[Int(l)] { rows.append(r) }
    }
    outcome.rowsDroppedByLabel = rowCount - rows.count
    if rows.isEmpty { return skip("no rows with a kept label") }
    // Channel-major raw columns of the kept rows, missing cells filled.
    let rawCount = context.rawChannels.count
    var raw = LoadState.transpose(s.values, rows: rows, channelCount: rawCount)
    let times = rows.count == rowCount ? s.timestamps : rows.map { s.timestamps[$0] }
    for c in 0..<rawCount where !LoadState.fillMissing(&raw[c], times: times) {
      return skip("channel '\(context.rawChannels[c])' has no values")
    }
    // Split at gaps (`GapRule`: long relative to the sampling and in absolute time).
    let pieces = options.gapRule.pieces(times: times, typicalStep: period)
    let whole = pieces.count == 1 && rows.count == rowCount
    for (k, piece) in pieces.enumerated() {
      let pieceName = k == 0 ? name : "\(name)#\(k + 1)"
      let labels = rows[piece].map { context.labels.mappedID[Int(s.labels[$0])] }
      guard piece.count >= 2,
        let recording = try Self.recording(
          Array(times[piece]), LoadState.apply(context.plan, to: raw, range: piece), labels,
          name: pieceName, subject: subject, file: file, step: whole ? period : nil,
          context: context, notes: &outcome.notes)
      else {
        outcome.skipped.append(
          LoadReport.Skipped(
            session: pieceName, file: file, rowCount: piece.count,
            reason: "recording shorter than 2 samples"))
        continue
      }
      outcome.recordings.append(recording)
      outcome.summary.recordingCount += 1
    }
    return outcome
  }

  /// One piece of a session as a recording, resampled when asked; nil when it ends up
  /// shorter than 2 samples.
  private static func recording(
    _ times: [Double], _ planned: [[Float]], _ labels: [Int32], name: String, subject: String,
    file: String, step: Double?, context: FinishContext, notes: inout [String]
  ) throws -> Recording? {
    var pieceTimes = times
    var columns = planned
    columns.removeFirst(context.adapterCount)
    var labels = labels
    // The whole session unsplit: its step is already known.
    var rate = 1 / (step ?? typicalTimeStep(timestamps: pieceTimes) ?? 0)
    // Jitter bridged by the gap rule is resampled away at the piece's own rate.
    let gapRule = context.options.gapRule
    let jittery = gapRule.bridgesJitter(times: pieceTimes, typicalStep: 1 / rate)
    if jittery && context.options.sampleRateHz == nil {
      notes.append(
        "session '\(Excerpt.text(name))': time steps up to \(gapRule.minimumGapSeconds) s "
          + "bridged and resampled to its own \(String(format: "%.2f", rate)) Hz")
    }
    if let target = context.options.sampleRateHz ?? (jittery ? rate : nil), !columns.isEmpty {
      let what = "session '\(Excerpt.text(name))' (\(file))"
      try Limits.checkResampling(fromHz: rate, toHz: target, what: what)
      try LoadState.checkResamplingMemory(
        seconds: pieceTimes[pieceTimes.count - 1] - pieceTimes[0], rateHz: target,
        channelCount: columns.count, what: "resampling \(what) to \(target) Hz")
      let resampled = StreamingResampler.resample(
        timestamps: pieceTimes, columns: columns, inputRateHz: rate, outputRateHz: target)
      labels = LoadState.nearestLabels(at: resampled.timestamps, times: pieceTimes, labels: labels)
      pieceTimes = resampled.timestamps
      columns = resampled.columns
      rate = target
    }
    guard pieceTimes.count >= 2 else { return nil }
    return Recording(
      session: name, subject: subject, source: file, timestamps: pieceTimes, columns: columns,
      labelIndices: labels, sampleRateHz: rate)
  }

  /// Refuses a resampling whose output (times, labels and `channelCount` columns) would not
  /// fit in memory.
  static func checkResamplingMemory(
    seconds: Double, rateHz: Double, channelCount: Int, what: String
  ) throws {
    let samples = seconds * rateHz + 1
    try Limits.checkMemory(
      samples * Double(8 + 4 + 4 * channelCount), for: what,
      hint: "check the timestamps (seconds, increasing) and the rate (Hz).")
  }

  /// Channel-major copy of the given rows of row-major `values`: `[channelCount][rows.count]`.
  /// - Complexity: O(rows.count * channelCount), one pass over the rows.
  static func transpose(_ values: [Float], rows: [Int], channelCount: Int) -> [[Float]] {
    let n = rows.count
    var columns = [[Float]](repeating: [], count: channelCount)
    values.withUnsafeBufferPointer { v in
      for c in 0..<channelCount {
        columns[c] = [Float](unsafeUninitializedCapacity: n) { out, count in
          for (i, r) in rows.enumerated() { out[i] = v[r * channelCount + c] }
          count = n
        }
      }
    }
    return columns
  }

  /// Runs `plan` over `raw[c][range]`. A plan of plain copies of raw columns is applied as a
  /// column copy (times the scale, exact for 1 and -1), which gives the same values as
  /// `ChannelPlan.apply` without the per-sample gather.
  static func apply(_ plan: ChannelPlan, to raw: [[Float]], range: Range<Int>) -> [[Float]] {
    let slotOf = Dictionary(
      plan.rawChannels.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    // Copies of raw columns only: no input may name an earlier recipe's output.
    var earlier: Set<String> = []
    var copies = true
    for r in plan.recipes {
      copies =
        copies && r.operation == .copy && r.inputs.count == 1
        && slotOf[r.inputs[0]] != nil && !earlier.contains(r.inputs[0])
      earlier.insert(r.name)
    }
    if copies {
      return plan.recipes.map { recipe in
        let column = raw[slotOf[recipe.inputs[0]] ?? 0][range]
        return recipe.scale == 1 ? Array(column) : column.map { $0 * recipe.scale }
      }
    }
    return plan.apply(columns: raw.map { Array($0[range]) })
  }

  /// Replaces NaN cells by linear interpolation in time between the nearest values (held
  /// at the ends). Returns false when the column has no values at all.
  static func fillMissing(_ column: inout [Float], times: [Double]) -> Bool {
    guard column.contains(where: { $0.isNaN }) else { return true }
    guard let firstValid = column.firstIndex(where: { !$0.isNaN }) else { return false }
    for i in 0..<firstValid { column[i] = column[firstValid] }
    var previous = firstValid
    var i = firstValid + 1
    while i < column.count {
      if !column[i].isNaN {
        previous = i
        i += 1
        continue
      }
      var next = i
      while next < column.count && column[next].isNaN { next += 1 }
      if next == column.count {
        for j in i..<next { column[j] = column[previous] }
      } else {
        let t0 = times[previous]
        let t1 = times[next]
        for j in i..<next {
          let w = Float((times[j] - t0) / (t1 - t0))
          column[j] = column[previous] + w * (column[next] - column[previous])
        }
      }
      i = next
    }
    return true
  }

  /// For each grid time, the label of the input sample nearest in time.
  static func nearestLabels(at grid: [Double], times: [Double], labels: [Int32]) -> [Int32] {
    var out = [Int32](repeating: 0, count: grid.count)
    var j = 0
    for (k, g) in grid.enumerated() {
      while j + 1 < times.count && abs(times[j + 1] - g) <= abs(times[j] - g) { j += 1 }
      out[k] = labels[j]
    }
    return out
  }
}
