// `--feature-channels`, `--decompose`, `--augment`/`--perturbation` and `--perturb` end to end
// on SYNTHETIC recordings (MotusSimulation): they change what is computed, and bad values get
// an error naming the flag.

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class TransferFlagsTests: TemporaryFolderTestCase {
  private var data: String!

  override func setUpWithError() throws {
    try super.setUpWithError()
    var simulator = ActivitySimulator(seed: 8, sampleRateHz: 25)
    var text = ""
    for subject in 1...3 {
      for activity in [SimulatedActivity.stationary, .walking] {
        text += simulator.recording(activity, subject: subject, seconds: 20).csv(
          includeHeader: text.isEmpty)
      }
    }
    let url = folder.appendingPathComponent("synthetic.csv")
    try text.write(to: url, atomically: true, encoding: .utf8)
    data = url.path
  }

  private func header(_ flags: [String]) throws -> [String] {
    let output = folder.appendingPathComponent("features-\(UUID().uuidString).csv").path
    let run = try MotusRunner.run(["features", data, "-o", output] + flags)
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let text = try String(contentsOfFile: output, encoding: .utf8)
    return text.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
  }

  func testFeatures_FeatureChannelsAndDecompose() throws {
    let names = try header([
      "--channels", "acceleration.*,|acceleration|", "--feature-channels", "|acceleration|",
      "--decompose", "acceleration",
    ])
    XCTAssertTrue(names.contains("|acceleration|:std"))
    XCTAssertTrue(names.contains("acceleration.vertical:std"))
    XCTAssertTrue(names.contains("acceleration.horizontal:band_1-2Hz"))
    XCTAssertFalse(names.contains { $0.hasPrefix("acceleration.x:") })
  }

  func testTrainAndEvaluate_WithAugmentationAndPerturbation() throws {
    let model = folder.appendingPathComponent("m.motus").path
    let train = try MotusRunner.run([
      "train", data, "-o", model, "--channels", "acceleration.*,|acceleration|",
      "--augment", "1", "--perturbation", "rotation=90,gain=0.05,noise=0.002", "--seed", "2",
    ])
    XCTAssertEqual(train.exitCode, 0, train.standardError)
    let plain = try MotusRunner.run(["evaluate", model, data, "--format", "json"])
    let perturbed = try MotusRunner.run([
      "evaluate", model, data, "--format", "json", "--perturb", "rotation=180", "--perturb-seed",
      "4",
    ])
    XCTAssertEqual(plain.exitCode, 0, plain.standardError)
    XCTAssertEqual(perturbed.exitCode, 0, perturbed.standardError)
    XCTAssertTrue(perturbed.standardError.contains("simulated device change"))
    XCTAssertFalse(plain.standardError.contains("simulated device change"))
    let unsure = try MotusRunner.run([
      "evaluate", model, data, "--format", "json", "--unknown-below", "0.999999",
    ])
    XCTAssertEqual(unsure.exitCode, 0, unsure.standardError)
    let coverage = try XCTUnwrap(
      (try JSONSerialization.jsonObject(with: Data(unsure.standardOutput.utf8)) as? [String: Any])?[
        "coverage"] as? Double)
    XCTAssertLessThan(coverage, 1)
    // The model file is a short binary header, then JSON.
    let file = try Data(contentsOf: URL(fileURLWithPath: model))
    XCTAssertNotNil(file.range(of: Data("copies=1,rotation=90,gain=0.05,noise=0.002".utf8)))
  }

  func testBadValues_NameTheFlag() throws {
    let model = folder.appendingPathComponent("never.motus").path
    let cases: [([String], String)] = [
      (["features", data, "-o", model, "--decompose", "rotationRate.q"], "--decompose"),
      (["features", data, "-o", model, "--feature-channels", "nothing*"], "--feature-channels"),
      (["train", data, "-o", model, "--augment", "-1"], "--augment"),
      (
        ["train", data, "-o", model, "--augment", "1", "--perturbation", "spin=3"], "--perturbation"
      ),
      (["evaluate", model, data, "--perturb", "gain=2"], "--perturb"),
      (["evaluate", model, data, "--unknown-below", "1.5"], "--unknown-below"),
      // One declaration each, so every command that takes a flag checks it alike.
      (["train", data, "-o", model, "--unknown-below", "1"], "--unknown-below"),
      (["stream", model, data, "--unknown-below", "-0.5"], "--unknown-below"),
      (["stream", model, data, "--time-column", ""], "--time-column"),
      (["train", data, "-o", model, "--time-column", ""], "--time-column"),
    ]
    for (arguments, flag) in cases {
      let run = try MotusRunner.run(arguments)
      XCTAssertNotEqual(run.exitCode, 0, arguments.joined(separator: " "))
      XCTAssertTrue(run.standardError.contains(flag), run.standardError)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: model))
  }

  /// `train` spells the unknown cut-off as `stream` and `evaluate` do; the older spelling
  /// still gives the same model bytes, and a bad value names the flag.
  func testTrain_UnknownBelowAndItsOlderSpellingGiveTheSameModel() throws {
    var bytes: [Data] = []
    for flag in ["--unknown-below", "--unknown-threshold"] {
      let model = folder.appendingPathComponent("u\(bytes.count).motus").path
      let run = try MotusRunner.run([
        "train", data, "-o", model, "--channels", "acceleration.*", "--seed", "3", flag, "0.6",
      ])
      XCTAssertEqual(run.exitCode, 0, run.standardError)
      bytes.append(try Data(contentsOf: URL(fileURLWithPath: model)))
      let info = try MotusRunner.run(["model-info", model])
      XCTAssertTrue(info.standardOutput.contains("unknown threshold: 0.6"), info.standardOutput)
    }
    XCTAssertEqual(bytes[0], bytes[1])
    let bad = try MotusRunner.run(["train", data, "-o", "x.motus", "--unknown-below", "1.5"])
    XCTAssertNotEqual(bad.exitCode, 0)
    XCTAssertTrue(
      bad.standardError.contains("'--unknown-below' must be in [0, 1)"), bad.standardError)
  }
}
