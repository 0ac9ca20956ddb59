// After parsing: label map and filters, subject filters, rate detection, missing-cell
// filling, gap splitting, channel recipes and resampling, per session. Times in seconds.

import Foundation

extension LoadState {
  mutating func finish(files: [String]) throws -> LoadResult {
    report.files = files
    let plan = try ChannelPlan(recipes: adapterRecipes + recipes, rawChannels: rawChannels)
    for (c, name) in rawChannels.enumerated() where missing[c] > 0 {
      report.missingValues[name] = missing[c]
    }

    // Labels: map, check the map and the keep list against the data, decide per raw label.
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

    // Session names must be unique across files.
    var filesOfName: [Int32: Set<Int>] = [:]
    for s in sessions { filesOfName[s.name, default: []].insert(s.fileIndex) }

    var recordings: [Recording] = []
    let rawCount = rawChannels.count
    for s in sessions {
      let file = files[s.fileIndex]
      var name = sessionNames.names[Int(s.name)]
      if (filesOfName[s.name]?.count ?? 0) > 1 {
        name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
          + "/" + name
      }
      let subject = subjectNames.names[Int(s.subject)]
      let rowCount = s.timestamps.count
      let period = typicalTimeStep(timestamps: s.timestamps) ?? 0
      var summary = LoadReport.Session(
        name: name, subject: subject, file: file, rowCount: rowCount,
        detectedRateHz: period > 0 ? 1 / period : 0, recordingCount: 0)
      func skip(_ reason: String, rows: Int = rowCount, session: String = name) {
        report.skipped.append(
          LoadReport.Skipped(session: session, file: file, rowCount: rows, reason: reason))
      }
      defer { report.sessions.append(summary) }

      if let only = options.subjects, !only.contains(subject) {
        skip("subject not in --subjects")
        continue
      }
      if let excluded = options.excludeSubjects, excluded.contains(subject) {
        skip("subject in --exclude-subjects")
        continue
      }
      // Rows whose label is kept.
      var rows: [Int] = []
      rows.reserveCapacity(rowCount)
      for r in 0..<rowCount {
        let l = s.labels[r]
        if l >= 0 && keep[Int(l)] { rows.append(r) }
      }
      report.rowsDroppedByLabel += rowCount - rows.count
      if rows.isEmpty {
        skip("no rows with a kept label")
        continue
      }
      // Channel-major raw columns of the kept rows, missing cells filled.
      var raw = LoadState.transpose(s.values, rows: rows, channelCount: rawCount)
      let times = rows.count == rowCount ? s.timestamps : rows.map { s.timestamps[$0] }
      var emptyChannel: String? = nil
      for c in 0..<rawCount where !LoadState.fillMissing(&raw[c], times: times) {
        emptyChannel = rawChannels[c]
        break
      }
      if let emptyChannel {
        skip("channel '\(emptyChannel)' has no values")
        continue
      }
      // Split at gaps (`GapRule`: long relative to the sampling and in absolute time).
      let pieces = options.gapRule.pieces(times: times, typicalStep: period)

      for (k, piece) in pieces.enumerated() {
        let pieceName = k == 0 ? name : "\(name)#\(k + 1)"
        guard piece.count >= 2 else {
          skip("recording shorter than 2 samples", rows: piece.count, session: pieceName)
          continue
        }
        var pieceTimes = Array(times[piece])
        var columns = LoadState.apply(plan, to: raw, range: piece)
        columns.removeFirst(adapterRecipes.count)
        var labels = rows[piece].map { mappedID[Int(s.labels[$0])] }
        // The whole session unsplit: its step is already known.
        let whole = pieces.count == 1 && rows.count == rowCount
        let pieceStep = whole ? period : typicalTimeStep(timestamps: pieceTimes) ?? 0
        var rate = 1 / pieceStep
        // Jitter bridged by the gap rule is resampled away at the piece's own rate.
        let jittery = options.gapRule.bridgesJitter(times: pieceTimes, typicalStep: pieceStep)
        if jittery && options.sampleRateHz == nil {
          report.notes.append(
            "session '\(Excerpt.text(pieceName))': time steps up to \(options.gapRule.minimumGapSeconds) s "
              + "bridged and resampled to its own \(String(format: "%.2f", rate)) Hz")
        }
        if let target = options.sampleRateHz ?? (jittery ? rate : nil), !columns.isEmpty {
          let what = "session '\(Excerpt.text(pieceName))' (\(file))"
          try Limits.checkResampling(fromHz: rate, toHz: target, what: what)
          try LoadState.checkResamplingMemory(
            seconds: pieceTimes[pieceTimes.count - 1] - pieceTimes[0], rateHz: target,
            channelCount: columns.count, what: "resampling \(what) to \(target) Hz")
          let resampled = StreamingResampler.resample(
            timestamps: pieceTimes, columns: columns, inputRateHz: rate, outputRateHz: target)
          labels = LoadState.nearestLabels(
            at: resampled.timestamps, times: pieceTimes, labels: labels)
          pieceTimes = resampled.timestamps
          columns = resampled.columns
          rate = target
        }
        guard pieceTimes.count >= 2 else {
          skip("recording shorter than 2 samples", rows: piece.count, session: pieceName)
          continue
        }
        recordings.append(
          Recording(
            session: pieceName, subject: subject, source: file, timestamps: pieceTimes,
            columns: columns, labelIndices: labels, sampleRateHz: rate))
        summary.recordingCount += 1
      }
    }

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
