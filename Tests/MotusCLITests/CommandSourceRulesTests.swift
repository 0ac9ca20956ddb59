// Rules every command follows, checked on the command line's sources so that a new command or
// flag cannot skip them: standard output only through `StandardOutput` and standard error only
// through `StandardError` (checked writes, every module), JSON only through the shared encoder
// (every module), files
// only through `OutputFile` (the output rule), numbers parsed whatever their sign (so that `-5`
// reaches validation instead of ArgumentParser's "Missing value").

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

  func testStandardError_IsWrittenOnlyThroughTheCheckedWriter() throws {
    // FileHandle.standardError traps when a write fails (`2>/dev/full`, a closed pipe); stdio
    // (fputs, print(to:), ArgumentParser's exit(withError:)) drops the failure unseen. Every
    // module, not only the command line: a library that warns would bypass it too.
    let pattern = try NSRegularExpression(
      pattern: #"FileHandle\.standardError|STDERR_FILENO|\bstderr\b"#
        + #"|FileHandle\(fileDescriptor: *2\b|\bwrite\(2,|to: *&\w*[Ee]rr|exit\(withError"#)
    // The writer itself, and help and version requests, which ArgumentParser prints to
    // standard output.
    let allowed = [
      "MotusOutput/StandardError.swift": "STDERR_FILENO",
      "MotusCLI/MotusCommand.swift": "if code.rawValue == 0 { exit(withError: error) }",
    ]
    let root = Self.cliSources.deletingLastPathComponent()
    let names = try XCTUnwrap(FileManager.default.subpaths(atPath: root.path))
      .filter { $0.hasSuffix(".swift") }.sorted()
    XCTAssertGreaterThan(names.count, 100, "the scan reads every module")
    var found: [String] = []
    for name in names {
      let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
      for (i, line) in text.components(separatedBy: "\n").enumerated() {
        let code = line.components(separatedBy: "//")[0]
        guard pattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil,
          !(allowed[name].map(code.contains) ?? false)
        else { continue }
        found.append("\(name):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    XCTAssertEqual(found, [], "write standard error with StandardError.write (Warnings.write)")
  }

  func testFiles_AreWrittenOnlyThroughOutputFile() throws {
    let found = try Self.matches(
      #"\.write\(to:|\.atomic\b|createFile\(atPath|FileHandle\(forWritingTo"#)
    XCTAssertEqual(found, [], "open outputs with OutputFile before the work")
  }

  func testNumericOptions_ParseTheirValueUnconditionally() throws {
    // Options whose text value is a list of numbers count as numeric too.
    let numericTypes: Set<String> = ["Int", "Double", "Float", "UInt64", "WindowSpan"]
    let numbersAsText: Set<String> = ["hidden", "seeds", "bands"]
    let declaration = try NSRegularExpression(
      pattern: #"@Option\(((?:(?!@Option|@Flag|@Argument).)*?)\)\s*\n\s*var (\w+)\s*"#
        + #"(?::\s*([\w.]+)\??)?\s*(?:=\s*([^\n]+))?"#,
      options: [.dotMatchesLineSeparators])
    var numeric: [String] = []
    var conditional: [String] = []
    for (name, lines) in try Self.sources() {
      let text = lines.joined(separator: "\n")
      for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        func group(_ i: Int) -> String? {
          Range(match.range(at: i), in: text).map { String(text[$0]) }
        }
        let (arguments, variable) = (group(1) ?? "", group(2) ?? "")
        let type = group(3), initial = group(4)?.trimmingCharacters(in: .whitespaces) ?? ""
        let isNumber =
          type.map(numericTypes.contains) ?? false || numbersAsText.contains(variable)
          || (type == nil
            && initial.range(of: #"^-?[0-9][0-9_.]*$"#, options: .regularExpression) != nil)
        guard isNumber else { continue }
        numeric.append(variable)
        if !arguments.contains("parsing: .unconditional") {
          conditional.append("\(name): \(variable)")
        }
      }
    }
    XCTAssertGreaterThan(numeric.count, 30, "the scan finds the numeric options")
    XCTAssertEqual(
      conditional, [], "add parsing: .unconditional, then check the value in validate()")
  }

  func testJSON_IsEncodedByTheOneSharedEncoder() throws {
    // One setup (`JSONEncoder.sortedKeys`) gives every JSON output the same key order, slashes
    // and non-finite numbers; an encoder of a command's own would drift from it. Every module.
    let pattern = try NSRegularExpression(
      pattern: #"JSONEncoder\(\)|JSONSerialization\.data|\.outputFormatting"#)
    let root = Self.cliSources.deletingLastPathComponent()
    let names = try XCTUnwrap(FileManager.default.subpaths(atPath: root.path))
      .filter { $0.hasSuffix(".swift") && $0 != "MotusData/JSONEncoder+SortedKeys.swift" }
    XCTAssertGreaterThan(names.count, 100, "the scan reads every module")
    var found: [String] = []
    for name in names.sorted() {
      let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
      for (i, line) in text.components(separatedBy: "\n").enumerated() {
        let code = line.components(separatedBy: "//")[0]
        if pattern.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
          found.append("\(name):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    XCTAssertEqual(found, [], "encode JSON output with JSONEncoder.sortedKeys(prettyPrinted:)")
  }
}
