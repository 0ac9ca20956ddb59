// Splits a UTF-8 CSV byte buffer into fields (RFC 4180: comma separator, optional quotes,
// doubled quotes inside quotes, LF / CRLF / CR line ends, a leading UTF-8 BOM). Unquoted
// fields are returned as byte ranges into the buffer so the hot loop never copies.

/// How a field ended.
package enum CSVFieldEnd: UInt8 {
  case comma, lineEnd, endOfInput, unterminatedQuote

  // Inlinable, as `next` is: the batch loader (MotusIngest) tests every field's terminator,
  // and a call to the synthesized witness across modules costs it a few percent.
  @inlinable
  package static func == (lhs: CSVFieldEnd, rhs: CSVFieldEnd) -> Bool {
    lhs.rawValue == rhs.rawValue
  }

  @inlinable
  package static func != (lhs: CSVFieldEnd, rhs: CSVFieldEnd) -> Bool {
    lhs.rawValue != rhs.rawValue
  }
}

/// One field: `start..<end` in the buffer, or (when `quoted`) in the scanner's `unquoted`.
package struct CSVField {
  package var start: Int
  package var end: Int
  package var quoted: Bool
  package var terminator: CSVFieldEnd

  @inlinable
  package init(start: Int, end: Int, quoted: Bool, terminator: CSVFieldEnd) {
    (self.start, self.end, self.quoted, self.terminator) = (start, end, quoted, terminator)
  }
}

package struct CSVScanner {
  package let base: UnsafePointer<UInt8>
  package let count: Int
  /// Byte offset of the next field.
  package var position: Int
  /// 1-based line of `position` (advances past newlines inside quoted fields too).
  package var line = 1
  /// The unescaped text of the last quoted field.
  package var unquoted: [UInt8] = []

  package init(base: UnsafePointer<UInt8>, count: Int) {
    self.base = base
    self.count = count
    // Skip a UTF-8 byte order mark.
    if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
      position = 3
    } else {
      position = 0
    }
  }

  package var atEnd: Bool { position >= count }

  /// Scans one field and consumes its terminator. Increments `line` after a line end.
  /// Inlinable: the batch loader in MotusIngest calls it for every field, and a call across
  /// modules cannot be inlined otherwise.
  @inlinable @inline(__always)
  package mutating func next() -> CSVField {
    let start = position
    if start < count && base[start] == UInt8(ascii: "\"") { return nextQuoted() }
    var i = start
    while i < count {
      let b = base[i]
      if b == UInt8(ascii: ",") {
        position = i + 1
        return CSVField(start: start, end: i, quoted: false, terminator: .comma)
      }
      if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
        consumeLineEnd(at: i)
        return CSVField(start: start, end: i, quoted: false, terminator: .lineEnd)
      }
      i += 1
    }
    position = count
    return CSVField(start: start, end: count, quoted: false, terminator: .endOfInput)
  }

  /// The next field when it is a plain decimal number (`-0.067855`, no exponent, at most 19
  /// significant digits), with its value, read in one pass; nil, with the position unchanged,
  /// for any other field (which `next` then reads).
  @inline(__always)
  package mutating func nextNumber() -> (field: CSVField, value: Double)? {
    let start = position
    guard let (value, end) = DecimalParser.parseField(base, start, count) else { return nil }
    guard end < count else {
      position = count
      return (CSVField(start: start, end: end, quoted: false, terminator: .endOfInput), value)
    }
    if base[end] == UInt8(ascii: ",") {
      position = end + 1
      return (CSVField(start: start, end: end, quoted: false, terminator: .comma), value)
    }
    consumeLineEnd(at: end)
    return (CSVField(start: start, end: end, quoted: false, terminator: .lineEnd), value)
  }

  @inlinable @inline(__always)
  package mutating func consumeLineEnd(at i: Int) {
    if base[i] == UInt8(ascii: "\r") && i + 1 < count && base[i + 1] == UInt8(ascii: "\n") {
      position = i + 2
    } else {
      position = i + 1
    }
    line += 1
  }

  @usableFromInline
  package mutating func nextQuoted() -> CSVField {
    unquoted.removeAll(keepingCapacity: true)
    var i = position + 1
    var closed = false
    while i < count {
      let b = base[i]
      if b == UInt8(ascii: "\"") {
        if i + 1 < count && base[i + 1] == UInt8(ascii: "\"") {
          unquoted.append(b)
          i += 2
          continue
        }
        closed = true
        i += 1
        break
      }
      if b == UInt8(ascii: "\n") { line += 1 }
      unquoted.append(b)
      i += 1
    }
    if !closed {
      position = count
      return CSVField(start: 0, end: unquoted.count, quoted: true, terminator: .unterminatedQuote)
    }
    // Text between the closing quote and the separator is kept (lenient, as spreadsheets are).
    while i < count {
      let b = base[i]
      if b == UInt8(ascii: ",") {
        position = i + 1
        return CSVField(start: 0, end: unquoted.count, quoted: true, terminator: .comma)
      }
      if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
        consumeLineEnd(at: i)
        return CSVField(start: 0, end: unquoted.count, quoted: true, terminator: .lineEnd)
      }
      unquoted.append(b)
      i += 1
    }
    position = count
    return CSVField(start: 0, end: unquoted.count, quoted: true, terminator: .endOfInput)
  }

  /// The field's text as a String.
  package func text(_ field: CSVField) -> String {
    if field.quoted { return String(decoding: unquoted[field.start..<field.end], as: UTF8.self) }
    return String(
      decoding: UnsafeBufferPointer(start: base + field.start, count: field.end - field.start),
      as: UTF8.self)
  }

  /// Parses the field as a number.
  @inline(__always)
  package func number(_ field: CSVField) -> DecimalParser.Outcome {
    if field.quoted {
      return unquoted.withUnsafeBufferPointer { b in
        guard let p = b.baseAddress else { return DecimalParser.Outcome.empty }
        return DecimalParser.parse(p, field.start, field.end)
      }
    }
    return DecimalParser.parse(base, field.start, field.end)
  }
}

extension CSVScanner {
  /// Most header columns: a few hundred sensor channels at most; more is not a sensor log
  /// (and each name costs memory before any row is read).
  package static let maximumColumns = 10_000

  /// Reads the header line into column names, rejecting duplicates.
  /// Returns `nil` when the input holds no header (empty file).
  package mutating func readHeader(file: String) throws -> [String]? {
    while !atEnd {
      let headerLine = line
      var names: [String] = []
      while true {
        let field = next()
        if field.terminator == .unterminatedQuote {
          throw CSVError.unterminatedQuote(
            at: CSVLocation(file: file, line: headerLine, column: names.count + 1))
        }
        names.append(text(field).trimmingASCIISpaces())
        if field.terminator != .comma { break }
        if names.count == Self.maximumColumns {
          throw CSVError.tooManyColumns(file: file, limit: Self.maximumColumns)
        }
      }
      if names == [""] { continue }  // blank line before the header
      var firstIndex: [String: Int] = [:]
      for (i, name) in names.enumerated() {
        if let first = firstIndex[name] {
          throw CSVError.duplicateColumn(
            name: name, at: CSVLocation(file: file, line: headerLine, column: i + 1),
            firstColumn: first + 1)
        }
        firstIndex[name] = i
      }
      return names
    }
    return nil
  }
}

extension String {
  package func trimmingASCIISpaces() -> String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }
}
