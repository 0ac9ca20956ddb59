// Every hyperparameter a model file records has its `motus train` flag: the table in
// MotusTraining names each one, and the command's help must list it.

import MotusTraining
import XCTest

final class HyperparameterFlagTests: XCTestCase {
  func testEveryRecordedHyperparameter_HasATrainFlag() throws {
    let run = try MotusRunner.run(["train", "--help"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let flags = Set(
      run.standardOutput.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
        .filter { $0.hasPrefix("--") }.map(String.init))
    // The family-specific ones beside the shared table.
    for flag in SharedHyperparameters.recorded.map(\.flag) + ["--model", "--solver", "--hidden"] {
      XCTAssertTrue(flags.contains(flag), "motus train has no \(flag)")
    }
  }
}
