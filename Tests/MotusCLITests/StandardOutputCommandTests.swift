// Every command whose standard output fails: a full disk (/dev/full) is an error naming
// standard output and the reason, with a hint; a closed pipe ends the command quietly by
// SIGPIPE, as `cat` ends. Never a trap, never exit 0 with the output lost. Data is SYNTHETIC
// (MotusSimulation).

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class StandardOutputCommandTests: TemporaryFolderTestCase {
  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Stationary, walking and running for three synthetic subjects at 50 Hz.
  private func synthetic() throws -> String {
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 50)
    var text = ""
    for subject in 1...3 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: 12)
          .csv(includeHeader: text.isEmpty)
      }
    }
    return try write(text, "data.csv")
  }

  /// The commands, each with arguments that print to standard output.
  private func commands() throws -> [[String]] {
    let data = try synthetic()
    let model = path("m.motus")
    let train = try MotusRunner.run(["train", data, "--seed", "1", "-o", model])
    XCTAssertEqual(train.exitCode, 0, train.standardError)
    return [
      ["inspect", data], ["inspect", data, "--format", "json"],
      ["features", data, "-o", "-"], ["train", data, "--seed", "1", "-o", path("again.motus")],
      ["evaluate", model, data], ["evaluate", model, data, "--format", "json"],
      ["cross-validate", data, "--folds", "3"], ["stream", model, data],
      ["stream", model, data, "--format", "csv", "--segments"], ["model-info", model],
      ["export", model, "-o", "-"], ["demo", "--seconds", "10", "--subjects", "2"],
      ["bench", "features", data, "--repetitions", "1"],
      ["bench", "stream", "--model", model, data, "--samples", "1000", "--repetitions", "1"],
    ]
  }

  func testFullDisk_IsAnErrorNamingStandardOutputForEveryCommand() throws {
    for arguments in try commands() {
      let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
      let run = try MotusRunner.run(arguments, standardOutput: full)
      try full.close()
      let command = arguments.prefix(2).joined(separator: " ")
      XCTAssertFalse(run.diedOfSignal, "\(command) trapped: \(run.standardError)")
      XCTAssertEqual(run.exitCode, 1, "\(command): \(run.standardError)")
      XCTAssertTrue(
        run.standardError.contains(
          "standard output: No space left on device. HINT: free space on the disk"),
        "\(command): \(run.standardError)")
    }
  }

  func testClosedPipe_EndsEveryCommandQuietlyBySIGPIPE() throws {
    for arguments in try commands() {
      let pipe = Pipe()
      try pipe.fileHandleForReading.close()
      let run = try MotusRunner.run(arguments, standardOutput: pipe.fileHandleForWriting)
      try pipe.fileHandleForWriting.close()
      let command = arguments.prefix(2).joined(separator: " ")
      XCTAssertTrue(run.diedOfSignal, "\(command): exit \(run.exitCode), \(run.standardError)")
      XCTAssertEqual(run.exitCode, SIGPIPE, command)
      XCTAssertFalse(run.standardError.contains("Error"), "\(command): \(run.standardError)")
    }
  }

  func testTrain_ModelIsWrittenBeforeTheSummaryFails() throws {
    let data = try synthetic()
    let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let run = try MotusRunner.run(
      ["train", data, "--seed", "1", "-o", path("m.motus")], standardOutput: full)
    try full.close()
    XCTAssertEqual(run.exitCode, 1, run.standardError)
    XCTAssertTrue(FileManager.default.fileExists(atPath: path("m.motus")))
  }
}
