// A small reader for the CSV files phone apps write: comma or semicolon separated, quoted or
// bare headers, CRLF or LF, an optional `sep=;` line (AndroSensor), decimal commas in a
// semicolon file (a French-locale Physics Toolbox export), no final newline. Columns are
// found by name, so their order (Sensor Logger's z,y,x) does not matter.

import Foundation

/// One app CSV file read whole: its header and its rows of fields.
struct AppTable {
  /// The path, for error messages.
  let file: String
  let header: [String]
  let rows: [[Substring]]
  /// 1-based line of `rows[0]` (2, or 3 after a `sep=` line).
  let firstRowLine: Int
  let separator: Character
  /// Semicolon files may write `0,0562` for 0.0562.
  var decimalComma: Bool { separator == ";" }

  /// Reads `path` whole. Throws `CSVError` for an unreadable, binary or empty file.
  static func read(_ path: String) throws -> AppTable {
    let bytes: [UInt8]
    do {
      bytes = try InputFile.read(path)
    } catch let error as InputFileError {
      throw CSVError.unreadable(file: error.file, reason: error.reason)
    }
    return try parse(bytes, file: path)
  }

  static func parse(_ bytes: [UInt8], file: String) throws -> AppTable {
    if let encoding = bytes.withUnsafeBufferPointer({ TextEncoding.problem($0) }) {
      throw CSVError.notText(file: file, encoding: encoding)
    }
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    // "\r\n" is one Character in Swift, so both line ends are split on.
    var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.map {
      $0.hasSuffix("\r") ? $0.dropLast() : $0
    }
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    var headerIndex = 0
    var separator: Character = ","
    if let first = lines.first, first.lowercased().hasPrefix("sep="), first.count == 5 {
      separator = first.last ?? ";"
      headerIndex = 1
    }
    guard headerIndex < lines.count else { throw CSVError.emptyFile(file: file) }
    let headerLine = lines[headerIndex]
    if headerIndex == 0 && headerLine.contains(";") && !headerLine.contains(",") {
      separator = ";"
    }
    let header = split(headerLine, separator).map {
      String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }
    let rows = lines[(headerIndex + 1)...].filter { !$0.isEmpty }.map { split($0, separator) }
    return AppTable(
      file: file, header: header, rows: rows, firstRowLine: headerIndex + 2, separator: separator)
  }

  /// Fields of one line; quotes around a field are removed, separators inside quotes kept.
  static func split(_ line: Substring, _ separator: Character) -> [Substring] {
    guard line.contains("\"") else {
      return line.split(separator: separator, omittingEmptySubsequences: false)
    }
    var fields: [Substring] = []
    var start = line.startIndex
    var quoted = false
    var i = line.startIndex
    func field(_ a: String.Index, _ b: String.Index) -> Substring {
      let f = line[a..<b]
      return f.count >= 2 && f.first == "\"" && f.last == "\"" ? f.dropFirst().dropLast() : f
    }
    while i < line.endIndex {
      let c = line[i]
      if c == "\"" {
        quoted.toggle()
      } else if c == separator && !quoted {
        fields.append(field(start, i))
        start = line.index(after: i)
      }
      i = line.index(after: i)
    }
    fields.append(field(start, line.endIndex))
    return fields
  }

  /// Index of the first column whose name is one of `names`.
  func column(_ names: String...) -> Int? {
    for name in names { if let i = header.firstIndex(of: name) { return i } }
    return nil
  }

  /// Index of the first column whose name satisfies `test`.
  func column(where test: (String) -> Bool) -> Int? { header.firstIndex(where: test) }

  /// A column as numbers. Empty cells, `NaN`, `null` and missing fields become NaN; other
  /// text is an error naming the file, line and column.
  func numbers(_ column: Int) throws -> [Double] {
    var out = [Double](repeating: .nan, count: rows.count)
    for (r, row) in rows.enumerated() where column < row.count {
      let field = row[column].trimmingCharacters(in: .whitespaces)
      if field.isEmpty || field == "null" || field == "NaN" || field == "nan" { continue }
      let text = decimalComma ? field.replacingOccurrences(of: ",", with: ".") : field
      guard let value = Double(text) else {
        throw CSVError.nonNumeric(text: String(field), at: location(row: r, column: column))
      }
      out[r] = value
    }
    return out
  }

  /// A column as text (empty for a missing field).
  func strings(_ column: Int) -> [Substring] {
    rows.map { column < $0.count ? $0[column] : "" }
  }

  func location(row: Int, column: Int) -> CSVLocation {
    CSVLocation(
      file: file, line: firstRowLine + row, column: column + 1,
      columnName: column < header.count ? header[column] : nil)
  }

  /// The first line of the file, shortened, for messages.
  var headerExcerpt: String { Excerpt.list(Array(header.prefix(6))) }
}
