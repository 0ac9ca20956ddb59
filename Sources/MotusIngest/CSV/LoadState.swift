// The byte-level pass over one CSV file: header roles, then one loop over every field that
// parses numbers in place and interns session, subject and label strings.

import Foundation
import MotusData
import MotusOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Everything gathered across files; `finish` turns it into a `LoadResult`.
struct LoadState {
  let options: LoadOptions
  var report = LoadReport()
  var sessionNames = Interner()
  var subjectNames = Interner()
  var labelNames = Interner()
  var sessions: [SessionData] = []
  var files: [String] = []
  /// Fixed by the first file.
  var recipes: [ChannelRecipe] = []
  /// With `options.modelRecipes`: recipes run before `recipes` that make the model's raw
  /// inputs from the file's columns (derived or sign-flipped); their outputs are not channels.
  var adapterRecipes: [ChannelRecipe] = []
  var rawChannels: [String] = []
  var missing: [Int] = []
  /// Set by `DatasetLoader.loadSessions`: sessions are finished and handed over as the file
  /// moves past them.
  var streaming: SessionStreaming? = nil

  init(options: LoadOptions) { self.options = options }

  // Field roles: a channel slot (>= 0) or one of these.
  static let skip = -1
  static let time = -2
  static let session = -3
  static let subject = -4
  static let label = -5

  mutating func parse(
    file: String, fileIndex: Int, bytes: [UInt8], progress: (Int) -> Void
  ) throws {
    files.append(file)
    try bytes.withUnsafeBufferPointer { buffer in
      let (header, scanner) = try Self.header(of: buffer, file: file)
      let layout = try rowLayout(file: file, header: header, scanner: scanner)
      var rows = FileRows(layout: layout, fileIndex: fileIndex, line: scanner.line)
      try parsePieces(buffer, scanner.position..<buffer.count, &rows, chunkBytes: chunkBytes) {
        progress($0)
      }
      try finishFile(rows)
    }
  }

  /// `parse` on a file read a block at a time: each block ends at a line feed and is parsed
  /// and merged before the next is read, so only a few blocks of the file are in memory.
  mutating func parse(
    file: String, fileIndex: Int, blocks: InputBlocks, progress: (Int) -> Void
  ) throws {
    do {
      try parseBlocks(file: file, fileIndex: fileIndex, blocks: blocks, progress: progress)
    } catch let error as CSVError {
      // Damaged gzip garbles the text before its checksum says so: that is the error then.
      try blocks.checkRest()
      throw error
    }
  }

  private mutating func parseBlocks(
    file: String, fileIndex: Int, blocks: InputBlocks, progress: (Int) -> Void
  ) throws {
    files.append(file)
    // gzip is inflated a block ahead (`InputBlocks`): in half blocks, it holds what text does.
    let chunkBytes = blocks.isCompressed ? max(1, chunkBytes / 2) : chunkBytes
    let blockBytes = Self.batchSize * chunkBytes
    try blocks.refill(dropping: 0, minimum: blockBytes)
    // The first block holds the rows that choose the channels (see `chooseChannels`).
    while !blocks.atEnd && blocks.withBytes({ Self.lineFeeds(in: $0, upTo: 1002) }) < 1002 {
      try blocks.refill(dropping: 0, minimum: 2 * blocks.count)
    }
    var (rows, start) = try blocks.withBytes { buffer in
      let (header, scanner) = try Self.header(of: buffer, file: file)
      let layout = try rowLayout(file: file, header: header, scanner: scanner)
      return (FileRows(layout: layout, fileIndex: fileIndex, line: scanner.line), scanner.position)
    }
    var done = 0
    while true {
      let end = try Self.wholeLines(blocks, from: start, minimum: blockBytes)
      try blocks.withBytes { buffer in
        try parsePieces(buffer, start..<end, &rows, chunkBytes: chunkBytes) {
          progress(done + $0)
        }
      }
      if blocks.atEnd && end == blocks.count { break }
      // Every session before the last row's is taken as complete (one that reappears later
      // ends streaming: see `SessionStreaming`).
      try releaseSessions(before: rows.lastSlot, files: files)
      done += end
      try blocks.refill(dropping: end, minimum: blockBytes)
      start = 0
    }
    try finishFile(rows)
  }

