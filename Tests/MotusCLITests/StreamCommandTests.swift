// `motus stream` and `motus demo` end to end on SYNTHETIC recordings (MotusSimulation).

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class StreamCommandTests: TemporaryFolderTestCase {
  /// A model of stationary / walking / running, trained with `motus train` on synthetic data.
  private func trainModel(_ extraFlags: [String] = []) throws -> String {
    var simulator = ActivitySimulator(seed: 3)
    var text = ""
    for subject in 1...3 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: 20).csv(includeHeader: text.isEmpty)
      }
    }
    let model = folder.appendingPathComponent("m.motus").path
    let run = try MotusRunner.run(
      ["train", try write(text, "train.csv"), "--seed", "1", "--window", "128", "--hop", "64", "-o",
       model] + extraFlags)
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    return model
  }

  private func recording(seconds: Double = 12) -> SimulatedRecording {
    var simulator = ActivitySimulator(seed: 77)
    return simulator.recording(segments: [(.walking, seconds / 2), (.running, seconds / 2)], subject: 9)
  }

  private func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0))
    }
  }

  func testStream_FileGivesOnePredictionPerHop() throws {
    let model = try trainModel()
    let input = try write(recording().csv(), "rec.csv")
    let run = try MotusRunner.run(["stream", model, input])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let lines = try jsonLines(run.standardOutput)
    // 600 samples, windows of 128 every 64: 1 + (600 - 128) / 64 = 8.
    XCTAssertEqual(lines.filter { $0["event"] as? String == "prediction" }.count, 8)
    let first = try XCTUnwrap(lines.first)
    let probabilities = try XCTUnwrap(first["probabilities"] as? [String: Double])
    XCTAssertEqual(Set(probabilities.keys), ["stationary", "walking", "running"])
    XCTAssertEqual(probabilities.values.reduce(0, +), 1, accuracy: 1e-3)
    XCTAssertTrue(run.standardError.contains("600 samples, 8 predictions"), run.standardError)
  }

  func testStream_StandardInputWithBadRowsWarnsAndGoesOn() throws {
    let model = try trainModel()
    var rows = recording().csv().split(separator: "\n").map(String.init)
    rows[10] = "0.19,x,9,walking,abc,0,0,0,0,0"  // line 11: not a number
    rows[20] = "0.39,x,9"  // line 21: too few fields
    let run = try MotusRunner.run(["stream", model, "-"], input: rows.joined(separator: "\n") + "\n")
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(run.standardError.contains(":11"), run.standardError)
    XCTAssertTrue(run.standardError.contains(":21"), run.standardError)
    XCTAssertGreaterThan(try jsonLines(run.standardOutput).count, 5)
  }

  func testStream_MissingChannelFailsBeforeReading() throws {
    let model = try trainModel()
    let input = try write("timestamp,acceleration.x,acceleration.y\n0,0,0\n", "bad.csv")
    let run = try MotusRunner.run(["stream", model, input])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("acceleration.z"), run.standardError)
    XCTAssertTrue(run.standardError.contains("HINT"), run.standardError)
  }

  func testStream_SegmentsAsCSV() throws {
    let model = try trainModel()
    let input = try write(recording(seconds: 30).csv(), "rec.csv")
    let run = try MotusRunner.run([
      "stream", model, input, "--segments", "--format", "csv", "--smoothing", "hmm",
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let lines = run.standardOutput.split(separator: "\n")
    XCTAssertEqual(lines.first, "session,start,end,label,mean_confidence,predictions,repetitions")
    XCTAssertEqual(lines.dropFirst().first?.split(separator: ",")[3], "walking")
    XCTAssertEqual(lines.last?.split(separator: ",")[3], "running")
  }

  func testStream_UnknownBelowThreshold() throws {
    // Uncalibrated: perfectly separable synthetic validation drives the temperature to its
    // floor and every probability to 1.
    let model = try trainModel(["--no-calibration"])
    // Activities the model never saw (it knows stationary / walking / running): unsure.
    var simulator = ActivitySimulator(seed: 5)
    let unseen = simulator.recording(
      segments: [(.cycling, 15), (.automotive, 15), (.pushUp, 15)], subject: 8)
    let input = try write(unseen.csv(), "unseen.csv")
    let plain = try jsonLines(try MotusRunner.run(["stream", model, input]).standardOutput)
      .filter { $0["event"] as? String == "prediction" }
    XCTAssertFalse(plain.contains { $0["label"] as? String == "unknown" })
    // A threshold between two of the probabilities seen, far enough from both that the
    // printed 4 decimals cannot flip a comparison: exactly the less sure ones become unknown.
    let probabilities = Array(Set(plain.compactMap { $0["probability"] as? Double })).sorted()
    let pairs = zip(probabilities, probabilities.dropFirst()).filter { $1 - $0 >= 0.001 }
    let pair = try XCTUnwrap(pairs.last, "probabilities \(probabilities)")
    let threshold = (pair.0 + pair.1) / 2
    let gated = try jsonLines(
      try MotusRunner.run(["stream", model, input, "--unknown-below", String(threshold)]).standardOutput
    ).filter { $0["event"] as? String == "prediction" }
    XCTAssertEqual(gated.count, plain.count)
    for (before, after) in zip(plain, gated) {
      let p = try XCTUnwrap(before["probability"] as? Double)
      let expected = p < threshold ? "unknown" : before["label"] as? String
      XCTAssertEqual(after["label"] as? String, expected, "p = \(p), threshold \(threshold)")
    }
    let bad = try MotusRunner.run(["stream", model, input, "--unknown-below", "1.5"])
    XCTAssertNotEqual(bad.exitCode, 0)
    XCTAssertTrue(bad.standardError.contains("--unknown-below"), bad.standardError)
  }

  private static var sixClass: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
  }

  func testRealtime_AGapInTheTimestampsIsNotSleptThrough() throws {
    // Two seconds at 15 Hz, a gap of 10^6 s (11 days), two more seconds: about 4 s of replay.
    var text = "timestamp,acceleration.x,acceleration.y,acceleration.z\n"
    for start in [0.0, 1e6] {
      for i in 0..<30 { text += "\(start + Double(i) / 15),0,\(i % 3 == 0 ? 0.1 : 0),1\n" }
    }
    let started = Date()
    let run = try MotusRunner.run(
      ["stream", Self.sixClass, try write(text, "gap.csv"), "--realtime"], timeout: 60)
    XCTAssertFalse(run.timedOut, "slept through the gap")
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertLessThan(Date().timeIntervalSince(started), 30)
    XCTAssertTrue(run.standardError.contains("1 gaps"), run.standardError)
  }

  func testStream_EveryRowRejectedIsAnErrorWithTheCountAndTheFirstReasons() throws {
    var text = "timestamp,acceleration.x,acceleration.y,acceleration.z\n"
    for i in 0..<50 { text += "\(Double(i) / 15),0,0,\(i % 2 == 0 ? "1 g" : "1e30")\n" }
    let run = try MotusRunner.run(["stream", Self.sixClass, try write(text, "bad.csv")])
    XCTAssertEqual(run.exitCode, 1, run.standardError)
    XCTAssertTrue(
      run.standardError.contains(
        "every one of its 50 rows was rejected, so nothing was streamed; the first 3: "),
      run.standardError)
    for reason in [
      "bad.csv:2:4 ('acceleration.z'): '1 g' is not a number.",
      "bad.csv:3:4 ('acceleration.z'): 1e30 is beyond ±1e7",
    ] {
      XCTAssertTrue(run.standardError.contains(reason), run.standardError)
    }
    XCTAssertEqual(run.standardOutput, "")
  }

  func testStream_RejectsBadModelFile() throws {
    let notAModel = try write("hello", "x.motus")
    let run = try MotusRunner.run(["stream", notAModel, "-"], input: "")
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("x.motus"), run.standardError)
  }

  func testDemo_RunsAndSaysSynthetic() throws {
    let run = try MotusRunner.run(["demo", "--subjects", "3", "--seconds", "20"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(run.standardOutput.contains("SYNTHETIC"))
    XCTAssertTrue(run.standardOutput.contains("truth \\ predicted"))
    XCTAssertTrue(run.standardOutput.contains("push-ups counted"))
  }
}
