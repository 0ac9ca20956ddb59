// Parses CSV one line at a time, for input that arrives as a stream (`motus stream`).
// The batch loader uses the same scanner and number parser, so both accept the same text.

/// One parsed data row.
public struct CSVRow: Sendable, Equatable {
  public var file: String
  /// 1-based line number in the input (the header is line 1).
  public var line: Int
  /// Unquoted field texts, one per header column.
  public var fields: [String]
  /// Header names, for error messages.
  public var header: [String]

  /// The number in `column` (0-based index), or `nil` for an empty cell.
  ///
  /// - Parameters:
  ///   - limit: The largest magnitude accepted (`Limits.channelMagnitude` for channels).
  ///   - isTime: Whether the column is the time (named so in the error).
  /// - Throws: `CSVError.nonNumeric`, or what `CSVError.unusable` gives, naming the 1-based
  ///   line and column.
  public func number(
    at column: Int, limit: Double = Limits.channelMagnitude, isTime: Bool = false
  ) throws -> Double? {
    precondition(column >= 0 && column < fields.count, "column \(column) of \(fields.count)")
    let text = fields[column]
    let at = CSVLocation(
      file: file, line: line, column: column + 1,
      columnName: column < header.count ? header[column] : nil)
    switch DecimalParser.parse(text) {
    case .empty: return nil
    case .notANumber: throw CSVError.nonNumeric(text: text, at: at)
    case .value(let v):
      if let error = CSVError.unusable(v, text: text, at: at, limit: limit, isTime: isTime) {
        throw error
      }
      return v
    }
  }
}

/// Splits a header line into column indices, then parses one data line at a time.
///
///     var parser = try CSVRowParser(headerLine: "timestamp,label,x", file: "<stdin>")
///     let t = try parser.requireColumn("timestamp", option: "--time-column")
///     if let row = try parser.parse("0.02,walking,0.5") { print(try row.number(at: t)) }
///
/// Each call to `parse` is one physical line: a quoted field cannot span lines here (the
/// batch loader allows it). A line with the wrong field count throws `CSVError.raggedRow`.
public struct CSVRowParser: Sendable {
  public let file: String
  /// Column names from the header, in order.
  public let header: [String]
  /// The line number the next `parse` call is given (header is line 1).
  public private(set) var nextLine: Int
  private let indexOfName: [String: Int]

  /// Parses the header. A UTF-8 BOM, surrounding spaces and quotes are removed.
  ///
  /// - Throws: `CSVError.emptyFile` for a blank header, `.duplicateColumn`.
  public init(headerLine: String, file: String = "<stream>") throws {
    var bytes = Array(headerLine.utf8)
    let count = bytes.count
    let names = try bytes.withUnsafeMutableBufferPointer { buffer -> [String]? in
      guard let base = buffer.baseAddress else { return nil }
      var scanner = CSVScanner(base: UnsafePointer(base), count: count)
      return try scanner.readHeader(file: file)
    }
    guard let names else { throw CSVError.emptyFile(file: file) }
    self.file = file
    self.header = names
    self.nextLine = 2
    var index: [String: Int] = [:]
    for (i, n) in names.enumerated() { index[n] = i }
    self.indexOfName = index
  }

  /// The 0-based index of the column named `name`, if any.
  public func column(_ name: String) -> Int? { indexOfName[name] }

  /// The 0-based index of `name`, or `CSVError.missingColumn` naming the option to set.
  public func requireColumn(_ name: String, option: String) throws -> Int {
    guard let i = indexOfName[name] else {
      throw CSVError.missingColumn(name: name, option: option, file: file, available: header)
    }
    return i
  }

