// A reader for the CSV files phone apps write: comma, semicolon or tab separated (or as a
// `sep=;` line says), quoted or bare headers, LF, CRLF or CR line ends, a UTF-8 byte-order
// mark, decimal commas wherever the separator is not a comma (a French-locale Physics Toolbox
// or phyphox export), no final newline. The file is read whole once; the columns a reader
// asks for are then parsed straight from its bytes in one pass (`DecimalParser`, as the long
// layout is), with no String per cell. Columns are found by name, so their order (Sensor
// Logger's z,y,x) does not matter.

import Foundation
import MotusData

/// One app CSV file read whole: its header, and its rows parsed column by column on request.
struct AppTable {
  /// The path, for error messages.
  let file: String
  let header: [String]
  let format: AppTextFormat
  /// Data rows (blank lines are not rows).
  let rowCount: Int
  private var bytes: [UInt8]
  /// 1-based line of the first line after the header.
  private let firstDataLine: Int
  /// Blank lines skipped before each row that follows some: (row, how many), ascending.
  private let blankLines: [(row: Int, count: Int)]

  /// Semicolon and tab files may write `0,0562` for 0.0562.
  var decimalComma: Bool { format.separator != UInt8(ascii: ",") }

  /// Reads `path` whole. Throws `CSVError` for an unreadable, binary or empty file.
  static func read(_ path: String) throws -> AppTable {
    try parse(try AppExport.readBytes(path), file: path)
  }

  static func parse(_ bytes: [UInt8], file: String) throws -> AppTable {
    if let encoding = bytes.withUnsafeBufferPointer({ TextEncoding.problem($0) }) {
      throw CSVError.notText(file: file, encoding: encoding)
    }
    guard let format = AppTextFormat(bytes) else { throw CSVError.emptyFile(file: file) }
    var rows = 0
    var blank: [(row: Int, count: Int)] = []
    format.forEachLine(bytes, from: format.dataStart) { start, end in
      if start == end {
        if blank.last?.row == rows {
          blank[blank.count - 1].count += 1
        } else {
          blank.append((rows, 1))
        }
      } else {
        rows += 1
      }
    }
    return AppTable(
      file: file, header: format.header, format: format, rowCount: rows, bytes: bytes,
      firstDataLine: format.headerLine + 1, blankLines: blank)
  }

  /// Frees the file's text once its columns are parsed; header, row count and locations stay.
  mutating func releaseText() { bytes = [] }

  /// The 1-based line of data row `row`.
  func line(ofRow row: Int) -> Int {
    var skipped = 0
    for b in blankLines where b.row <= row { skipped += b.count }
    return firstDataLine + row + skipped
  }

  func location(row: Int, column: Int) -> CSVLocation {
    CSVLocation(
      file: file, line: line(ofRow: row), column: column + 1,
      columnName: column < header.count ? header[column] : nil)
  }

  /// Index of the first column whose name is one of `names`.
  func column(_ names: String...) -> Int? {
    for name in names { if let i = header.firstIndex(of: name) { return i } }
    return nil
  }

  /// Index of the first column whose name satisfies `test`.
  func column(where test: (String) -> Bool) -> Int? { header.firstIndex(where: test) }

  /// How one cell becomes a number.
  enum Cell {
    /// A decimal number (a decimal comma too, in a semicolon or tab file). Empty cells,
    /// `NaN`, `nan` and `null` are missing (NaN); other text is an error.
    case number
    /// An integer count of nanoseconds, less `origin`, in seconds; computed exactly in
    /// integers, so a value that overflows is an error, not a trap.
    case nanoseconds(origin: Int64)
    /// Any other form (a wall-clock time): `parse` gives seconds, or nil for a bad cell;
    /// `expected` says what the cell should look like.
    case text(expected: String, parse: (UnsafeBufferPointer<UInt8>) -> Double?)
  }

