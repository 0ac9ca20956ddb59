// Every committed fuzz input (seed corpora and the inputs that once crashed) through its
// target: none may trap. Findings also get a test of their own that pins the error.

import Foundation
import MotusFuzzTargets
import XCTest

final class FuzzCorpusTests: XCTestCase {
  static var fuzzFolder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Fuzz")
  }

  private func replay(_ kind: String) throws -> Int {
    var count = 0
    for (name, target) in FuzzTargets.all.sorted(by: { $0.key < $1.key }) {
      let folder = Self.fuzzFolder.appendingPathComponent(kind).appendingPathComponent(name)
      let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for file in files.sorted() {
        target([UInt8](try Data(contentsOf: folder.appendingPathComponent(file))))
        count += 1
      }
    }
    return count
  }

  func testSeedCorpora_ReplayWithoutTrapping() throws {
    XCTAssertGreaterThanOrEqual(try replay("Corpus"), FuzzTargets.all.count * 2)
    for name in FuzzTargets.all.keys {
      let folder = Self.fuzzFolder.appendingPathComponent("Corpus").appendingPathComponent(name)
      let seeds = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      XCTAssertGreaterThanOrEqual(seeds.count, 2, "\(name) has seeds")
    }
  }

  func testRegressionInputs_ReplayWithoutTrapping() throws {
    _ = try replay("Regressions")
  }
}