  /// The end of the last whole line after `start`, reading more when there is none; all of
  /// the rest of the file when a quote (which may hold a line end) is in the way.
  private static func wholeLines(_ blocks: InputBlocks, from start: Int, minimum: Int) throws -> Int
  {
    while true {
      if blocks.atEnd { return blocks.count }
      let count = blocks.count
      let (quoted, lastFeed) = blocks.withBytes { b in
        let quoted =
          b.baseAddress.map { memchr($0 + start, Int32(UInt8(ascii: "\"")), count - start) != nil }
          ?? false
        return (quoted, b[start...].lastIndex(of: UInt8(ascii: "\n")))
      }
      if !quoted, let lastFeed { return lastFeed + 1 }
      try blocks.refill(dropping: 0, minimum: quoted ? Int.max : 2 * max(count, minimum))
    }
  }

  private static func lineFeeds(in buffer: UnsafeBufferPointer<UInt8>, upTo limit: Int) -> Int {
    var count = 0
    for b in buffer where b == UInt8(ascii: "\n") {
      count += 1
      if count >= limit { break }
    }
    return count
  }

  /// The header of a file's first bytes, and a scanner at its first row.
  private static func header(of buffer: UnsafeBufferPointer<UInt8>, file: String) throws
    -> ([String], CSVScanner)
  {
    guard let base = buffer.baseAddress, buffer.count > 0 else {
      throw CSVError.emptyFile(file: file)
    }
    if let encoding = TextEncoding.problem(buffer) {
      throw CSVError.notText(file: file, encoding: encoding)
    }
    var scanner = CSVScanner(base: base, count: buffer.count)
    guard let header = try scanner.readHeader(file: file) else {
      throw CSVError.emptyFile(file: file)
    }
    return (header, scanner)
  }

  /// Index of an optional column: absent is fine only under its default name.
  private func optionalColumn(
    _ name: String?, defaultName: String, option: String, header: [String], file: String
  ) throws -> Int? {
    guard let name else { return nil }
    if let i = header.firstIndex(of: name) { return i }
    if name == defaultName { return nil }
    throw CSVError.missingColumn(name: name, option: option, file: file, available: header)
  }

  private static var cores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// A batch of chunks per core at a time: memory in flight stays a few chunks.
  static var batchSize: Int { 2 * cores }

  /// Chunks a quarter the usual size when streaming, where what is in flight is most of what
  /// is held; loading whole keeps the larger chunks, which are fewer to merge.
  var chunkBytes: Int { max(1, ChunkSplitter.chunkBytes / (streaming == nil ? 1 : 4)) }

  /// Parses `range` of `buffer` (whole lines) in chunks and merges them into `sessions`.
  private mutating func parsePieces(
    _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ rows: inout FileRows,
    chunkBytes: Int, progress: (Int) -> Void
  ) throws {
    guard let base = buffer.baseAddress, !range.isEmpty else { return }
    let pieces = ChunkSplitter.split(
      base, start: range.lowerBound, count: range.upperBound, firstLine: rows.line,
      chunkBytes: chunkBytes)
    for batchStart in stride(from: 0, to: pieces.count, by: Self.batchSize) {
      let batch = Array(pieces[batchStart..<min(pieces.count, batchStart + Self.batchSize)])
      var bounds: [ChunkBounds] = []
      for (i, lines) in Self.lineEndCounts(base, batch).enumerated() {
        bounds.append(
          ChunkBounds(start: batch[i].lowerBound, end: batch[i].upperBound, firstLine: rows.line))
        rows.line += lines
      }
      for chunk in Self.parseChunks(layout: rows.layout, base: base, bounds) {
        rows.count += chunk.rows
        for c in 0..<rows.layout.rawCount { rows.missing[c] += chunk.missing[c] }
        try merge(chunk, rows: &rows)
      }
      progress(batch.last?.upperBound ?? 0)
    }
  }

  /// After a file's last row: its counts join the report.
  private mutating func finishFile(_ rows: FileRows) throws {
    guard rows.count > 0 else { throw CSVError.noDataRows(file: rows.layout.file) }
    report.rowsRead += rows.count
    for c in 0..<rows.layout.rawCount { missing[c] += rows.missing[c] }
  }

  /// Line ends in each piece, counted on every core.
  private static func lineEndCounts(_ base: UnsafePointer<UInt8>, _ pieces: [Range<Int>]) -> [Int] {
    if pieces.count == 1 { return [ChunkSplitter.lineEnds(base, pieces[0])] }
    let address = Int(bitPattern: base)
    return parallelMap(count: pieces.count, parallelism: cores) { i in
      ChunkSplitter.lineEnds(UnsafePointer<UInt8>(bitPattern: address)!, pieces[i])
    }
  }

  private static func parseChunks(
    layout: RowLayout, base: UnsafePointer<UInt8>, _ bounds: [ChunkBounds]
  ) -> [ParsedChunk] {
    if bounds.count == 1 {
      return [ChunkParser.parse(layout: layout, base: base, bounds: bounds[0])]
    }
    let address = Int(bitPattern: base)
    return parallelMap(count: bounds.count, parallelism: cores) { i in
      ChunkParser.parse(
        layout: layout, base: UnsafePointer<UInt8>(bitPattern: address)!, bounds: bounds[i])
    }
  }

