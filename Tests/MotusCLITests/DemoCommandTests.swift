// `motus demo` trains what `motus train` trains by default: the default window and model, on
// SYNTHETIC recordings (MotusSimulation), and says both.

import MotusIngest
import MotusTraining
import XCTest

final class DemoCommandTests: XCTestCase {
  func testDemo_TrainsTheDefaultRecipeOnSyntheticData() throws {
    let run = try MotusRunner.run(["demo", "--subjects", "2", "--seconds", "20"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.first?.contains("SYNTHETIC") == true, run.standardOutput)
    let trained = try XCTUnwrap(lines.first { $0.hasPrefix("2. trained") }, run.standardOutput)
    let defaults = TrainingOptions()
    XCTAssertEqual(defaults.model.family, .logistic)
    XCTAssertTrue(trained.contains("default recipe"), trained)
    XCTAssertTrue(trained.contains("logistic regression"), trained)
    XCTAssertTrue(trained.contains("\(FeatureChoice.defaultWindowSeconds) s windows"), trained)
    let copies = try XCTUnwrap(defaults.augmentation?.copies)
    XCTAssertTrue(trained.contains("\(copies) perturbed copies"), trained)
  }
}
