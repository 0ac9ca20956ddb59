// One file's rows parsed in chunks on every core. The data after the header is cut at line
// ends into chunks (only when no quote can hide a line end inside a field); each chunk is
// parsed on its own with names interned locally, then merged in file order. The checks that
// need earlier rows (a session's subject and rising timestamps across chunks) run at the
// merge on each run's first row, so errors and their lines are those of a single pass.

import Foundation
import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Consecutive rows of one session in one chunk.
struct ParsedRun: Sendable {
  /// Chunk-local ids.
  var session: Int32
  var subject: Int32
  var firstLine: Int
  var times: [Double] = []
  var values: [Float] = []
  /// Chunk-local label ids; -1 for an empty label cell.
  var labels: [Int32] = []
}

/// One chunk's rows, names and counts, and the error that stopped it, if any.
struct ParsedChunk: Sendable {
  var sessionNames = Interner()
  var subjectNames = Interner()
  var labelNames = Interner()
  var runs: [ParsedRun] = []
  var missing: [Int]
  var rows = 0
  var error: CSVError?

  init(rawCount: Int) { missing = [Int](repeating: 0, count: rawCount) }
}

/// A byte range of the file that starts at a line start, and the number of that line.
struct ChunkBounds: Sendable {
  var start: Int
  var end: Int
  var firstLine: Int
}

/// The row loop over one chunk. Sessions seen first in this chunk start with no earlier
/// time and their first row's subject; the merge checks those against earlier chunks.
struct ChunkParser {
  let layout: RowLayout
  private(set) var chunk: ParsedChunk
  private var scanner: CSVScanner
  private let row: RowValues
  private let unknownSubject: Int32
  private let unlabelled: Int32
  private let fileSession: Int32
  /// Chunk-local session id -> (time of its last row, subject of its first row).
  private var seen: [Int32: (lastTime: Double, subject: Int32)] = [:]
  private var runSession: Int32 = -1
  /// `seen[runSession]` as the current run began, so a row needs no lookup.
  private var runState: (lastTime: Double, subject: Int32) = (-Double.infinity, -1)

  /// Parses `bounds` of the buffer at `base`; an error ends the chunk and is kept in it.
  static func parse(
    layout: RowLayout, base: UnsafePointer<UInt8>, bounds: ChunkBounds
  ) -> ParsedChunk {
    var parser = ChunkParser(layout: layout, base: base, bounds: bounds)
    do {
      try parser.parseRows()
    } catch let error as CSVError {
      parser.chunk.error = error
    } catch {
      parser.chunk.error = .unreadable(file: layout.file, reason: "\(error)")
    }
    return parser.chunk
  }

  private init(layout: RowLayout, base: UnsafePointer<UInt8>, bounds: ChunkBounds) {
    self.layout = layout
    chunk = ParsedChunk(rawCount: layout.rawCount)
    scanner = CSVScanner(base: base, count: bounds.end)
    scanner.position = bounds.start
    scanner.line = bounds.firstLine
    row = RowValues(count: layout.rawCount)
    // Interned first, as a single pass over the file does before its first row.
    unknownSubject = chunk.subjectNames.id(of: "unknown")
    unlabelled = layout.hasLabelColumn ? -1 : chunk.labelNames.id(of: LoadOptions.unlabelled)
    var fileSession: Int32 = -1
    if let name = layout.fileSession { fileSession = chunk.sessionNames.id(of: name) }
    self.fileSession = fileSession
  }

  private mutating func parseRows() throws {
    while !scanner.atEnd {
      let line = scanner.line
      guard let (time, session, subject, label) = try readRow(line: line) else { continue }
      chunk.rows += 1
      try accept(time: time, session: session, subject: subject, label: label, line: line)
    }
  }

  /// One row's fields: the channel values land in `row`; nil for a blank line.
  private mutating func readRow(line: Int) throws -> (Double, Int32, Int32, Int32)? {
    let fieldCount = layout.header.count
    var f = 0
    var time = 0.0
    var session = fileSession
    var subject = unknownSubject
    var label = unlabelled
    while true {
      // Channel and time cells are plain numbers almost always: read them in one pass.
      let fastRole = f < fieldCount ? layout.roles[f] : LoadState.skip
      if fastRole >= 0 || fastRole == LoadState.time, let (field, v) = scanner.nextNumber() {
        if fastRole >= 0 {
          try store(v, field, line: line, column: f, slot: fastRole)
        } else {
          time = try checkedTime(v, field, line: line, column: f)
        }
        f += 1
        if field.terminator != .comma { break }
        continue
      }
      let field = scanner.next()
      if field.terminator == .unterminatedQuote {
        throw CSVError.unterminatedQuote(at: layout.location(line, min(f, fieldCount - 1)))
      }
      if f == 0 && field.terminator != .comma && field.end == field.start && !field.quoted {
        return nil
      }
      if f >= fieldCount { throw raggedRow(line: line, found: f + 1, after: field) }
      let role = layout.roles[f]
      if role >= 0 {
        try readValue(field, line: line, column: f, slot: role)
      } else if role == LoadState.time {
        time = try readTime(field, line: line, column: f)
      } else if role != LoadState.skip {
        let id = intern(field, role: role)
        switch role {
        case LoadState.session: session = id == -2 ? chunk.sessionNames.id(of: "") : id
        case LoadState.subject: subject = id == -2 ? unknownSubject : id
        default: label = id == -2 ? -1 : id
        }
      }
      f += 1
      if field.terminator != .comma { break }
    }
    if f < fieldCount {
      throw CSVError.raggedRow(
        at: CSVLocation(file: layout.file, line: line, column: f + 1), expected: fieldCount,
        found: f)
    }
    return (time, session, subject, label)
  }

