// A minimal reader for the shared datasets' long CSV layout, so the reference test does not
// depend on the ingestion code: finds one session's first row by searching the mapped file,
// then parses the requested columns of `count` rows from `start` on.

import Foundation

enum SharedCSVReader {
  struct ReadError: Error, CustomStringConvertible {
    let description: String
  }

  /// `columns[c][t]` for rows `start..<start + count` of `session` (rows counted within it).
  static func rows(
    file: URL, session: String, start: Int, count: Int, columns: [String]
  ) throws -> [[Float]] {
    let data = try Data(contentsOf: file, options: .alwaysMapped)
    guard let hit = data.range(of: Data(",\(session),".utf8)) else {
      throw ReadError(description: "\(file.path): no session \(session)")
    }
    return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [[Float]] in
      let bytes = raw.bindMemory(to: UInt8.self)
      func line(from i: Int) -> (text: String, next: Int) {
        var j = i
        while j < bytes.count && bytes[j] != 10 { j += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<j]), as: UTF8.self)
        return (text, j + 1)
      }
      let header = line(from: 0)
      let names = header.text.split(separator: ",").map(String.init)
      let indices = try columns.map { name -> Int in
        guard let i = names.firstIndex(of: name) else {
          throw ReadError(description: "\(file.path): no column \(name)")
        }
        return i
      }
      guard let sessionColumn = names.firstIndex(of: "session") else {
        throw ReadError(description: "\(file.path): no session column")
      }
      var position = hit.lowerBound - data.startIndex
      while position > 0 && bytes[position - 1] != 10 { position -= 1 }
      var out = [[Float]](repeating: [], count: columns.count)
      var row = 0
      while row < start + count {
        guard position < bytes.count else {
          throw ReadError(description: "\(file.path): \(session) ends before row \(start + count)")
        }
        let (text, next) = line(from: position)
        position = next
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        guard fields[sessionColumn] == session else {
          throw ReadError(description: "\(file.path): \(session) has only \(row) rows")
        }
        if row >= start {
          for (c, i) in indices.enumerated() {
            guard let value = Float(fields[i]) else {
              throw ReadError(description: "\(file.path): bad number '\(fields[i])'")
            }
            out[c].append(value)
          }
        }
        row += 1
      }
      return out
    }
  }
}
