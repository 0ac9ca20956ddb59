// `motus bench transfer` flags (and the window and feature flags `bench adapt` shares): the
// help lists them, and bad values fail before any data is read, with an error naming the flag.
// Also the training flags it shares with `motus train`, and its `--output`, which follows the
// output rule before any work.

import Foundation
import MotusTestSupport
import XCTest

final class BenchTransferFlagsTests: TemporaryFolderTestCase {
  func testHelp_ListsTheTransferAndTrainingFlags() throws {
    let run = try MotusRunner.run(["bench", "transfer", "--help"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    for flag in [
      "--manifest", "--seeds", "--sources", "--no-placements", "--placement-folds",
      "--push-up-folds", "--switch-probability", "--parallelism", "--format", "--output",
      "--negatives", "--novelty-components", "--novelty-rate", "--augment", "--perturbation",
      "--window", "--feature-channels",
    ] {
      XCTAssertTrue(
        run.standardOutput.contains(flag), "\(flag) missing from:\n\(run.standardOutput)")
    }
    // The negatives choices are listed.
    XCTAssertTrue(run.standardOutput.contains("ignore"), run.standardOutput)
    XCTAssertTrue(run.standardOutput.contains("class"), run.standardOutput)
  }

  func testBadValues_FailNamingTheFlag() throws {
    // The manifest does not exist: each run must stop at its flag, before reading it.
    let manifest = ["--manifest", "/nonexistent/manifest.json"]
    let cases: [([String], String)] = [
      (["--seeds", "x"], "--seeds"),
      (["--seeds", "1,two"], "--seeds"),
      (["--seeds", ","], "--seeds"),
      (["--placement-folds", "1"], "--placement-folds"),
      (["--placement-folds", "65"], "--placement-folds"),
      (["--push-up-folds", "1"], "--push-up-folds"),
      (["--push-up-folds", "257"], "--push-up-folds"),
      (["--switch-probability", "1"], "--switch-probability"),
      (["--parallelism", "0"], "--parallelism"),
      (["--novelty-rate", "2"], "--novelty-rate"),
      (["--novelty-rate", "0"], "--novelty-rate"),
      (["--novelty-components", "300"], "--novelty-components"),
      (["--negatives", "maybe"], "--negatives"),
      (["--augment", "100"], "--augment"),
      (["--perturbation", "tempo=0.9"], "--perturbation"),
      (["--perturbation", "intensity=1"], "--perturbation"),
      (["--class-weights", "balanced^0"], "--class-weights"),
      (["--class-weights", "balanced^1.5"], "--class-weights"),
      (["--class-weights", "balanced^x"], "--class-weights"),
      (["--class-weights", "1,2"], "--class-weights"),
    ]
    for (flags, flag) in cases {
      let run = try MotusRunner.run(["bench", "transfer"] + manifest + flags)
      let arguments = flags.joined(separator: " ")
      XCTAssertNotEqual(run.exitCode, 0, arguments)
      XCTAssertTrue(run.standardError.contains(flag), "\(arguments): \(run.standardError)")
      XCTAssertFalse(run.standardError.contains("/nonexistent"), "\(arguments) read the manifest")
    }
  }

  func testBenchAdapt_TakesTheWindowAndFeatureFlagsOfTransfer() throws {
    let help = try MotusRunner.run(["bench", "adapt", "--help"])
    XCTAssertEqual(help.exitCode, 0, help.standardError)
    for flag in ["--window", "--hop", "--feature-channels", "--decompose"] {
      XCTAssertTrue(help.standardOutput.contains(flag), "\(flag) missing from bench adapt")
    }
    for (flags, flag) in [(["--window", "0s"], "--window"), (["--hop", "0s"], "--hop")] {
      let run = try MotusRunner.run(
        ["bench", "adapt", "--manifest", "/nonexistent/manifest.json"] + flags)
      XCTAssertEqual(run.exitCode, 64, run.standardError)
      XCTAssertTrue(run.standardError.contains(flag), run.standardError)
      XCTAssertFalse(run.standardError.contains("/nonexistent"), "read the manifest")
    }
  }

  func testTrain_SharesTheNewFlagsAndTheirChecks() throws {
    let help = try MotusRunner.run(["train", "--help"])
    XCTAssertEqual(help.exitCode, 0, help.standardError)
    for flag in ["--negatives", "--novelty-components", "--novelty-rate"] {
      XCTAssertTrue(help.standardOutput.contains(flag), flag)
    }
    for (flags, flag) in [
      (["--novelty-rate", "1"], "--novelty-rate"),
      (["--augment", "17"], "--augment"),
      (["--augment", "1", "--perturbation", "tempo=0.6"], "--perturbation"),
    ] {
      let run = try MotusRunner.run(
        ["train", "/nonexistent.csv", "-o", "/nonexistent.motus"] + flags)
      XCTAssertNotEqual(run.exitCode, 0, flags.joined(separator: " "))
      XCTAssertTrue(run.standardError.contains(flag), run.standardError)
    }
  }

  func testOutput_FollowsTheOutputRuleBeforeAnyWork() throws {
    let data = try write(
      "timestamp,session,subject,label,acceleration.x,acceleration.y,"
        + "acceleration.z\n0,s1,1,still,0,0,1\n", "a.csv")
    let manifest = try write(
      """
      { "sampleRateHz": 10, "dataRoot": ".", "channels": ["acceleration.*"],
        "labels": ["stationary"],
        "sources": [ { "name": "phone", "files": ["a.csv"], "channels": ["acceleration.*"],
          "labels": {"still": "stationary"} } ] }
      """, "m.json")
    let before = try [manifest, data].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    let missing = folder.appendingPathComponent("no/such/t.json").path
    for (output, message) in [
      (manifest, "it is the input"), (data, "it is the input"),
      (missing, "the folder \(folder.appendingPathComponent("no/such").path) does not exist"),
    ] {
      let run = try MotusRunner.run(["bench", "transfer", "--manifest", manifest, "-o", output])
      XCTAssertEqual(run.exitCode, 1, output)
      XCTAssertTrue(
        run.standardError.contains("--output \(output): cannot write (\(message)"),
        run.standardError)
      // Refused before the manifest is loaded (its one-row source fails there).
      XCTAssertFalse(run.standardError.contains("no recordings are left"), run.standardError)
    }
    XCTAssertEqual(
      try [manifest, data].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, before)
  }
}
