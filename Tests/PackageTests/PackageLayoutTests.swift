// The package's layout stays readable as it grows: no module folder has more than 40 files at
// its top (a module that needs more has rooms, folders by role), and every module of 500
// lines or more has a test target of its own named after it, so its tests are found where a
// reader looks for them; and every random test draws from a seeded generator, so a failure
// replays.

import Foundation
import XCTest

final class PackageLayoutTests: XCTestCase {
  static let topFileLimit = 40
  static let linesNeedingTests = 500

  private var sources: URL {
    DependencyDirectionTests.repositoryRoot.appendingPathComponent("Sources")
  }
  private var tests: URL { DependencyDirectionTests.repositoryRoot.appendingPathComponent("Tests") }

  private func folders(in url: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
      .filter { $0.hasDirectoryPath }.sorted { $0.path < $1.path }
  }

  func testNoModuleHasMoreThanFortyFilesAtItsTop() throws {
    for module in try folders(in: sources) {
      let top = try FileManager.default.contentsOfDirectory(
        at: module, includingPropertiesForKeys: nil
      ).filter { $0.pathExtension == "swift" }
      XCTAssertLessThanOrEqual(
        top.count, Self.topFileLimit,
        "Sources/\(module.lastPathComponent) has \(top.count) Swift files at its top: put them in folders by role")
    }
  }

  func testEveryModuleOfFiveHundredLinesHasItsTestTarget() throws {
    let testTargets = Set(try folders(in: tests).map(\.lastPathComponent))
    var checked = 0
    for module in try folders(in: sources) {
      let lines = try DependencyDirectionTests.swiftFiles(under: module).reduce(0) {
        $0 + (try String(contentsOf: $1, encoding: .utf8)).split(
          separator: "\n", omittingEmptySubsequences: false
        ).count - 1
      }
      guard lines >= Self.linesNeedingTests else { continue }
      checked += 1
      XCTAssertTrue(
        testTargets.contains(module.lastPathComponent + "Tests"),
        "Sources/\(module.lastPathComponent) has \(lines) lines and no Tests/\(module.lastPathComponent)Tests")
    }
    // The rule is not vacuous: the package has modules that size.
    XCTAssertGreaterThan(checked, 5)
  }

  func testRandomTestsDrawFromASeededGenerator() throws {
    // Spelt in pieces so that this file does not match itself.
    let unseeded = ["System" + "RandomNumberGenerator", "random" + "Element()", "shuffled" + "()"]
    let drawWithoutGenerator = try NSRegularExpression(
      pattern: #"\.random\(in:[^)]*\)"#)
    var found: [String] = []
    for file in try DependencyDirectionTests.swiftFiles(under: tests) {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let line = String(line)
        let range = NSRange(line.startIndex..., in: line)
        let draws = drawWithoutGenerator.matches(in: line, range: range).filter {
          !(line[Range($0.range, in: line)!]).contains("using:")
        }
        if unseeded.contains(where: line.contains) || !draws.isEmpty {
          found.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    XCTAssertEqual(found, [], "draw from SplitMix64(seed:) so that a failure replays")
  }
}