  /// A row with more fields than the header: counts the rest of them for the message.
  private mutating func raggedRow(line: Int, found: Int, after field: CSVField) -> CSVError {
    var found = found
    var end = field.terminator
    while end == .comma {
      end = scanner.next().terminator
      found += 1
    }
    let fieldCount = layout.header.count
    return CSVError.raggedRow(
      at: CSVLocation(file: layout.file, line: line, column: fieldCount + 1),
      expected: fieldCount, found: found)
  }

  private mutating func readValue(_ field: CSVField, line: Int, column: Int, slot: Int) throws {
    switch scanner.number(field) {
    case .value(let v):
      try store(v, field, line: line, column: column, slot: slot)
    case .empty:
      row.values[slot] = .nan
      chunk.missing[slot] += 1
    case .notANumber:
      throw CSVError.nonNumeric(text: scanner.text(field), at: layout.location(line, column))
    }
  }

  private func readTime(_ field: CSVField, line: Int, column: Int) throws -> Double {
    switch scanner.number(field) {
    case .value(let v):
      return try checkedTime(v, field, line: line, column: column)
    case .empty:
      throw CSVError.emptyCell(at: layout.location(line, column))
    case .notANumber:
      throw CSVError.nonNumeric(text: scanner.text(field), at: layout.location(line, column))
    }
  }

  /// A channel cell's value into `row`, when within the value limit.
  @inline(__always)
  private mutating func store(
    _ v: Double, _ field: CSVField, line: Int, column: Int, slot: Int
  ) throws {
    guard abs(v) <= layout.valueLimit else { throw refuse(v, field, line, column, isTime: false) }
    row.values[slot] = Float(v)
  }

  /// A time cell's value, when within the time limit.
  @inline(__always)
  private func checkedTime(_ v: Double, _ field: CSVField, line: Int, column: Int) throws
    -> Double
  {
    guard abs(v) <= layout.timeLimit else { throw refuse(v, field, line, column, isTime: true) }
    return v
  }

  private func refuse(
    _ v: Double, _ field: CSVField, _ line: Int, _ column: Int, isTime: Bool
  ) -> CSVError {
    let (text, at) = (scanner.text(field), layout.location(line, column))
    let limit = isTime ? layout.timeLimit : layout.valueLimit
    // Only called for a value the limit refuses (NaN included).
    return CSVError.unusable(v, text: text, at: at, limit: limit, isTime: isTime)
      ?? .outOfRange(text: text, at: at, limit: limit, isTime: isTime)
  }

  /// The chunk-local id of a session, subject or label cell; -2 for an empty one.
  private mutating func intern(_ field: CSVField, role: Int) -> Int32 {
    if field.end == field.start { return -2 }
    if field.quoted {
      let unquoted = scanner.unquoted
      return unquoted.withUnsafeBufferPointer { b in
        guard let p = b.baseAddress else { return Int32(-2) }
        return intern(p, field, role: role)
      }
    }
    return intern(scanner.base, field, role: role)
  }

  private mutating func intern(_ p: UnsafePointer<UInt8>, _ field: CSVField, role: Int) -> Int32 {
    switch role {
    case LoadState.session: return chunk.sessionNames.id(p, field.start, field.end)
    case LoadState.subject: return chunk.subjectNames.id(p, field.start, field.end)
    default: return chunk.labelNames.id(p, field.start, field.end)
    }
  }

  /// Adds a parsed row to its session's run, after the checks that need earlier rows.
  private mutating func accept(
    time: Double, session: Int32, subject: Int32, label: Int32, line: Int
  ) throws {
    if session != runSession {
      if runSession >= 0, let last = chunk.runs.last?.times.last {
        seen[runSession]?.lastTime = last
      }
      runSession = session
      if seen[session] == nil { seen[session] = (-Double.infinity, subject) }
      runState = seen[session]!
      chunk.runs.append(ParsedRun(session: session, subject: subject, firstLine: line))
    }
    let state = runState
    if subject != state.subject {
      throw CSVError.subjectChanges(
        session: chunk.sessionNames.names[Int(session)],
        first: chunk.subjectNames.names[Int(state.subject)],
        now: chunk.subjectNames.names[Int(subject)],
        at: layout.location(line, layout.subjectIndex ?? 0))
    }
    let lastTime = chunk.runs[chunk.runs.count - 1].times.last ?? state.lastTime
    if !(time > lastTime) {
      throw CSVError.timestampNotIncreasing(
        session: chunk.sessionNames.names[Int(session)], previous: lastTime, current: time,
        at: layout.location(line, layout.timeIndex))
    }
    let r = chunk.runs.count - 1
    chunk.runs[r].times.append(time)
    chunk.runs[r].values.append(
      contentsOf: UnsafeBufferPointer(start: row.values, count: row.count))
    chunk.runs[r].labels.append(label)
  }
}

/// One row's channel values, written cell by cell and reused row after row: an array here
/// would be checked for sharing on every store.
private final class RowValues {
  let values: UnsafeMutablePointer<Float>
  let count: Int

  init(count: Int) {
    values = .allocate(capacity: max(count, 1))
    values.initialize(repeating: 0, count: max(count, 1))
    self.count = count
  }

  deinit { values.deallocate() }
}