  /// Parses the next line (without its line end; a trailing `\r` is dropped).
  ///
  /// - Returns: `nil` for a blank line, which is skipped but counted.
  /// - Throws: `CSVError.raggedRow`, `.unterminatedQuote`.
  public mutating func parse(_ line: String) throws -> CSVRow? {
    let lineNumber = nextLine
    nextLine += 1
    var bytes = Array(line.utf8)
    while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
      bytes.removeLast()
    }
    if bytes.isEmpty { return nil }
    let count = bytes.count
    let header = self.header
    let file = self.file
    let fields = try bytes.withUnsafeMutableBufferPointer { buffer -> [String] in
      guard let base = buffer.baseAddress else { return [] }
      var scanner = CSVScanner(base: UnsafePointer(base), count: count)
      scanner.position = 0  // a BOM only counts at the start of the input
      var fields: [String] = []
      fields.reserveCapacity(header.count)
      while true {
        let field = scanner.next()
        if field.terminator == .unterminatedQuote {
          throw CSVError.unterminatedQuote(
            at: CSVLocation(file: file, line: lineNumber, column: fields.count + 1))
        }
        fields.append(scanner.text(field))
        if field.terminator != .comma { break }
      }
      return fields
    }
    guard fields.count == header.count else {
      let column = min(fields.count, header.count) + 1
      throw CSVError.raggedRow(
        at: CSVLocation(file: file, line: lineNumber, column: column),
        expected: header.count, found: fields.count)
    }
    return CSVRow(file: file, line: lineNumber, fields: fields, header: header)
  }

  /// The fast path of `parse`, for a line that holds no quote and no line end and exactly
  /// one field per column: fills `ends` with each field's end offset (field `i` starts after
  /// `ends[i - 1]`). Consumes no line number: call `acceptPlainLine` once the line is used,
  /// or give the same line to `parse` when this returns false or a value needs its error.
  public func splitPlainLine(_ line: UnsafeBufferPointer<UInt8>, ends: inout [Int]) -> Bool {
    guard let base = line.baseAddress, line.count > 0 else { return false }
    ends.removeAll(keepingCapacity: true)
    let columns = header.count
    var i = Self.nextByteUpToComma(base, from: 0, count: line.count)
    while i < line.count {
      let b = base[i]
      if b == UInt8(ascii: ",") {
        guard ends.count < columns - 1 else { return false }
        ends.append(i)
      } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
        return false
      }
      i = Self.nextByteUpToComma(base, from: i + 1, count: line.count)
    }
    guard ends.count == columns - 1 else { return false }
    ends.append(line.count)
    return true
  }

  /// The first byte at `start` or after that is ',' or below (a comma, quote, line end, space
  /// or control byte), or `count`. Digits, '.', '-' and letters are above ',', so a number's
  /// bytes are passed 8 at a time: a byte below 0x2D borrows in `word - 0x2D...`, setting its
  /// high bit where its own is clear. Bytes after the first such may be flagged by its
  /// borrow, so only the first is taken.
  @inline(__always)
  static func nextByteUpToComma(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
    var i = start
    while count - i >= 8 {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
      let flagged = (word &- 0x2D2D_2D2D_2D2D_2D2D) & ~word & 0x8080_8080_8080_8080
      if flagged != 0 { return i + flagged.trailingZeroBitCount / 8 }
      i += 8
    }
    while i < count && base[i] > UInt8(ascii: ",") { i += 1 }
    return i
  }

  /// Counts a line handled by `splitPlainLine`; returns its line number.
  @discardableResult
  public mutating func acceptPlainLine() -> Int {
    defer { nextLine += 1 }
    return nextLine
  }

  /// The number in `line[start..<end]` as `CSVRow.number(at:)` reads it: nil for an empty
  /// cell, NaN for text that is not a number (which `parse` then reports).
  public static func number(in line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> Double?
  {
    guard let base = line.baseAddress else { return nil }
    // A plain number is read as batch loading reads it (its 8-byte words may look past `end`,
    // within the line), when it ends exactly at the cell's end.
    if let (value, numberEnd) = DecimalParser.parseField(base, start, line.count),
      numberEnd == end
    {
      return value
    }
    switch DecimalParser.parse(base, start, end) {
    case .empty: return nil
    case .notANumber: return .nan
    case .value(let v): return v
    }
  }
}