  /// A column to parse: its index, how, and what multiplies its values (unit and sign).
  struct Request {
    var column: Int
    var cell: Cell = .number
    var scale: Double = 1
    /// Largest magnitude of a value after scaling; beyond it is an error with the cell. Nil:
    /// `Limits.timeMagnitude` for a time, any finite Float for a value.
    var limit: Double? = nil
    var isTime = false
    /// False: an infinite or out-of-range value is returned as it is, for the reader to judge
    /// (a pedometer it leaves out with a note); text that is no number is still an error.
    var strict = true

    var effectiveLimit: Double {
      limit ?? (isTime ? Limits.timeMagnitude : Double(Float.greatestFiniteMagnitude))
    }
  }

  /// The requested columns, `result[k][row]`, in one pass over the rows. Missing cells (and
  /// fields a short row lacks) are NaN.
  ///
  /// - Throws: `CSVError` naming the file, line and column of a cell that is not a number,
  ///   not finite or beyond its limit; `AppExportError` for a row with more fields than the
  ///   header (decimal commas in a comma-separated file shift the columns).
  func columns(_ requests: [Request]) throws -> [[Double]] {
    guard !requests.isEmpty else { return [] }
    let last = requests.map(\.column).max() ?? 0
    var wanted = [Int](repeating: -1, count: last + 1)
    for (k, r) in requests.enumerated() where wanted[r.column] < 0 { wanted[r.column] = k }
    let width = header.count
    var scratch = [UInt8](repeating: 0, count: 64)
    var results: [[Double]] = []
    // Each column is written in place, in one pass over the rows for all of them.
    try Self.withColumns(count: requests.count, rows: rowCount, into: &results) { outputs in
      try bytes.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return }
        var row = 0
        var lineNumber = firstDataLine - 1
        var failure: Error?
        format.forEachLine(bytes, from: format.dataStart) { start, end in
          lineNumber += 1
          guard failure == nil, start < end else { return }
          for k in outputs.indices { outputs[k][row] = .nan }
          var i = start
          var f = 0
          var extra = false
          while true {
            let (a, b, more) = format.nextField(base, &i, end)
            if f <= last, wanted[f] >= 0 {
              let k = wanted[f]
              do {
                outputs[k][row] = try value(base, a, b, requests[k], line: lineNumber, &scratch)
              } catch {
                failure = error
                return
              }
            }
            if f >= width && a < b { extra = true }
            f += 1
            if !more { break }
          }
          if extra {
            failure = tooManyFields(found: f, line: lineNumber)
            return
          }
          row += 1
        }
        if let failure { throw failure }
      }
    }
    // Requests naming a column twice share its values.
    return requests.indices.map { results[wanted[requests[$0].column]] }
  }

  /// Makes `count` arrays of `rows` values, `body` writing them through pointers, with no copy.
  private static func withColumns(
    count: Int, rows: Int, into results: inout [[Double]],
    pointers: [UnsafeMutablePointer<Double>] = [],
    _ body: ([UnsafeMutablePointer<Double>]) throws -> Void
  ) throws {
    guard pointers.count < count else { return try body(pointers) }
    var inner: [[Double]] = []
    let column = try [Double](unsafeUninitializedCapacity: max(rows, 1)) { buffer, filled in
      try withColumns(
        count: count, rows: rows, into: &inner, pointers: pointers + [buffer.baseAddress!], body)
      filled = rows
    }
    results = [column] + inner
  }

  /// A column as text, quotes removed (empty for a missing field): for small files (a
  /// metadata row, a device table).
  func strings(_ column: Int) -> [String] {
    var out: [String] = []
    out.reserveCapacity(rowCount)
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      format.forEachLine(bytes, from: format.dataStart) { start, end in
        guard start < end else { return }
        var i = start
        var f = 0
        var text = ""
        while true {
          let (a, b, more) = format.nextField(base, &i, end)
          if f == column {
            text = String(
              decoding: UnsafeBufferPointer(start: base + a, count: b - a), as: UTF8.self)
            break
          }
          f += 1
          if !more { break }
        }
        out.append(text)
      }
    }
    return out
  }

  /// The first row's cell in `column`, as text (nil without rows or without the field).
  func firstCell(_ column: Int) -> String? {
    guard rowCount > 0 else { return nil }
    var found: String?
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var done = false
      format.forEachLine(bytes, from: format.dataStart) { start, end in
        guard !done, start < end else { return }
        done = true
        var i = start
        var f = 0
        while true {
          let (a, b, more) = format.nextField(base, &i, end)
          if f == column {
            found = String(
              decoding: UnsafeBufferPointer(start: base + a, count: b - a), as: UTF8.self)
            return
          }
          f += 1
          if !more { return }
        }
      }
    }
    return found
  }

  @inline(__always)
  private func value(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ request: Request, line: Int,
    _ scratch: inout [UInt8]
  ) throws -> Double {
    var a = start
    var b = end
    while a < b && (base[a] == 32 || base[a] == 9) { a += 1 }
    while b > a && (base[b - 1] == 32 || base[b - 1] == 9) { b -= 1 }
    if a == b || Self.isMissingToken(base, a, b) { return .nan }
    let parsed: Double?
    switch request.cell {
    case .number:
      parsed = number(base, a, b, &scratch)
    case .nanoseconds(let origin):
      switch Self.integer(base, a, b) {
      case .notAnInteger:
        parsed = nil
      case .overflow:
        throw nanosecondsOutOfRange(base, a, b, request, line: line, origin: origin)
      case .value(let ns):
        let (difference, overflow) = ns.subtractingReportingOverflow(origin)
        let seconds = Double(difference) / 1e9
        guard !overflow, abs(seconds) <= request.effectiveLimit else {
          throw nanosecondsOutOfRange(base, a, b, request, line: line, origin: origin)
        }
        parsed = seconds
      }
    case .text(_, let parse):
      parsed = parse(UnsafeBufferPointer(start: base + a, count: b - a))
    }
    guard let raw = parsed else {
      let text = String(decoding: UnsafeBufferPointer(start: base + a, count: b - a), as: UTF8.self)
      let at = location(line: line, column: request.column)
      if case .text(let expected, _) = request.cell {
        throw AppExportError(
          path: "\(at)", message: "'\(Excerpt.text(text))' is not a time.",
          hint: "this column holds times such as \(expected).")
      }
      throw CSVError.nonNumeric(text: text, at: at)
    }
    let v = raw * request.scale
    guard request.strict else { return v }
    guard v.isFinite else {
      let text = String(decoding: UnsafeBufferPointer(start: base + a, count: b - a), as: UTF8.self)
      throw CSVError.nonFinite(text: text, at: location(line: line, column: request.column))
    }
    guard abs(v) <= request.effectiveLimit else {
      throw outOfRange(base, a, b, request, line: line, limit: request.effectiveLimit)
    }
    return v
  }

  private func outOfRange(
    _ base: UnsafePointer<UInt8>, _ a: Int, _ b: Int, _ request: Request, line: Int, limit: Double
  ) -> CSVError {
    let text = String(decoding: UnsafeBufferPointer(start: base + a, count: b - a), as: UTF8.self)
    return .outOfRange(
      text: text, at: location(line: line, column: request.column), limit: limit,
      isTime: request.isTime)
  }

  private func nanosecondsOutOfRange(
    _ base: UnsafePointer<UInt8>, _ a: Int, _ b: Int, _ request: Request, line: Int, origin: Int64
  ) -> AppExportError {
    let text = String(decoding: UnsafeBufferPointer(start: base + a, count: b - a), as: UTF8.self)
    return AppExportError(
      path: "\(location(line: line, column: request.column))",
      message: "'\(Excerpt.text(text))' nanoseconds lies more than "
        + "\(CSVError.format(request.effectiveLimit)) s from the recording's start "
        + "(\(origin) ns since 1970), or beyond 64 bits.",
      hint: "the times of one recording lie within hours of each other; check the cell.")
  }

  /// A decimal number, with a comma read as the decimal mark where the separator allows it.
  @inline(__always)
  private func number(
    _ base: UnsafePointer<UInt8>, _ a: Int, _ b: Int, _ scratch: inout [UInt8]
  ) -> Double? {
    if decimalComma, b - a <= scratch.count, memchr(base + a, 44, b - a) != nil {
      return scratch.withUnsafeMutableBufferPointer { s -> Double? in
        guard let p = s.baseAddress else { return nil }
        for k in 0..<(b - a) { p[k] = base[a + k] == 44 ? 46 : base[a + k] }
        if case .value(let v) = DecimalParser.parse(UnsafePointer(p), 0, b - a) { return v }
        return nil
      }
    }
    if case .value(let v) = DecimalParser.parse(base, a, b) { return v }
    return nil
  }

  /// `nan`, `NaN` and `null`: cells apps write for a missing value.
  @inline(__always)
  private static func isMissingToken(_ base: UnsafePointer<UInt8>, _ a: Int, _ b: Int) -> Bool {
    switch b - a {
    case 3:
      return base[a] | 0x20 == 110 && base[a + 1] | 0x20 == 97 && base[a + 2] | 0x20 == 110
    case 4:
      return base[a] | 0x20 == 110 && base[a + 1] | 0x20 == 117 && base[a + 2] | 0x20 == 108
        && base[a + 3] | 0x20 == 108
    default:
      return false
    }
  }

  enum Integer {
    case value(Int64)
    case overflow
    case notAnInteger
  }

  /// An optionally signed decimal integer, or whether it is one too large for Int64.
  private static func integer(_ base: UnsafePointer<UInt8>, _ a: Int, _ b: Int) -> Integer {
    var i = a
    let negative = base[i] == UInt8(ascii: "-")
    if negative || base[i] == UInt8(ascii: "+") { i += 1 }
    guard i < b else { return .notAnInteger }
    var v: Int64 = 0
    var overflow = false
    while i < b {
      let d = base[i] &- 48
      guard d <= 9 else { return .notAnInteger }
      let (m, o1) = v.multipliedReportingOverflow(by: 10)
      let (s, o2) =
        negative ? m.subtractingReportingOverflow(Int64(d)) : m.addingReportingOverflow(Int64(d))
      overflow = overflow || o1 || o2
      v = s
      i += 1
    }
    return overflow ? .overflow : .value(v)
  }

  private func location(line: Int, column: Int) -> CSVLocation {
    CSVLocation(
      file: file, line: line, column: column + 1,
      columnName: column < header.count ? header[column] : nil)
  }

  private func tooManyFields(found: Int, line: Int) -> Error {
    let at = CSVLocation(file: file, line: line, column: header.count + 1)
    let name = format.separator == 9 ? "tab" : "'\(Character(Unicode.Scalar(format.separator)))'"
    return AppExportError(
      path: "\(at)",
      message: "the row has \(found) fields, the header \(header.count) (\(name)-separated).",
      hint: format.separator == UInt8(ascii: ",")
        ? "decimal commas in a comma-separated file shift the columns: export with a decimal "
          + "point, or with ';' between fields."
        : "every row needs one field per header column.")
  }
}

