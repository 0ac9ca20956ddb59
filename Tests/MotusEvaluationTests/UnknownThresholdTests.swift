// Coverage and accuracy when the model answers `unknown` below its threshold.

import MotusEvaluation
import MotusLinearAlgebra
import XCTest

final class UnknownThresholdTests: XCTestCase {
  /// Four windows, two classes: confident right, confident wrong, unsure right, unsure wrong.
  private func result(threshold: Float) -> EvaluationResult {
    let p = Matrix(rows: [[0.9, 0.1], [0.2, 0.8], [0.55, 0.45], [0.4, 0.6]])
    var r = EvaluationResult(
      classes: ["a", "b"], truth: [0, 0, 0, 0], predicted: [0, 1, 0, 1], probabilities: p,
      sessions: ["s", "s", "s", "s"], subjects: ["1", "1", "1", "1"], startTimes: [0, 1, 2, 3],
      windowLength: 10, hopLength: 5, sampleRateHz: 10)
    r.unknownThreshold = threshold
    return r
  }

  func testSelective_CountsOnlyWindowsAtOrAboveTheThreshold() {
    let r = result(threshold: 0)
    XCTAssertEqual(r.selective(threshold: 0).coverage, 1)
    XCTAssertEqual(r.selective(threshold: 0).accuracy, 0.5)
    XCTAssertEqual(r.selective(threshold: 0.7).coverage, 0.5)
    XCTAssertEqual(r.selective(threshold: 0.7).accuracy, 0.5)
    XCTAssertEqual(r.selective(threshold: 0.6).coverage, 0.75)  // 0.6 itself is named
    XCTAssertTrue(r.selective(threshold: 0.95).accuracy.isNaN)
  }

  func testReports_ShowCoverageOnlyWithAThreshold() throws {
    XCTAssertFalse(result(threshold: 0).text().contains("coverage"))
    let text = result(threshold: 0.7).text()
    XCTAssertTrue(text.contains("coverage (named a class)"), text)
    let report = result(threshold: 0.7).report
    XCTAssertEqual(report.coverage, 0.5)
    XCTAssertEqual(report.coveredAccuracy, 0.5)
    XCTAssertEqual(report.unknownThreshold, 0.7, accuracy: 1e-6)
  }
}
