// One file named twice is refused, not read and counted twice: two paths, a link, a folder and
// a file in it, an app-export folder twice or with one of its sensor files, `-` and
// /dev/stdin, two manifest sources. The loader identifies inputs by device and inode.

import Foundation
@testable import MotusIngest
import MotusTestSupport
import XCTest

@testable import MotusData

final class DistinctInputTests: TemporaryFolderTestCase {
  private var csv: String {
    var text = "timestamp,session,subject,label,acceleration.x\n"
    for t in 0..<40 { text += "\(Double(t) / 10),s1,1,walk,0.5\n" }
    return text
  }

  private func make(_ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try csv.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func testOneFileTwice_IsRefusedNamingBothPathsWhateverTheyLookLike() throws {
    let a = try make("a.csv")
    _ = try make("d/b.csv")
    let d = folder.appendingPathComponent("d").path
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/link.csv", withDestinationPath: a)
    let cases: [([String], String)] = [
      ([a, a], "'\(a)' and '\(a)' are one file"),
      ([a, folder.path + "/link.csv"], "'\(a)' and '\(folder.path)/link.csv' are one file"),
      ([a, folder.path + "/./a.csv"], "and '\(folder.path)/./a.csv' are one file"),
      ([d, d + "/b.csv"], "'\(d)/b.csv' (in '\(d)') and '\(d)/b.csv' are one file"),
      ([d, d], "'\(d)/b.csv' (in '\(d)') and '\(d)/b.csv' (in '\(d)') are one file"),
    ]
    for (paths, message) in cases {
      let error = expectCSVError { _ = try DatasetLoader.load(paths, options: LoadOptions()) }
      XCTAssertTrue("\(error!)".contains(message), "\(paths): \(error!)")
      XCTAssertTrue("\(error!)".contains("HINT: give each file once"), "\(error!)")
      // Every loader goes through the same check.
      XCTAssertThrowsError(try DatasetLoader.read(paths)) { XCTAssertEqual($0 as? CSVError, error) }
      XCTAssertNil(DatasetLoader.loadSessions(paths, options: LoadOptions()) { _ in })
    }
    // Distinct files still load.
    XCTAssertEqual(try DatasetLoader.load([a, d], options: LoadOptions()).report.files.count, 2)
  }

  func testAppExportFolderTwiceOrWithItsSensorFile_IsRefused() throws {
    let app = AppFixtures.path("synthetic-sensor-logger-ios")
    for paths in [[app, app], [app, app + "/Accelerometer.csv"]] {
      XCTAssertThrowsError(try AppFixtures.load(paths)) { error in
        XCTAssertTrue("\(error)".contains("are one file"), "\(paths): \(error)")
      }
    }
  }

  func testStandardInputTwice_UnderTwoNamesIsRefused() throws {
    let error = expectCSVError {
      _ = try DatasetLoader.load(["-", "/dev/stdin"], options: LoadOptions())
    }
    XCTAssertTrue("\(error!)".contains("'<stdin>' and '/dev/stdin' are one file"), "\(error!)")
  }

  func testManifest_OneFileInTwoSourcesOrTwiceInOneIsRefusedNamingBothKeys() throws {
    _ = try make("root/a.csv")
    _ = try make("root/d/b.csv")
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/root/link.csv", withDestinationPath: folder.path + "/root/a.csv")
    let cases: [([String], [String], String)] = [
      (
        ["a.csv"], ["d/b.csv", "link.csv"],
        "key 'sources[1].files[1]': 'link.csv' (sources[1].files[1]) is the file 'a.csv' "
          + "(sources[0].files[0]) names already"
      ),
      (
        ["d", "a.csv"], ["d/b.csv"],
        "key 'sources[1].files[0]': 'd/b.csv' (sources[1].files[0]) is the file 'd/b.csv' "
          + "(sources[0].files[0]) names already"
      ),
      (["a.csv", "./a.csv"], ["d"], "key 'sources[0].files[1]'"),
    ]
    for (first, second, message) in cases {
      func list(_ files: [String]) -> String { files.map { "\"\($0)\"" }.joined(separator: ", ") }
      let json = """
        { "dataRoot": "root", "sampleRateHz": 10, "channels": ["acceleration.x"],
          "labels": ["walking"],
          "sources": [
            { "name": "a", "files": [\(list(first))], "channels": ["acceleration.x"],
              "labels": {"walk": "walking"} },
            { "name": "b", "files": [\(list(second))], "channels": ["acceleration.x"],
              "labels": {"walk": "walking"} } ] }
        """
      let path = try write(json, "m.json")
      XCTAssertThrowsError(try DatasetLoader.load(manifest: path)) { error in
        XCTAssertTrue("\(error)".contains(message), "\(error)")
        XCTAssertTrue("\(error)".contains("HINT: list each file once, in one source"), "\(error)")
        // The line and column of the second key.
        XCTAssertNotNil(
          "\(error)".range(of: #"^[^ ]*m\.json:[0-9]+:[0-9]+: key"#, options: .regularExpression),
          "\(error)")
      }
    }
  }
}
