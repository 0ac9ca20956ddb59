// `motus evaluate` and `motus cross-validate` end to end on SYNTHETIC recordings
// (MotusSimulation), trained with `motus train` in a temporary folder.

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class EvaluateCommandTests: TemporaryFolderTestCase {

  override func setUpWithError() throws {
    try super.setUpWithError()
  }

  /// Synthetic CSV: each subject does each activity for `seconds` in its own session.
  private func writeSynthetic(
    _ name: String, subjects: [Int], activities: [SimulatedActivity], seconds: Double = 20,
    seed: UInt64, rateHz: Double = 50
  ) throws -> String {
    var simulator = ActivitySimulator(seed: seed, sampleRateHz: rateHz)
    var text = ""
    for subject in subjects {
      for activity in activities {
        let recording = simulator.recording(activity, subject: subject, seconds: seconds)
        text += recording.csv(includeHeader: text.isEmpty)
      }
    }
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  private func trainModel() throws -> (model: String, data: String) {
    let activities: [SimulatedActivity] = [.stationary, .walking, .running]
    let data = try writeSynthetic(
      "synthetic.csv", subjects: [1, 2, 3, 4], activities: activities, seed: 11)
    let model = folder.appendingPathComponent("synthetic.motus").path
    // Windows pinned (not the defaults) so the window counts below follow from them.
    let run = try MotusRunner.run([
      "train", data, "--subjects", "1-3", "--seed", "1", "--window", "128", "--hop", "64", "-o",
      model,
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    return (model, data)
  }

  func testEvaluate_JSONReportIsConsistent() throws {
    let (model, data) = try trainModel()
    let output = folder.appendingPathComponent("eval.json").path
    let report = folder.appendingPathComponent("report.html").path
    let run = try MotusRunner.run([
      "evaluate", model, data, "--subjects", "4", "--format", "json", "--output", output,
      "--report", report,
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertEqual(run.standardOutput, "", "--output must replace stdout")
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output)))
        as? [String: Any])
    let windows = try XCTUnwrap(object["windows"] as? Int)
    // 3 sessions of 20 s, windows of 128 samples at 50 Hz with hop 64: 14 each.
    XCTAssertEqual(windows, 3 * 14)
    for key in ["accuracy", "macro_f1", "balanced_accuracy", "log_loss", "ece"] {
      let value = try XCTUnwrap(object[key] as? Double, key)
      XCTAssertTrue(value.isFinite && value >= 0, "\(key) = \(value)")
    }
    let matrix = try XCTUnwrap(object["confusion_matrix"] as? [String: Any])
    let counts = try XCTUnwrap(matrix["counts"] as? [[Int]])
    XCTAssertEqual(counts.flatMap { $0 }.reduce(0, +), windows)
    let labels = try XCTUnwrap(matrix["labels"] as? [String])
    XCTAssertEqual(Set(labels), ["stationary", "walking", "running"])
    let correct = labels.indices.map { counts[$0][$0] }.reduce(0, +)
    XCTAssertEqual(
      try XCTUnwrap(object["accuracy"] as? Double), Double(correct) / Double(windows),
      accuracy: 1e-12)
    let perSubject = try XCTUnwrap(object["per_subject"] as? [String: [String: Any]])
    XCTAssertEqual(Array(perSubject.keys), ["4"])
    XCTAssertEqual(perSubject["4"]?["windows"] as? Int, windows)
    let perSession = try XCTUnwrap(object["per_session"] as? [String: [String: Any]])
    XCTAssertEqual(perSession.count, 3)
    let html = try String(contentsOfFile: report, encoding: .utf8)
    XCTAssertEqual(html.components(separatedBy: "<svg").count - 1, 4)

    // The text format carries the same accuracy.
    let text = try MotusRunner.run(["evaluate", model, data, "--subjects", "4", "--normalize"])
    XCTAssertEqual(text.exitCode, 0, text.standardError)
    let accuracy = try XCTUnwrap(object["accuracy"] as? Double)
    XCTAssertTrue(
      text.standardOutput.contains(String(format: "accuracy           %.4f", accuracy)),
      text.standardOutput)
    XCTAssertTrue(text.standardOutput.contains("Per subject (worst first):"))
  }

  func testEvaluate_ResamplesDataAtAnotherRateToTheModels() throws {
    let (model, _) = try trainModel()
    let fast = try writeSynthetic(
      "fast.csv", subjects: [4], activities: [.walking, .running], seed: 13, rateHz: 100)
    let run = try MotusRunner.run(["evaluate", model, fast, "--format", "json"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(run.standardError.contains("resampled"), run.standardError)
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    // 20 s at the model's 50 Hz: 14 windows of 128 samples per session.
    XCTAssertEqual(object["windows"] as? Int, 2 * 14)
    XCTAssertEqual(object["sample_rate_hz"] as? Double, 50)

    let forced = try MotusRunner.run(["evaluate", model, fast, "--sample-rate", "100"])
    XCTAssertNotEqual(forced.exitCode, 0)
    XCTAssertTrue(forced.standardError.contains("model's rate 50"), forced.standardError)
  }

  func testEvaluate_UnknownLabelIsAnErrorWithHint() throws {
    let (model, _) = try trainModel()
    let other = try writeSynthetic(
      "cycling.csv", subjects: [5], activities: [.walking, .cycling], seed: 12)
    let run = try MotusRunner.run(["evaluate", model, other])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(
      run.standardError.contains("cycling") && run.standardError.contains("--map"),
      run.standardError)
  }

  func testEvaluate_BadModelPathFailsClearly() throws {
    let data = try writeSynthetic("d.csv", subjects: [1], activities: [.walking], seed: 3)
    let missing = folder.appendingPathComponent("missing.motus").path
    let run = try MotusRunner.run(["evaluate", missing, data])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(
      run.standardError.contains(missing) && run.standardError.contains("HINT"),
      run.standardError)
    // Not a model file at all.
    let notModel = try MotusRunner.run(["evaluate", data, data])
    XCTAssertNotEqual(notModel.exitCode, 0)
    XCTAssertTrue(notModel.standardError.contains("MOTUSMDL"), notModel.standardError)
  }

  func testEvaluate_SmoothingIsReportedAndValidated() throws {
    let (model, data) = try trainModel()
    var reports: [String: [String: Any]] = [:]
    for flags in [[], ["--smoothing", "hmm", "--switch-probability", "0.02"]] {
      let run = try MotusRunner.run(
        ["evaluate", model, data, "--subjects", "4", "--format", "json"] + flags)
      XCTAssertEqual(run.exitCode, 0, run.standardError)
      reports[flags.isEmpty ? "none" : "hmm"] = try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    }
    XCTAssertEqual(reports["none"]?["smoothing"] as? String, "none")
    XCTAssertEqual(reports["hmm"]?["smoothing"] as? String, "hmm switch-probability=0.02")
    XCTAssertEqual(reports["hmm"]?["windows"] as? Int, reports["none"]?["windows"] as? Int)
    XCTAssertNotEqual(
      reports["hmm"]?["log_loss"] as? Double, reports["none"]?["log_loss"] as? Double)

    let bad = try MotusRunner.run(
      ["evaluate", model, data, "--smoothing", "hmm", "--switch-probability", "1.5"])
    XCTAssertEqual(bad.exitCode, 64, bad.standardError)
    XCTAssertTrue(bad.standardError.contains("--switch-probability"), bad.standardError)
  }

  func testEvaluate_RejectsChannelsFlag() throws {
    let run = try MotusRunner.run(["evaluate", "m.motus", "d.csv", "--channels", "acc*"])
    XCTAssertEqual(run.exitCode, 64, run.standardError)
    XCTAssertTrue(run.standardError.contains("--channels"), run.standardError)
  }

  func testCrossValidate_JSONHasOneRowPerFold() throws {
    let data = try writeSynthetic(
      "cv.csv", subjects: [1, 2, 3, 4], activities: [.stationary, .walking], seconds: 15,
      seed: 21)
    let run = try MotusRunner.run([
      "cross-validate", data, "--group", "subject", "--folds", "2", "--seed", "3", "--format",
      "json",
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let folds = try XCTUnwrap(object["folds"] as? [[String: Any]])
    XCTAssertEqual(folds.count, 2)
    let tested = folds.flatMap { ($0["groups"] as? [String]) ?? [] }
    XCTAssertEqual(Set(tested), ["1", "2", "3", "4"])
    XCTAssertEqual(tested.count, 4, "a subject was tested twice")
    let summary = try XCTUnwrap(object["summary"] as? [String: [String: Double]])
    let accuracies = folds.compactMap { $0["accuracy"] as? Double }
    XCTAssertEqual(
      try XCTUnwrap(summary["accuracy"]?["mean"]), accuracies.reduce(0, +) / 2, accuracy: 1e-12)
  }
}
