// One file named twice is refused, not read and counted twice: two paths, a link, a folder and
// a file in it, an app-export folder twice or with one of its sensor files, `-` and
// /dev/stdin, two manifest sources. The loader identifies inputs by device and inode. A CSV
// file beside its gzip copy (`x.csv` and `x.csv.gz`, what `gzip -k` leaves) is one recording
// twice and is refused by the same rule: in a folder, on the command line, in a manifest and in
// an app-export folder.

import Foundation
import MotusGzip
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
  /// `name` and its gzip copy beside it, as `gzip -k name` leaves them.
  private func makeWithGzipCopy(_ name: String) throws -> String {
    let path = try make(name)
    try Data(Gzip.compress(Array(csv.utf8))).write(to: URL(fileURLWithPath: path + ".gz"))
    return path
  }

  func testCSVBesideItsGzipCopy_IsRefusedNamingBothInAFolderAndOnTheCommandLine() throws {
    let a = try makeWithGzipCopy("d/a.csv")
    let d = folder.appendingPathComponent("d").path
    let cases: [([String], String)] = [
      ([d], "'\(d)/a.csv' (in '\(d)') and '\(d)/a.csv.gz' (in '\(d)') are one CSV file and its "
        + "gzip copy"),
      ([a, a + ".gz"], "'\(a)' and '\(a).gz' are one CSV file and its gzip copy"),
      ([a + ".gz", d], "'\(a).gz' and '\(a)' (in '\(d)') are one CSV file and its gzip copy"),
    ]
    for (paths, message) in cases {
      let error = expectCSVError { _ = try DatasetLoader.load(paths, options: LoadOptions()) }
      XCTAssertTrue("\(error!)".contains(message), "\(paths): \(error!)")
      XCTAssertTrue("\(error!)".contains("HINT: remove one of the two"), "\(error!)")
      XCTAssertThrowsError(try DatasetLoader.read(paths)) { XCTAssertEqual($0 as? CSVError, error) }
      XCTAssertNil(DatasetLoader.loadSessions(paths, options: LoadOptions()) { _ in })
    }
    // Either one alone loads.
    XCTAssertEqual(try DatasetLoader.load([a], options: LoadOptions()).report.files.count, 1)
    XCTAssertEqual(try DatasetLoader.load([a + ".gz"], options: LoadOptions()).report.files.count, 1)
  }

  func testCSVBesideItsGzipCopy_InAManifestIsRefusedNamingBothKeys() throws {
    _ = try makeWithGzipCopy("root/a.csv")
    for (first, second) in [("a.csv", "a.csv.gz"), (".", "a.csv")] {
      let json = """
        { "dataRoot": "root", "sampleRateHz": 10, "channels": ["acceleration.x"],
          "labels": ["walking"],
          "sources": [
            { "name": "a", "files": ["\(first)"], "channels": ["acceleration.x"],
              "labels": {"walk": "walking"} },
            { "name": "b", "files": ["\(second)"], "channels": ["acceleration.x"],
              "labels": {"walk": "walking"} } ] }
        """
      let path = try write(json, "m.json")
      XCTAssertThrowsError(try DatasetLoader.load(manifest: path)) { error in
        XCTAssertTrue("\(error)".contains("are one CSV file and its gzip copy"), "\(error)")
        XCTAssertTrue("\(error)".contains("HINT: remove one of the two"), "\(error)")
      }
    }
  }

  func testSensorLoggerFolderWithASensorFileAndItsGzipCopy_IsRefused() throws {
    let app = folder.appendingPathComponent("app").path
    try FileManager.default.copyItem(
      atPath: AppFixtures.path("synthetic-sensor-logger-ios"), toPath: app)
    let sensor = app + "/Accelerometer.csv"
    let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: sensor)))
    try Data(Gzip.compress(text)).write(to: URL(fileURLWithPath: sensor + ".gz"))
    XCTAssertThrowsError(try AppFixtures.load([app])) { error in
      XCTAssertTrue(
        "\(error)".contains("'\(sensor)' (in '\(app)') and '\(sensor).gz' (in '\(app)') are one "
          + "CSV file and its gzip copy"), "\(error)")
    }
    // Read as one recording (as `motus stream` reads a folder), the same refusal.
    XCTAssertThrowsError(try AppExport.read(path: app, label: "walking")) { error in
      XCTAssertEqual(error as? CSVError, .compressedTwin(first: "'\(sensor)'", again: "'\(sensor).gz'"))
    }
    try FileManager.default.removeItem(atPath: sensor)
    XCTAssertNoThrow(try AppFixtures.load([app]))
  }
}