  /// Adds a chunk's runs to `sessions` in order, checking each run's first row against the
  /// rows of its session in earlier chunks; then throws the chunk's own error, which lies
  /// after every run it holds.
  private mutating func merge(_ chunk: ParsedChunk, rows: inout FileRows) throws {
    let layout = rows.layout
    let sessionIDs = chunk.sessionNames.names.map { sessionNames.id(of: $0) }
    let subjectIDs = chunk.subjectNames.names.map { subjectNames.id(of: $0) }
    let labelIDs = chunk.labelNames.names.map { labelNames.id(of: $0) }
    for var run in chunk.runs where !run.times.isEmpty {
      let session = sessionIDs[Int(run.session)]
      let subject = subjectIDs[Int(run.subject)]
      for i in run.labels.indices where run.labels[i] >= 0 {
        run.labels[i] = labelIDs[Int(run.labels[i])]
      }
      guard let slot = rows.sessionSlot[session] else {
        rows.sessionSlot[session] = sessions.count
        rows.lastSlot = sessions.count
        var data = SessionData(name: session, fileIndex: rows.fileIndex, subject: subject)
        (data.timestamps, data.values, data.labels) = (run.times, run.values, run.labels)
        sessions.append(data)
        continue
      }
      if let streaming, slot < streaming.released { throw SessionStreaming.Reappeared() }
      try checkContinuation(run, of: slot, subject: subject, layout: layout)
      rows.lastSlot = slot
      sessions[slot].timestamps += run.times
      sessions[slot].values += run.values
      sessions[slot].labels += run.labels
    }
    if let error = chunk.error { throw error }
  }

  /// The checks a single pass makes on a run's first row when its session began earlier.
  private func checkContinuation(
    _ run: ParsedRun, of slot: Int, subject: Int32, layout: RowLayout
  ) throws {
    let name = sessionNames.names[Int(sessions[slot].name)]
    if subject != sessions[slot].subject {
      throw CSVError.subjectChanges(
        session: name, first: subjectNames.names[Int(sessions[slot].subject)],
        now: subjectNames.names[Int(subject)],
        at: layout.location(run.firstLine, layout.subjectIndex ?? 0))
    }
    let lastTime = sessions[slot].timestamps.last ?? -Double.infinity
    if !(run.times[0] > lastTime) {
      throw CSVError.timestampNotIncreasing(
        session: name, previous: lastTime, current: run.times[0],
        at: layout.location(run.firstLine, layout.timeIndex))
    }
  }

  /// The roles of `header`'s fields; picks the channels when this is the first file.
  private mutating func rowLayout(
    file: String, header: [String], scanner: CSVScanner
  ) throws -> RowLayout {
    guard let timeIndex = header.firstIndex(of: options.timeColumn) else {
      throw CSVError.missingColumn(
        name: options.timeColumn, option: "--time-column", file: file, available: header)
    }
    let sessionIndex = try optionalColumn(
      options.sessionColumn, defaultName: "session", option: "--session-column",
      header: header, file: file)
    let subjectIndex = try optionalColumn(
      options.subjectColumn, defaultName: "subject", option: "--subject-column",
      header: header, file: file)
    var labelIndex: Int? = nil
    if let name = options.labelColumn, let i = header.firstIndex(of: name) {
      labelIndex = i
    } else if options.requireLabels || (options.labelColumn ?? "label") != "label" {
      throw CSVError.missingColumn(
        name: options.labelColumn ?? "label", option: "--label-column", file: file,
        available: header)
    }
    let special = Set([timeIndex, sessionIndex, subjectIndex, labelIndex].compactMap { $0 })
    if files.count == 1 {
      try chooseChannels(
        file: file, header: header, candidates: header.indices.filter { !special.contains($0) },
        scanner: scanner)
    }
    var roles = [Int](repeating: LoadState.skip, count: header.count)
    roles[timeIndex] = LoadState.time
    if let i = sessionIndex { roles[i] = LoadState.session }
    if let i = subjectIndex { roles[i] = LoadState.subject }
    if let i = labelIndex { roles[i] = LoadState.label }
    try placeChannels(in: &roles, header: header, special: special, file: file)
    return RowLayout(
      file: file, header: header, roles: roles, rawCount: rawChannels.count, timeIndex: timeIndex,
      subjectIndex: subjectIndex, hasLabelColumn: labelIndex != nil,
      fileSession: sessionIndex == nil
        ? (PathName.last(file) as NSString).deletingPathExtension : nil,
      valueLimit: options.checkValueRange
        ? Limits.channelMagnitude : Double(Float.greatestFiniteMagnitude),
      timeLimit: options.checkValueRange ? Limits.timeMagnitude : Double.greatestFiniteMagnitude)
  }

