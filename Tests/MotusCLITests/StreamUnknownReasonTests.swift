// `motus stream` says why it answers unknown (`unknown_reason` in JSON lines and as a CSV
// column), end to end on SYNTHETIC recordings (MotusSimulation). Windows are given explicitly,
// so the tests do not depend on the default window.

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class StreamUnknownReasonTests: TemporaryFolderTestCase {
  /// A stationary / walking / running model trained with `motus train` on synthetic data.
  private func trainModel(_ extraFlags: [String]) throws -> String {
    var simulator = ActivitySimulator(seed: 3)
    var text = ""
    for subject in 1...3 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: 20).csv(
          includeHeader: text.isEmpty)
      }
    }
    let model = folder.appendingPathComponent("m-\(UUID().uuidString).motus").path
    let run = try MotusRunner.run(
      ["train", try write(text, "train.csv"), "--seed", "1", "-o", model, "--window", "2.56s"]
        + extraFlags)
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    return model
  }

  private func predictions(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0))
    }.filter { $0["event"] as? String == "prediction" }
  }

  func testStream_LowConfidenceLinesSayWhy() throws {
    // Uncalibrated, so that probabilities on activities the model never saw spread out.
    let model = try trainModel(["--no-calibration"])
    var simulator = ActivitySimulator(seed: 5)
    let unseen = simulator.recording(
      segments: [(.cycling, 15), (.automotive, 15), (.pushUp, 15)], subject: 8)
    let input = try write(unseen.csv(), "unseen.csv")
    let plain = try predictions(try MotusRunner.run(["stream", model, input]).standardOutput)
    XCTAssertFalse(plain.contains { $0["unknown_reason"] != nil }, "no threshold: no reason")
    // A threshold between two of the probabilities seen, far enough from both that the
    // printed 4 decimals cannot flip a comparison.
    let probabilities = Array(Set(plain.compactMap { $0["probability"] as? Double })).sorted()
    let pairs = zip(probabilities, probabilities.dropFirst()).filter { $1 - $0 >= 0.001 }
    let pair = try XCTUnwrap(pairs.last, "probabilities \(probabilities)")
    let threshold = (pair.0 + pair.1) / 2
    let gated = try predictions(
      try MotusRunner.run(["stream", model, input, "--unknown-below", String(threshold)])
        .standardOutput)
    XCTAssertEqual(gated.count, plain.count)
    for line in gated {
      let p = try XCTUnwrap(line["probability"] as? Double)
      if p < threshold {
        XCTAssertEqual(line["label"] as? String, "unknown")
        XCTAssertEqual(line["unknown_reason"] as? String, "low-confidence")
      } else {
        XCTAssertNotEqual(line["label"] as? String, "unknown")
        XCTAssertNil(line["unknown_reason"])
      }
    }
    XCTAssertTrue(gated.contains { $0["unknown_reason"] != nil })
  }

  func testStream_FarFromTheTrainingDataInJSONAndCSV() throws {
    let model = try trainModel(["--novelty-components", "2"])
    // The same kind of walking, as if read by a sensor with 20 times the gain: every window's
    // features lie far outside the training rows.
    var simulator = ActivitySimulator(seed: 77)
    var loud = simulator.recording(.walking, subject: 9, seconds: 12)
    loud.columns = loud.columns.map { $0.map { 20 * $0 } }
    let input = try write(loud.csv(), "loud.csv")
    let json = try MotusRunner.run(["stream", model, input])
    XCTAssertEqual(json.exitCode, 0, json.standardError)
    let lines = try predictions(json.standardOutput)
    XCTAssertFalse(lines.isEmpty)
    for line in lines {
      XCTAssertEqual(line["label"] as? String, "unknown")
      XCTAssertEqual(line["unknown_reason"] as? String, "far-from-training-data")
    }
    let csv = try MotusRunner.run(["stream", model, input, "--format", "csv"])
    XCTAssertEqual(csv.exitCode, 0, csv.standardError)
    let rows = csv.standardOutput.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let header = try XCTUnwrap(rows.first)
    XCTAssertEqual(
      Array(header.prefix(9)),
      [
        "session", "event", "start", "end", "label", "probability", "confidence", "count",
        "unknown_reason",
      ])
    XCTAssertEqual(Set(header.dropFirst(9)), ["p_stationary", "p_walking", "p_running"])
    let body = rows.dropFirst().filter { $0.count > 1 && $0[1] == "prediction" }
    XCTAssertEqual(body.count, lines.count)
    for row in body {
      XCTAssertEqual(row.count, header.count)
      XCTAssertEqual(row[4], "unknown")
      XCTAssertEqual(row[8], "far-from-training-data")
    }
  }

  func testStream_CSVReasonColumnIsEmptyForNamedWindows() throws {
    let model = try trainModel([])
    var simulator = ActivitySimulator(seed: 77)
    let walk = simulator.recording(.walking, subject: 9, seconds: 12)
    let run = try MotusRunner.run(
      ["stream", model, try write(walk.csv(), "walk.csv"), "--format", "csv"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let rows = run.standardOutput.split(separator: "\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let predictions = rows.filter { $0.count > 1 && $0[1] == "prediction" }
    XCTAssertTrue(predictions.contains { $0[4] != "unknown" }, "\(predictions)")
    for row in predictions where row[4] != "unknown" {
      XCTAssertEqual(row[8], "", "\(row)")
    }
  }
}