/// How an app's CSV text is laid out: separator, line end, where the header and the rows are.
/// One rule for recognising a file (`AppExport.header(of:)`) and reading it (`AppTable`).
struct AppTextFormat {
  var separator: UInt8
  /// LF (a CR before it is dropped) or, in a file with no LF at all, CR.
  var lineEnd: UInt8
  var header: [String]
  /// 1-based line of the header (2 after a `sep=` line).
  var headerLine: Int
  /// Byte offset of the first line after the header.
  var dataStart: Int

  /// The format of a file starting with `bytes` (the whole file, or its first bytes); nil
  /// when there is no header line.
  init?(_ bytes: [UInt8]) {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    lineEnd = bytes[start...].contains(10) || !bytes[start...].contains(13) ? 10 : 13
    separator = UInt8(ascii: ",")
    header = []
    headerLine = 1
    dataStart = start
    var (a, b, next) = Self.line(bytes, from: start, lineEnd: lineEnd)
    let first = Array(bytes[a..<b]).trimmingSpaces
    if first.count == 5, first.prefix(4).map({ $0 | 0x20 }) == Array("sep=".utf8) {
      separator = first[4]
      headerLine = 2
      (a, b, next) = Self.line(bytes, from: next, lineEnd: lineEnd)
    } else {
      let line = bytes[a..<b]
      let (commas, semicolons, tabs) = (line.contains(44), line.contains(59), line.contains(9))
      if semicolons && !commas {
        separator = 59
      } else if tabs && !commas && !semicolons {
        separator = 9
      }
    }
    guard a < b else { return nil }
    dataStart = next
    var fields: [String] = []
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var i = a
      while true {
        let (s, e, more) = nextField(base, &i, b)
        fields.append(
          String(decoding: UnsafeBufferPointer(start: base + s, count: e - s), as: UTF8.self))
        if !more { break }
      }
    }
    header = fields
  }

  /// The line from `start`: its bytes `a..<b` (line end and a CR before it excluded), and
  /// where the next begins.
  static func line(_ bytes: [UInt8], from start: Int, lineEnd: UInt8) -> (Int, Int, Int) {
    guard start < bytes.count else { return (start, start, start) }
    let end = bytes[start...].firstIndex(of: lineEnd) ?? bytes.count
    var b = end
    if lineEnd == 10 && b > start && bytes[b - 1] == 13 { b -= 1 }
    return (start, b, min(end + 1, bytes.count))
  }

  /// Calls `body` with each line's bytes `start..<end` from `offset` (line ends excluded;
  /// a blank line gives `start == end`).
  func forEachLine(_ bytes: [UInt8], from offset: Int, _ body: (Int, Int) -> Void) {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let count = buffer.count
      var i = offset
      while i < count {
        let found = memchr(base + i, Int32(lineEnd), count - i)
        let end = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? count
        var b = end
        if lineEnd == 10 && b > i && base[b - 1] == 13 { b -= 1 }
        body(i, b)
        i = end + 1
      }
    }
  }

  /// The field at `i` in a line ending at `end`: its bytes `a..<b` (surrounding quotes
  /// removed), whether another field follows; `i` moves past its separator.
  @inline(__always)
  func nextField(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) -> (Int, Int, Bool) {
    if i < end && base[i] == UInt8(ascii: "\"") {
      let open = i + 1
      let close =
        memchr(base + open, 34, end - open).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
        ?? end
      var j = min(close + 1, end)
      while j < end && base[j] != separator { j += 1 }
      i = j + 1
      return (open, close, j < end)
    }
    let found = i < end ? memchr(base + i, Int32(separator), end - i) : nil
    guard let p = found else {
      let a = i
      i = end + 1
      return (a, end, false)
    }
    let sep = UnsafeRawPointer(p) - UnsafeRawPointer(base)
    let a = i
    i = sep + 1
    return (a, sep, true)
  }
}

extension Array where Element == UInt8 {
  /// Without leading and trailing spaces, tabs and line ends.
  var trimmingSpaces: [UInt8] {
    var a = startIndex
    var b = endIndex
    while a < b && [9, 10, 13, 32].contains(self[a]) { a += 1 }
    while b > a && [9, 10, 13, 32].contains(self[b - 1]) { b -= 1 }
    return Array(self[a..<b])
  }
}
