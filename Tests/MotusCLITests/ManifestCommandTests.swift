// `--manifest` through the built binary: a labelled synthetic manifest loads, a bad one is
// reported with its file, key and hint, `bench accuracy` rejects data without axes, and the
// benchmarks refuse class evidence for a class the manifest does not have.

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

  /// Labelled synthetic data of two sources that record walking differently (a phone swinging
  /// at 2 Hz, a watch at 1 Hz), two subjects each; `watchWeight` nil leaves `weight` out.
  private func writeWeightedManifest(in folder: URL, watchWeight: String?) throws -> String {
    for (source, hz, amplitude) in [("phone", 2.0, 0.5), ("watch", 1.0, 0.3)] {
      var csv = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
      for subject in 1...2 {
        for t in 0..<600 {
          let time = Double(t) / 15
          let walking = t >= 300
          let wave = walking ? amplitude * sin(2 * Double.pi * hz * time) : 0
          let noise = 0.02 * sin(Double(t * t + 7 * subject))
          csv += "\(time),s\(subject),\(subject),\(walking ? "walk" : "still"),"
          csv += "\(noise),\(0.1 * wave),\(1 + wave + noise)\n"
        }
      }
      try csv.write(
        to: folder.appendingPathComponent("\(source).csv"), atomically: true, encoding: .utf8)
    }
    let weight = watchWeight.map { ", \"weight\": \($0)" } ?? ""
    let json = """
      { "sampleRateHz": 15, "dataRoot": ".",
        "channels": ["acceleration.x", "acceleration.y", "acceleration.z", "|acceleration|"],
        "labels": ["stationary", "walking"],
        "sources": [
          { "name": "phone", "files": ["phone.csv"],
            "channels": ["acceleration.*", "|acceleration|"],
            "labels": {"still": "stationary", "walk": "walking"} },
          { "name": "watch", "files": ["watch.csv"],
            "channels": ["acceleration.*", "|acceleration|"],
            "labels": {"still": "stationary", "walk": "walking"}\(weight) } ]
      }
      """
    let path = folder.appendingPathComponent("m-\(watchWeight ?? "none").json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func testTrain_SyntheticSourceWeightChangesTheModelAndWeightOneIsTheDefault() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    func train(_ watchWeight: String?) throws -> Data {
      let manifest = try writeWeightedManifest(in: folder, watchWeight: watchWeight)
      let model = folder.appendingPathComponent("\(watchWeight ?? "none").motus")
      let run = try MotusRunner.run(
        ["train", "--manifest", manifest, "--seed", "1", "-o", model.path])
      XCTAssertEqual(run.exitCode, 0, run.standardError)
      return try Data(contentsOf: model)
    }
    let omitted = try train(nil)
    XCTAssertEqual(try train("1"), omitted, "weight 1 must train exactly as no weight")
    let weighted = try train("4")
    XCTAssertNotEqual(weighted, omitted, "weight 4 on one source must change the model")
    XCTAssertTrue(String(decoding: weighted, as: UTF8.self).contains("watch=4.0"))
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

  /// A misspelt class in an evidence flag would change nothing in the benchmarks' streams:
  /// refused once the manifest's labels are known, naming the flag, before any training.
  func testBenchmarks_RefuseEvidenceForAClassTheManifestLacks() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let manifest = try writeManifest(in: folder)
    let cases: [([String], String)] = [
      (["bench", "transfer", "--entry-factors", "walkng=0.5"],
       "--entry-factors names 'walkng', which the manifest does not have"),
      (["bench", "transfer", "--compare-evidence", "none;statonary=0.5"],
       "--compare-evidence names 'statonary', which the manifest does not have"),
      (["bench", "transfer", "--compare-evidence", "none/walkng=0.2"],
       "--compare-evidence names 'walkng', which the manifest does not have"),
      (["bench", "accuracy", "--evidence-factors", "walkng=0.5"],
       "--evidence-factors names 'walkng', which the manifest does not have"),
    ]
    for (arguments, message) in cases {
      let run = try MotusRunner.run(arguments + ["--manifest", manifest])
      XCTAssertEqual(run.exitCode, 1, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
      XCTAssertTrue(
        run.standardError.contains("stationary, walking"), "\(arguments): \(run.standardError)")
    }
    // The stream's default (push-up sets) names a class this manifest lacks, and is no error:
    // the run gets past the check to training, which its one short recording cannot feed.
    let run = try MotusRunner.run([
      "bench", "transfer", "--manifest", manifest, "--compare-evidence", "walking=0.5",
      "-o", folder.appendingPathComponent("t.json").path,
    ])
    XCTAssertFalse(run.standardError.contains("names 'push-up'"), run.standardError)
    XCTAssertTrue(run.standardError.contains("no windows to train on"), run.standardError)
  }

  /// The model family (training's `--model`) and a trained model file are two flags: with one
  /// name for both, the family could not be chosen and debug builds refused the command.
  func testBenchAccuracy_ModelFamilyAndModelFileAreDistinctFlags() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try MotusRunner.run([
      "bench", "accuracy", "--manifest", writeManifest(in: folder), "--model", "mlp",
      "--model-file", folder.appendingPathComponent("absent.motus").path,
    ])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("absent.motus"), run.standardError)
    XCTAssertFalse(run.standardError.contains("'mlp'"), run.standardError)
  }
}
