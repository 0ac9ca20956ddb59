// The byte-level pass over one CSV file: header roles, then one loop over every field that
// parses numbers in place and interns session, subject and label strings.

import Foundation

/// Rows of one CSV session, row-major, as parsed. NaN marks an empty (missing) cell.
struct SessionData {
  let name: Int32
  let fileIndex: Int
  let subject: Int32
  var timestamps: [Double] = []
  /// `values[row * rawCount + c]`.
  var values: [Float] = []
  /// Interned raw label per row; -1 for an empty label cell.
  var labels: [Int32] = []
}

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
      try parseRows(
        file: file, fileIndex: fileIndex, header: header, scanner: &scanner, progress: progress)
    }
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

  private mutating func parseRows(
    file: String, fileIndex: Int, header: [String], scanner: inout CSVScanner,
    progress: (Int) -> Void
  ) throws {
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
    let candidates = header.indices.filter { !special.contains($0) }

    if files.count == 1 {
      try chooseChannels(
        file: file, header: header, candidates: candidates, scanner: scanner)
    }
    var roles = [Int](repeating: LoadState.skip, count: header.count)
    roles[timeIndex] = LoadState.time
    if let i = sessionIndex { roles[i] = LoadState.session }
    if let i = subjectIndex { roles[i] = LoadState.subject }
    if let i = labelIndex { roles[i] = LoadState.label }
    for (slot, name) in rawChannels.enumerated() {
      guard let i = header.firstIndex(of: name), !special.contains(i) else {
        let users = (adapterRecipes + recipes).filter { $0.inputs.contains(name) }.map(\.name)
        throw CSVError.channelUnavailable(
          file: file,
          reason: "no column '\(Excerpt.text(name))', which channel \(Excerpt.list(users)) "
            + "needs (the first file has it).")
      }
      roles[i] = slot
    }

    let rawCount = rawChannels.count
    let fieldCount = header.count
    let unknownSubject = subjectNames.id(of: "unknown")
    let unlabelled: Int32 = labelIndex == nil ? labelNames.id(of: LoadOptions.unlabelled) : -1
    let fileSession: Int32 =
      sessionIndex == nil
      ? sessionNames.id(of: ((file as NSString).lastPathComponent as NSString)
        .deletingPathExtension) : -1
    var sessionSlot: [Int32: Int] = [:]  // this file's sessions -> index in `sessions`

    // The current run of rows of one session, flushed when the session changes.
    var runSession: Int32 = -1
    var runSlot = -1
    var runSubject: Int32 = -1
    var runTimes: [Double] = []
    var runValues: [Float] = []
    var runLabels: [Int32] = []
    var lastTime = -Double.infinity
    var row = [Float](repeating: 0, count: rawCount)
    var missingHere = [Int](repeating: 0, count: rawCount)
    var rowsHere = 0
    var nextProgress = 1 << 23
    // Beyond these a value is refused with its location; NaN fails the comparison too.
    let valueLimit =
      options.checkValueRange ? Limits.channelMagnitude : Double(Float.greatestFiniteMagnitude)
    let timeLimit = options.checkValueRange ? Limits.timeMagnitude : Double.greatestFiniteMagnitude
    func refuse(_ v: Double, _ field: CSVField, _ line: Int, _ f: Int, isTime: Bool) -> CSVError {
      let text = scanner.text(field)
      let at = location(line, f)
      guard v.isFinite else { return .nonFinite(text: text, at: at) }
      return .outOfRange(text: text, at: at, limit: isTime ? timeLimit : valueLimit, isTime: isTime)
    }

    func location(_ line: Int, _ column: Int) -> CSVLocation {
      CSVLocation(file: file, line: line, column: column + 1, columnName: header[column])
    }

    func flush() {
      guard runSlot >= 0, !runTimes.isEmpty else { return }
      sessions[runSlot].timestamps += runTimes
      sessions[runSlot].values += runValues
      sessions[runSlot].labels += runLabels
      runTimes.removeAll(keepingCapacity: true)
      runValues.removeAll(keepingCapacity: true)
      runLabels.removeAll(keepingCapacity: true)
    }

    while !scanner.atEnd {
      let line = scanner.line
      var f = 0
      var time = 0.0
      var session = fileSession
      var subject = unknownSubject
      var label = unlabelled
      var blank = false
      while true {
        let field = scanner.next()
        if field.terminator == .unterminatedQuote {
          throw CSVError.unterminatedQuote(at: location(line, min(f, fieldCount - 1)))
        }
        if f == 0 && field.terminator != .comma && field.end == field.start && !field.quoted {
          blank = true
          break
        }
        if f >= fieldCount {
          var found = f + 1
          var end = field.terminator
          while end == .comma {
            end = scanner.next().terminator
            found += 1
          }
          throw CSVError.raggedRow(
            at: CSVLocation(file: file, line: line, column: fieldCount + 1),
            expected: fieldCount, found: found)
        }
        let role = roles[f]
        if role >= 0 {
          switch scanner.number(field) {
          case .value(let v):
            guard abs(v) <= valueLimit else { throw refuse(v, field, line, f, isTime: false) }
            row[role] = Float(v)
          case .empty:
            row[role] = .nan
            missingHere[role] += 1
          case .notANumber:
            throw CSVError.nonNumeric(text: scanner.text(field), at: location(line, f))
          }
        } else if role == LoadState.time {
          switch scanner.number(field) {
          case .value(let v):
            guard abs(v) <= timeLimit else { throw refuse(v, field, line, f, isTime: true) }
            time = v
          case .empty:
            throw CSVError.emptyCell(at: location(line, f))
          case .notANumber:
            throw CSVError.nonNumeric(text: scanner.text(field), at: location(line, f))
          }
        } else if role != LoadState.skip {
          let id: Int32  // -2: empty cell, quoted or not
          if field.end == field.start {
            id = -2
          } else if field.quoted {
            id = scanner.unquoted.withUnsafeBufferPointer { b in
              guard let p = b.baseAddress else { return Int32(-2) }
              switch role {
              case LoadState.session: return sessionNames.id(p, field.start, field.end)
              case LoadState.subject: return subjectNames.id(p, field.start, field.end)
              default: return labelNames.id(p, field.start, field.end)
              }
            }
          } else {
            switch role {
            case LoadState.session: id = sessionNames.id(scanner.base, field.start, field.end)
            case LoadState.subject: id = subjectNames.id(scanner.base, field.start, field.end)
            default: id = labelNames.id(scanner.base, field.start, field.end)
            }
          }
          switch role {
          case LoadState.session: session = id == -2 ? sessionNames.id(of: "") : id
          case LoadState.subject: subject = id == -2 ? unknownSubject : id
          default: label = id == -2 ? -1 : id
          }
        }
        f += 1
        if field.terminator != .comma { break }
      }
      if blank { continue }
      if f < fieldCount {
        throw CSVError.raggedRow(
          at: CSVLocation(file: file, line: line, column: f + 1), expected: fieldCount, found: f)
      }
      rowsHere += 1
      if session != runSession {
        flush()
        runSession = session
        if let slot = sessionSlot[session] {
          runSlot = slot
          lastTime = sessions[slot].timestamps.last ?? -Double.infinity
        } else {
          runSlot = sessions.count
          sessionSlot[session] = runSlot
          sessions.append(SessionData(name: session, fileIndex: fileIndex, subject: subject))
          lastTime = -Double.infinity
        }
        runSubject = sessions[runSlot].subject
      }
      if subject != runSubject {
        throw CSVError.subjectChanges(
          session: sessionNames.names[Int(session)], first: subjectNames.names[Int(runSubject)],
          now: subjectNames.names[Int(subject)],
          at: location(line, subjectIndex ?? 0))
      }
      if !(time > lastTime) {
        throw CSVError.timestampNotIncreasing(
          session: sessionNames.names[Int(session)], previous: lastTime, current: time,
          at: location(line, timeIndex))
      }
      lastTime = time
      runTimes.append(time)
      runValues.append(contentsOf: row)
      runLabels.append(label)
      if scanner.position >= nextProgress {
        progress(scanner.position)
        nextProgress = scanner.position + (1 << 23)
      }
    }
    flush()
    guard rowsHere > 0 else { throw CSVError.noDataRows(file: file) }
    report.rowsRead += rowsHere
    for c in 0..<rawCount { missing[c] += missingHere[c] }
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
    let numericColumns = candidates.filter { numeric[$0] && seenValue[$0] }.map { header[$0] }
    let ignored = candidates.filter { !(numeric[$0] && seenValue[$0]) }.map { header[$0] }
    if options.channelPatterns.isEmpty && options.modelRecipes == nil && !ignored.isEmpty {
      report.notes.append("ignored non-numeric columns: " + Excerpt.list(ignored))
    }
    guard !numericColumns.isEmpty else { throw CSVError.noChannels(file: file) }
    if let modelRecipes = options.modelRecipes {
      try adapt(to: modelRecipes, columns: candidates.map { header[$0] }, file: file)
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
