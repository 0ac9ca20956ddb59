// Standard error that fails: warnings, notes and summaries go through the checked
// `StandardError`, so a full disk (`2>/dev/full`) drops them and the work goes on, and a closed
// pipe (`2>&1 | head -1`, `2>&1 >report.txt | head`) ends the command by SIGPIPE once its
// outputs are whole; never a trap (it was exit 132 at the first warning). SYNTHETIC recordings
// (MotusSimulation) and a committed model.

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class StandardErrorCommandTests: TemporaryFolderTestCase {
  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  private static let sixClassModel = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("models/six-class.motus").path

  /// 600 rows at 15 Hz whose first rows are unreadable: warnings come before any prediction.
  private func streamInput() throws -> String {
    var text = "timestamp,acceleration.x,acceleration.y,acceleration.z\n"
    for i in 0..<600 {
      let t = Double(i) / 15
      let x = i < 30 && i % 2 == 0 ? "oops" : "\(0.3 * sin(7 * t))"
      text += "\(t),\(x),\(0.2 * cos(7 * t)),1\n"
    }
    return try write(text, "live.csv")
  }

  /// A pipe whose reader is gone, as `| head -1` leaves it once head has exited.
  private func closedPipe() throws -> Pipe {
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    return pipe
  }

  func testStream_FullStandardErrorDropsTheWarningsAndTheStreamGoesOn() throws {
    let arguments = ["stream", Self.sixClassModel, try streamInput(), "--format", "csv"]
    let expected = try MotusRunner.run(arguments)
    XCTAssertEqual(expected.exitCode, 0, expected.standardError)
    XCTAssertTrue(expected.standardError.contains("warning: "), expected.standardError)
    let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let run = try MotusRunner.run(arguments, standardError: full)
    try full.close()
    XCTAssertFalse(run.diedOfSignal, "trapped at a warning: status \(run.exitCode)")
    XCTAssertEqual(run.exitCode, 0)
    XCTAssertEqual(run.standardOutput, expected.standardOutput)
  }

  func testStream_BothOutputsToAClosedPipeEndBySIGPIPENotATrap() throws {
    // `motus stream M F 2>&1 | head -1`: the first warning meets the closed pipe.
    let pipe = try closedPipe()
    let run = try MotusRunner.run(
      ["stream", Self.sixClassModel, try streamInput()],
      standardOutput: pipe.fileHandleForWriting, standardError: pipe.fileHandleForWriting)
    try pipe.fileHandleForWriting.close()
    XCTAssertTrue(run.diedOfSignal, "exit \(run.exitCode)")
    XCTAssertEqual(run.exitCode, SIGPIPE)
  }

  func testEvaluate_ClosedStandardErrorLeavesTheReportWholeThenEndsBySIGPIPE() throws {
    // `motus evaluate M D --perturb ... --report r.html 2>&1 >report.txt | head`: its note on
    // standard error comes before the report, which must still be written whole.
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 50)
    var text = ""
    for subject in 1...3 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: 12)
          .csv(includeHeader: text.isEmpty)
      }
    }
    let data = try write(text, "data.csv")
    let model = path("m.motus")
    let train = try MotusRunner.run(["train", data, "--seed", "1", "-o", model])
    XCTAssertEqual(train.exitCode, 0, train.standardError)
    let arguments = [
      "evaluate", model, data, "--perturb", "rotation=20", "--report", path("r.html"),
    ]
    let expected = try MotusRunner.run(arguments)
    XCTAssertEqual(expected.exitCode, 0, expected.standardError)
    XCTAssertTrue(expected.standardError.contains("note: "), expected.standardError)
    try FileManager.default.removeItem(atPath: path("r.html"))
    let pipe = try closedPipe()
    let run = try MotusRunner.run(arguments, standardError: pipe.fileHandleForWriting)
    try pipe.fileHandleForWriting.close()
    XCTAssertTrue(run.diedOfSignal, "exit \(run.exitCode)")
    XCTAssertEqual(run.exitCode, SIGPIPE)
    XCTAssertEqual(run.standardOutput, expected.standardOutput, "report.txt is whole")
    XCTAssertTrue(FileManager.default.fileExists(atPath: path("r.html")), "--report is kept")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".tmp") }
    XCTAssertEqual(left, [])
  }

  func testErrorMessage_ToAFullOrClosedStandardErrorKeepsItsExitStatus() throws {
    let missing = path("missing.csv")
    let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let run = try MotusRunner.run(["inspect", missing], standardError: full)
    try full.close()
    XCTAssertFalse(run.diedOfSignal)
    XCTAssertEqual(run.exitCode, 1)
    let pipe = try closedPipe()
    let closed = try MotusRunner.run(
      ["inspect", missing], standardError: pipe.fileHandleForWriting)
    try pipe.fileHandleForWriting.close()
    XCTAssertFalse(closed.diedOfSignal)
    XCTAssertEqual(closed.exitCode, 1)
  }
}
