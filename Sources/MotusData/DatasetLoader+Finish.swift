// After parsing: label map and filters, subject filters, rate detection, missing-cell
// filling, gap splitting, channel recipes and resampling, per session. Times in seconds.

import Foundation

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
    report.files = files
    let plan = try ChannelPlan(recipes: adapterRecipes + recipes, rawChannels: rawChannels)
    for (c, name) in rawChannels.enumerated() where missing[c] > 0 {
      report.missingValues[name] = missing[c]
    }
    let labels = try labelDecisions()
    let context = FinishContext(
      options: options, plan: plan, labels: labels, rawChannels: rawChannels,
      adapterCount: adapterRecipes.count)
    let outcomes = try finishSessions(files: files, context: context)
    var recordings: [Recording] = []
    for outcome in outcomes {
      report.skipped += outcome.skipped
      report.notes += outcome.notes
      report.rowsDroppedByLabel += outcome.rowsDroppedByLabel
      report.sessions.append(outcome.summary)
      recordings += outcome.recordings
    }
    return try assemble(recordings, mappedNames: labels.mappedNames)
  }

  /// Labels: map, check the map and the keep list against the data, decide per raw label.
  private func labelDecisions() throws -> LabelDecisions {
    let present = labelNames.names.sorted(by: naturalOrder)
    for key in options.labelMap.keys.sorted() where !labelNames.names.contains(key) {
      throw CSVError.unknownLabelInMap(label: key, present: present)
    }
    let mapped = labelNames.names.map { options.labelMap[$0] ?? $0 }
    let mappedPresent = Array(Set(mapped)).sorted(by: naturalOrder)
    var keep = [Bool](repeating: true, count: mapped.count)
    if let keepLabels = options.keepLabels {
      for k in keepLabels where !mappedPresent.contains(k) {
        throw CSVError.unknownKeptLabel(label: k, present: mappedPresent)
      }
      let keepSet = Set(keepLabels)
      keep = mapped.map { keepSet.contains($0) }
    }
    var mappedIDs = Interner()
    let mappedID = mapped.map { mappedIDs.id(of: $0) }
    return LabelDecisions(keep: keep, mappedID: mappedID, mappedNames: mappedIDs)
  }

  /// Every session finished on every core, in session order; each session's raw rows are
  /// released as soon as it is done, so raw rows and recordings are not all held at once.
  /// - Throws: The error of the first session (in order) that failed.
  private mutating func finishSessions(
    files: [String], context: FinishContext
  ) throws -> [SessionOutcome] {
    // Session names must be unique across files.
    var filesOfName: [Int32: Set<Int>] = [:]
    for s in sessions { filesOfName[s.name, default: []].insert(s.fileIndex) }
    let names = sessions.map { s -> String in
      let name = sessionNames.names[Int(s.name)]
      guard (filesOfName[s.name]?.count ?? 0) > 1 else { return name }
      return ((files[s.fileIndex] as NSString).lastPathComponent as NSString)
        .deletingPathExtension + "/" + name
    }
    let subjects = sessions.map { subjectNames.names[Int($0.subject)] }
    let inputs = ConcurrentSlots<SessionData>(count: sessions.count)
    for (i, s) in sessions.enumerated() { inputs.set(i, s) }
    sessions = []
    let outcomes = ConcurrentSlots<Result<SessionOutcome, Error>>(count: names.count)
    let next = ConcurrentSlots<Int>(count: 1)
    DispatchQueue.concurrentPerform(
      iterations: min(names.count, max(1, ProcessInfo.processInfo.activeProcessorCount))
    ) { _ in
      while let i = next.increment(below: names.count), let session = inputs.take(i) {
        outcomes.set(i, Result {
          try Self.finish(
            session, name: names[i], subject: subjects[i], file: files[session.fileIndex],
            context: context)
        })
      }
    }
    return try outcomes.values.map { try $0!.get() }
  }

  /// Label vocabulary, counts and the dataset from every recording.
  private mutating func assemble(_ recordings: [Recording], mappedNames: Interner) throws
    -> LoadResult
  {
    var recordings = recordings
    var mappedIDs = mappedNames
    // Final label vocabulary: labels used by recordings, in natural order.
    var used = [Bool](repeating: false, count: mappedIDs.names.count)
    for r in recordings {
      for l in r.labelIndices { used[Int(l)] = true }
    }
    let vocabulary = mappedIDs.names.indices.filter { used[$0] }.map { mappedIDs.names[$0] }
      .sorted(by: naturalOrder)
    var finalIndex = [Int32](repeating: -1, count: mappedIDs.names.count)
    for (i, l) in vocabulary.enumerated() { finalIndex[Int(mappedIDs.id(of: l))] = Int32(i) }
    var seconds = [Double](repeating: 0, count: vocabulary.count)
    var counts = [Int](repeating: 0, count: vocabulary.count)
    for i in recordings.indices {
      recordings[i].labelIndices = recordings[i].labelIndices.map { finalIndex[Int($0)] }
      let step = 1 / recordings[i].sampleRateHz
      for l in recordings[i].labelIndices {
        seconds[Int(l)] += step
        counts[Int(l)] += 1
      }
    }
    for (i, label) in vocabulary.enumerated() {
      report.labelDurationsSeconds[label] = seconds[i]
      report.labelSampleCounts[label] = counts[i]
    }
    report.recordingCount = recordings.count
    guard !recordings.isEmpty else {
      throw CSVError.nothingLeft(reasons: report.skippedByReason.map { "\($0.count) \($0.reason)" })
    }
    let dataset = Dataset(
      channels: recipes.map(\.name), labels: vocabulary, recordings: recordings)
    return LoadResult(dataset: dataset, recipes: recipes, report: report)
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
    if let only = options.subjects, !only.contains(subject) { return skip("subject not in --subjects") }
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
      if let recording = try piece.count < 2 ? nil : Self.recording(
        Array(times[piece]), LoadState.apply(context.plan, to: raw, range: piece), labels,
        name: pieceName, subject: subject, file: file, step: whole ? period : nil,
        context: context, notes: &outcome.notes)
      {
        outcome.recordings.append(recording)
        outcome.summary.recordingCount += 1
      } else {
        outcome.skipped.append(
          LoadReport.Skipped(
            session: pieceName, file: file, rowCount: piece.count,
            reason: "recording shorter than 2 samples"))
      }
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
      copies = copies && r.operation == .copy && r.inputs.count == 1
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
