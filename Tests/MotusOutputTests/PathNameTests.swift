// Paths split by hand give NSString's answers, and one-character paths (where Foundation's
// NSString path methods trap on Linux) split too; no source calls those methods.

import Foundation
import MotusData
import MotusOutput
import XCTest

final class PathNameTests: XCTestCase {
  func testPathName_SplitsAsNSStringDoesForOrdinaryPaths() {
    let cases: [(path: String, last: String, folder: String)] = [
      ("data/walk.csv", "walk.csv", "data"), ("/abs/data/walk.csv", "walk.csv", "/abs/data"),
      ("/walk.csv", "walk.csv", "/"), ("walk.csv", "walk.csv", ""), ("a//b", "b", "a"),
      ("folder/", "folder", ""), ("./out/x.npy", "x.npy", "./out"), ("/", "/", "/"), ("", "", ""),
    ]
    for c in cases {
      XCTAssertEqual(PathName.last(c.path), c.last, c.path)
      XCTAssertEqual(PathName.folder(c.path), c.folder, c.path)
      // NSString agrees wherever it does not trap (more than one character).
      XCTAssertEqual((c.path as NSString).lastPathComponent, c.last, c.path)
      XCTAssertEqual((c.path as NSString).deletingLastPathComponent, c.folder, c.path)
    }
  }

  func testPathName_OneCharacterPathsSplit() {
    for (path, last, folder) in [
      ("m", "m", ""), ("m/", "m", ""), ("d/m", "m", "d"), (".", ".", ""),
    ] {
      XCTAssertEqual(PathName.last(path), last, path)
      XCTAssertEqual(PathName.folder(path), folder, path)
    }
  }

  func testSources_NeverCallNSStringsTrappingPathMethods() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    let names = try XCTUnwrap(FileManager.default.subpaths(atPath: sources.path))
      .filter { $0.hasSuffix(".swift") }
    var found: [String] = []
    for name in names {
      let text = try String(
        contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
      for (i, line) in text.components(separatedBy: "\n").enumerated()
      where line.range(
        of: #"as NSString\)\.(lastPathComponent|deletingLastPathComponent)"#,
        options: .regularExpression) != nil
      {
        found.append("\(name):\(i + 1)")
      }
    }
    XCTAssertEqual(found, [], "use PathName.last and PathName.folder")
  }
}