  /// Each raw channel's column; one the first file had and this one lacks is an error.
  private func placeChannels(
    in roles: inout [Int], header: [String], special: Set<Int>, file: String
  ) throws {
    for (slot, name) in rawChannels.enumerated() {
      guard let i = header.firstIndex(of: name), !special.contains(i) else {
        throw channelUnavailable(name, file: file)
      }
      roles[i] = slot
    }
  }

  /// A later input lacks raw channel `name`, which the first had.
  func channelUnavailable(_ name: String, file: String) -> CSVError {
    let users = (adapterRecipes + recipes).filter { $0.inputs.contains(name) }.map(\.name)
    return CSVError.channelUnavailable(
      file: file,
      reason: "no column '\(Excerpt.text(name))', which channel \(Excerpt.list(users)) "
        + "needs (the first file has it).")
  }

  /// Picks the channel columns from the first file: every column other than time, session,
  /// subject and label whose first non-empty cell (within 1,000 rows) is a number.
  private mutating func chooseChannels(
    file: String, header: [String], candidates: [Int], scanner: CSVScanner
  ) throws {
    var probe = scanner
    var numeric = [Bool](repeating: true, count: header.count)
    var seenValue = [Bool](repeating: false, count: header.count)
    var rows = 0
    while !probe.atEnd && rows < 1000 {
      var f = 0
      var blank = false
      while true {
        let field = probe.next()
        if field.terminator == .unterminatedQuote { break }
        if f == 0 && field.terminator != .comma && field.end == field.start && !field.quoted {
          blank = true
          break
        }
        // The first non-empty cell decides; a later bad cell is an error in the main pass.
        if f < header.count && !seenValue[f] && numeric[f] {
          switch probe.number(field) {
          case .value: seenValue[f] = true
          case .notANumber: numeric[f] = false
          case .empty: break
          }
        }
        f += 1
        if field.terminator != .comma { break }
      }
      if !blank { rows += 1 }
    }
    guard rows > 0 else { throw CSVError.noDataRows(file: file) }
    try pickChannels(
      file: file,
      numericColumns: candidates.filter { numeric[$0] && seenValue[$0] }.map { header[$0] },
      ignored: candidates.filter { !(numeric[$0] && seenValue[$0]) }.map { header[$0] },
      candidates: candidates.map { header[$0] })
  }

  /// The channels of the load, from the first input's numeric columns (`ignored` are the
  /// others): every one, those `options.channelPatterns` select, or a model's inputs.
  mutating func pickChannels(
    file: String, numericColumns: [String], ignored: [String], candidates: [String]
  ) throws {
    if options.channelPatterns.isEmpty && options.modelRecipes == nil && !ignored.isEmpty {
      report.notes.append("ignored non-numeric columns: " + Excerpt.list(ignored))
    }
    guard !numericColumns.isEmpty else { throw CSVError.noChannels(file: file) }
    if let modelRecipes = options.modelRecipes {
      try adapt(to: modelRecipes, columns: candidates, file: file)
      return
    }
    let chosen = try ChannelSelector.recipes(
      patterns: options.channelPatterns, rawChannels: numericColumns,
      negateAcceleration: options.negateAcceleration)
    recipes = chosen.recipes
    report.notes += chosen.notes
    rawChannels = ChannelSelector.rawInputs(of: recipes)
    missing = [Int](repeating: 0, count: rawChannels.count)
  }

  /// Reads the raw inputs `modelRecipes` need from `columns` by the rule a stream applies
  /// (`InputAdapter`), so evaluation accepts every file `motus stream` accepts.
  private mutating func adapt(
    to modelRecipes: [ChannelRecipe], columns: [String], file: String
  ) throws {
    let adapter = try InputAdapter(
      modelInputs: ChannelSelector.rawInputs(of: modelRecipes), header: columns, file: file,
      negateAcceleration: options.negateAcceleration,
      modelNegatesAcceleration: InputAdapter.modelNegatesAcceleration(modelRecipes))
    adapterRecipes = adapter.recipes
    recipes = modelRecipes
    rawChannels = ChannelSelector.rawInputs(of: adapterRecipes + recipes)
    missing = [Int](repeating: 0, count: rawChannels.count)
    if !adapter.adaptations.isEmpty {
      report.notes.append("input: " + adapter.adaptations.joined(separator: "; "))
    }
  }
}
