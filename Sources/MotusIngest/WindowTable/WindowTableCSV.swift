// A window table in CSV, as `motus features -o` writes it (`WindowTable+CSV.swift`), read in
// one pass: the naming and count columns kept as text, every other column (the features)
// parsed to Float as it is met, so memory holds the file's bytes and the features, not a
// String per cell.

import MotusData
import MotusGzip

/// The columns of a CSV window table.
public struct WindowTableCSV: WindowTableColumns {
  public let file: String
  public let columnNames: [String]
  public var rowCount: Int { lines.count }
  /// The line each row starts on (1-based; the header is line 1).
  private var lines: [Int] = []
  /// By column index: the text of a column in `WindowTable.textColumnNames`, else nil.
  private var text: [[String]?] = []
  /// The other columns, in header order.
  private let numericColumns: [Int]
  /// `[rowCount, numericColumns.count]`, row-major.
  private var values: [Float] = []

  /// Reads `path` (a file, a pipe or `-`).
  ///
  /// - Throws: `WindowTableError` naming the file, or the line and column of the first cell
  ///   that cannot be read.
  public init(_ path: String) throws {
    file = InputFile.displayName(path)
    let bytes = try Self.readText(path, file: file)
    let file = self.file
    var header: [String] = []
    var textBuffers: [[String]?] = []
    var numeric: [Int] = []
    var lines: [Int] = []
    var values: [Float] = []
    try bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, !buffer.isEmpty else {
        throw WindowTableError.noHeader(file: file)
      }
      var scanner = CSVScanner(base: base, count: buffer.count)
      header = try Self.readHeader(&scanner, file: file)
      let textNames = Set(WindowTable.textColumnNames)
      for (c, name) in header.enumerated() {
        textBuffers.append(textNames.contains(name) ? [] : nil)
        if !textNames.contains(name) { numeric.append(c) }
      }
      let isText = header.map { textNames.contains($0) }
      func place(_ line: Int, _ column: Int) -> String {
        CSVLocation(file: file, line: line, column: column + 1, columnName: header[column])
          .description
      }
      while !scanner.atEnd {
        let line = scanner.line
        let column = try Self.readRow(
          &scanner, isText: isText, texts: &textBuffers, values: &values,
          place: { place(line, $0) })
        guard column == header.count else {
          throw WindowTableError.raggedRow(
            at: CSVLocation(file: file, line: line, column: min(column, header.count + 1))
              .description,
            expected: header.count, found: column)
        }
        lines.append(line)
      }
    }
    guard !lines.isEmpty else { throw WindowTableError.noRows(file: file) }
    columnNames = header
    text = textBuffers
    numericColumns = numeric
    self.lines = lines
    self.values = values
  }

  /// The text of `path` (gzip inflated), refused when it is not UTF-8.
  private static func readText(_ path: String, file: String) throws -> [UInt8] {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.readText(path)
    } catch let error as InputFileError {
      throw WindowTableError.unreadable(file: error.file, reason: error.reason)
    }
    if let encoding = TextEncoding.problem(bytes) {
      throw WindowTableError.notText(file: file, encoding: encoding)
    }
    return bytes
  }

  /// One row's fields: a text column's cell goes to its buffer, any other is parsed to Float.
  /// Fields beyond the header are counted, not kept.
  ///
  /// - Returns: How many fields the row has.
  private static func readRow(
    _ scanner: inout CSVScanner, isText: [Bool], texts: inout [[String]?],
    values: inout [Float], place: (_ column: Int) -> String
  ) throws -> Int {
    var column = 0
    while true {
      let field = scanner.next()
      if field.terminator == .unterminatedQuote {
        throw WindowTableError.unterminatedQuote(at: place(min(column, isText.count - 1)))
      }
      if column < isText.count {
        let cell = scanner.text(field)
        if isText[column] {
          texts[column]?.append(cell)
        } else {
          guard !cell.isEmpty else { throw WindowTableError.emptyCell(at: place(column)) }
          values.append(try number(cell, at: place(column)))
        }
      }
      column += 1
      if field.terminator != .comma { return column }
    }
  }

  /// A numeric cell's value, finite; errors quote the cell as written (`1e39`, not `inf`).
  static func number(_ cell: String, at place: @autoclosure () -> String) throws -> Float {
    guard let value = Float(cell) else {
      throw WindowTableError.nonNumeric(text: cell, at: place())
    }
    guard value.isFinite else {
      // Digits that overflow a Float are a number out of range; `inf`, `nan` are not numbers.
      throw cell.contains(where: \.isNumber)
        ? WindowTableError.beyondFloat(text: cell, at: place())
        : WindowTableError.nonFinite(text: cell, at: place())
    }
    return value
  }

  /// The header's names, each once.
  private static func readHeader(_ scanner: inout CSVScanner, file: String) throws -> [String] {
    var names: [String] = []
    while true {
      let field = scanner.next()
      if field.terminator == .unterminatedQuote {
        throw WindowTableError.unterminatedQuote(
          at: CSVLocation(file: file, line: 1, column: names.count + 1).description)
      }
      names.append(scanner.text(field))
      if field.terminator != .comma { break }
    }
    if names == [""] { throw WindowTableError.noHeader(file: file) }
    var seen: Set<String> = []
    for name in names where !seen.insert(name).inserted {
      throw WindowTableError.duplicateColumn(name: name, file: file)
    }
    return names
  }

  public func strings(_ index: Int) throws -> [String?] {
    if let column = text[index] { return column }
    return try floats([index]).map { "\($0)" }
  }

  public func doubles(_ index: Int) throws -> [Double?] {
    guard let column = text[index] else {
      return try floats([index]).map { Double($0) }
    }
    return try column.enumerated().map { row, cell in
      if cell.isEmpty { return nil }
      guard let value = Double(cell) else {
        throw WindowTableError.nonNumeric(text: cell, at: place(row: row, column: index))
      }
      return value
    }
  }

  public func floats(_ indices: [Int]) throws -> [Float] {
    if indices == numericColumns { return values }
    let width = numericColumns.count
    var out: [Float] = []
    out.reserveCapacity(rowCount * indices.count)
    var sources: [(text: [String]?, k: Int)] = []
    for index in indices {
      sources.append((text[index], numericColumns.firstIndex(of: index) ?? -1))
    }
    for row in 0..<rowCount {
      for (j, source) in sources.enumerated() {
        if let column = source.text {
          let cell = column[row]
          guard !cell.isEmpty else {
            throw WindowTableError.emptyCell(at: place(row: row, column: indices[j]))
          }
          out.append(try Self.number(cell, at: place(row: row, column: indices[j])))
        } else {
          out.append(values[row * width + source.k])
        }
      }
    }
    return out
  }

  public func place(row: Int, column index: Int) -> String {
    CSVLocation(
      file: file, line: lines[row], column: index + 1,
      columnName: columnNames.indices.contains(index) ? columnNames[index] : nil
    ).description
  }
}
