import MotusLinearAlgebra
import MotusTraining
import XCTest

final class MetricsTests: XCTestCase {
  // truth     0 0 0 1 1 2
  // predicted 0 0 1 1 2 2
  // counts (rows = truth): [2 1 0; 0 1 1; 0 0 1]
  let matrix = ConfusionMatrix(
    truth: [0, 0, 0, 1, 1, 2], predicted: [0, 0, 1, 1, 2, 2], classCount: 3)

  func testConfusionMatrix_CountsRowsAsTruth() {
    XCTAssertEqual(matrix.counts, [[2, 1, 0], [0, 1, 1], [0, 0, 1]])
    XCTAssertEqual(matrix.support(0), 3)
    XCTAssertEqual(matrix.predictedCount(2), 2)
  }

  func testConfusionMatrix_HandComputedScores() {
    XCTAssertEqual(matrix.accuracy, 4.0 / 6, accuracy: 1e-12)
    // precision: 2/2, 1/2, 1/2; recall: 2/3, 1/2, 1/1
    XCTAssertEqual(matrix.precision(0), 1, accuracy: 1e-12)
    XCTAssertEqual(matrix.precision(1), 0.5, accuracy: 1e-12)
    XCTAssertEqual(matrix.recall(0), 2.0 / 3, accuracy: 1e-12)
    XCTAssertEqual(matrix.recall(2), 1, accuracy: 1e-12)
    // F1: 2·1·(2/3)/(5/3) = 0.8; 0.5; 2·0.5·1/1.5 = 2/3
    XCTAssertEqual(matrix.f1(0), 0.8, accuracy: 1e-12)
    XCTAssertEqual(matrix.f1(2), 2.0 / 3, accuracy: 1e-12)
    XCTAssertEqual(matrix.macroF1, (0.8 + 0.5 + 2.0 / 3) / 3, accuracy: 1e-12)
    XCTAssertEqual(matrix.balancedAccuracy, (2.0 / 3 + 0.5 + 1) / 3, accuracy: 1e-12)
  }

  func testConfusionMatrix_NeverPredictedClassHasZeroPrecision() {
    let m = ConfusionMatrix(truth: [0, 1], predicted: [0, 0], classCount: 3)
    XCTAssertEqual(m.precision(1), 0)
    XCTAssertEqual(m.observedClasses, [0, 1])
    // F1: class 0: p = 1/2, r = 1 -> 2/3; class 1: 0. Class 2 absent from both: not averaged.
    XCTAssertEqual(m.macroF1, (2.0 / 3) / 2, accuracy: 1e-12)
  }

  func testLogLoss_HandValue() {
    // -(ln 0.8 + ln 0.25) / 2
    let p = Matrix(rows: [[0.8, 0.2], [0.75, 0.25]])
    XCTAssertEqual(
      Metrics.logLoss(probabilities: p, labels: [0, 1]), -(log(0.8) + log(0.25)) / 2, accuracy: 1e-6
    )
  }

  func testECE_HandValue() {
    // Three bins of width 1/3 (binCount 3).
    // Top probabilities 0.9 (right), 0.9 (wrong), 0.5 (right):
    // bin 3: n 2, accuracy 0.5, confidence 0.9 -> 2/3·0.4
    // bin 2: n 1, accuracy 1, confidence 0.5 -> 1/3·0.5
    let p = Matrix(rows: [[0.9, 0.1], [0.9, 0.1], [0.5, 0.5]])
    let ece = Metrics.expectedCalibrationError(probabilities: p, labels: [0, 1, 0], binCount: 3)
    XCTAssertEqual(ece, 2.0 / 3 * 0.4 + 1.0 / 3 * 0.5, accuracy: 1e-6)
  }
}
