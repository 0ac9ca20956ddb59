// `--manifest` through the built binary: a labelled synthetic manifest loads, a bad one is
// reported with its file, key and hint, and `bench accuracy` rejects data without axes.

import Foundation
import MotusTestSupport
import XCTest

final class ManifestCommandTests: XCTestCase {
  private func writeManifest(in folder: URL, rate: String = "10") throws -> String {
    var csv = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    for t in 0..<200 {
      let label = t < 100 ? "still" : "walk"
      csv += "\(Double(t) / 10),s1,1,\(label),0,0,\(t < 100 ? 1 : 1 + 0.3 * sin(Double(t)))\n"
    }
    try csv.write(to: folder.appendingPathComponent("a.csv"), atomically: true, encoding: .utf8)
    let json = """
      { "sampleRateHz": \(rate), "dataRoot": ".",
        "channels": ["acceleration.x", "acceleration.y", "acceleration.z"],
        "labels": ["stationary", "walking"],
        "sources": [ { "name": "phone", "files": ["a.csv"], "negateAcceleration": true,
          "channels": ["acceleration.*"], "labels": {"still": "stationary", "walk": "walking"} } ]
      }
      """
    let path = folder.appendingPathComponent("m.json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func testInspect_ReadsManifest() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try MotusRunner.run(["inspect", "--manifest", writeManifest(in: folder)])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(run.standardOutput.contains("phone:1"), run.standardOutput)
  }

  func testInspect_BadManifestNamesKey() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try writeManifest(in: folder, rate: "\"fast\"")
    let run = try MotusRunner.run(["inspect", "--manifest", path])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains(path), run.standardError)
    XCTAssertTrue(run.standardError.contains("'sampleRateHz'"), run.standardError)
    XCTAssertTrue(run.standardError.contains("HINT"), run.standardError)
  }

  func testManifestAndPaths_AreExclusive() throws {
    let run = try MotusRunner.run(["inspect", "--manifest", "m.json", "a.csv"])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("not both"), run.standardError)
  }

  func testBenchAccuracy_UnknownTestSubject() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try MotusRunner.run([
      "bench", "accuracy", "--manifest", writeManifest(in: folder), "--test-subjects", "phone:9",
    ])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("phone:9"), run.standardError)
    XCTAssertTrue(run.standardError.contains("HINT"), run.standardError)
  }
}
