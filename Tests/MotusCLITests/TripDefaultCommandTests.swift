// The smoother knows trips by default with --smoothing hmm, says so, and --no-trips turns it
// off. Synthetic
// recordings (ActivitySimulator), so only the settings are checked here, not accuracy.

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class TripDefaultCommandTests: TemporaryFolderTestCase {
  private static func model(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/\(name).motus").path
  }

  private func synthetic() throws -> String {
    var simulator = ActivitySimulator(seed: 9, sampleRateHz: 50)
    var text = ""
    for activity in [SimulatedActivity.stationary, .walking] {
      text += simulator.recording(activity, subject: 1, seconds: 20).csv(includeHeader: text.isEmpty)
    }
    let path = folder.appendingPathComponent("data.csv").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  private func evaluate(_ model: String, _ flags: [String]) throws -> String {
    let run = try MotusRunner.run(["evaluate", Self.model(model), try synthetic()] + flags)
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    return run.standardOutput
  }

  func testHiddenMarkovSmoothing_KnowsTripsUnlessTurnedOff() throws {
    let on = try evaluate("six-class", ["--smoothing", "hmm"])
    XCTAssertTrue(on.contains("hmm switch-probability=0.05; trips: stop half-life 120.0 s"), on)
    let set = try evaluate("six-class", ["--smoothing", "hmm", "--trip-entry-factor", "0.5"])
    XCTAssertTrue(set.contains("entry 0.5 of the switch probability"), set)
    let off = try evaluate("six-class", ["--smoothing", "hmm", "--no-trips"])
    XCTAssertTrue(off.contains("(hmm switch-probability=0.05; entry push-up=0.2)"), off)
    XCTAssertFalse(off.contains("trips"), off)
    let ema = try evaluate("six-class", ["--smoothing", "ema"])
    XCTAssertFalse(ema.contains("trips"), ema)
  }

  /// Entering push-up takes sustained evidence by default with --smoothing hmm; the flags set
  /// or drop it.
  func testHiddenMarkovSmoothing_EntersPushUpSlowlyUnlessTurnedOff() throws {
    let standard = try evaluate("six-class", ["--smoothing", "hmm"])
    XCTAssertTrue(standard.contains("; entry push-up=0.2)"), standard)
    let set = try evaluate(
      "six-class", ["--smoothing", "hmm", "--evidence-factors", "push-up=0.5",
        "--entry-factors", "push-up=0.1"])
    XCTAssertTrue(set.contains("; evidence push-up=0.5, entry push-up=0.1)"), set)
    let none = try evaluate("six-class", ["--smoothing", "hmm", "--entry-factors", "none"])
    XCTAssertFalse(none.contains("entry push-up"), none)
    XCTAssertTrue(none.contains("trips"), none)
  }

}
