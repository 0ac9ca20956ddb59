// Rules every command follows, checked on the command line's sources so that a new command or
// flag cannot skip them: standard output only through `StandardOutput` (checked writes), files
// only through `OutputFile` (the output rule).

import Foundation
import XCTest

final class CommandSourceRulesTests: XCTestCase {
  static var cliSources: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/MotusCLI")
  }

  /// Every Swift file of the command line: (name relative to Sources/MotusCLI, lines).
  static func sources() throws -> [(name: String, lines: [String])] {
    let root = cliSources
    let names = try XCTUnwrap(FileManager.default.subpaths(atPath: root.path))
      .filter { $0.hasSuffix(".swift") }.sorted()
    XCTAssertGreaterThan(names.count, 10)
    return try names.map { name in
      let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
      return (name, text.components(separatedBy: "\n"))
    }
  }

  /// `(file:line, text)` of every code line (comments stripped) that matches `pattern`.
  static func matches(_ pattern: String, except allowed: Set<String> = []) throws -> [String] {
    let regex = try NSRegularExpression(pattern: pattern)
    var found: [String] = []
    for (name, lines) in try sources() where !allowed.contains(name) {
      for (i, line) in lines.enumerated() {
        let code = line.components(separatedBy: "//")[0]
        let range = NSRange(code.startIndex..., in: code)
        if regex.firstMatch(in: code, range: range) != nil {
          found.append("\(name):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    return found
  }

  func testStandardOutput_IsWrittenOnlyThroughTheCheckedWriter() throws {
    // Swift's print buffers in stdio and drops write errors; FileHandle traps on them.
    let found = try Self.matches(#"(?<![.\w])print\(|FileHandle\.standardOutput|STDOUT_FILENO"#)
    XCTAssertEqual(found, [], "write standard output with StandardOutput.print/write")
  }

  func testFiles_AreWrittenOnlyThroughOutputFile() throws {
    // StreamAppInput's copy is a private temporary file, opened and unlinked at once.
    let found = try Self.matches(
      #"\.write\(to:|\.atomic\b|createFile\(atPath|FileHandle\(forWritingTo"#,
      except: ["StreamAppInput.swift"])
    XCTAssertEqual(found, [], "open outputs with OutputFile before the work")
  }
}
