import MotusLinearAlgebra
import MotusModels
import MotusTestSupport
import XCTest

final class ClassifierTests: XCTestCase {
  func testLogisticLogits_HandComputed() {
    // W = [[1, -1], [0.5, 2]] stored [K=2, F=2], b = [0.1, -0.2]; x = [2, 3]:
    // z0 = 1·2 - 1·3 + 0.1 = -0.9; z1 = 0.5·2 + 2·3 - 0.2 = 6.8
    let model = LogisticRegression(
      classes: ["a", "b"],
      linear: Linear(weight: Matrix(rows: [[1, -1], [0.5, 2]]), bias: [0.1, -0.2]))
    let z = model.logits(Matrix(rows: [[2, 3]]))
    XCTAssertEqual(z[0, 0], -0.9, accuracy: 1e-6)
    XCTAssertEqual(z[0, 1], 6.8, accuracy: 1e-6)
    XCTAssertEqual(model.featureCount, 2)
    XCTAssertEqual(model.predict(Matrix(rows: [[2, 3]])), [1])
  }

  func testMLPLogits_HandComputed() {
    // hidden W1 = [[1, 0], [0, -1]], b1 = [0, 0]; x = [2, 3] -> z1 = [2, -3] -> relu [2, 0]
    // output Wo = [[1, 1], [-1, 2]], bo = [0, 1] -> [2, -1]
    let model = MLPClassifier(
      classes: ["a", "b"],
      hidden: [Linear(weight: Matrix(rows: [[1, 0], [0, -1]]), bias: [0, 0])],
      output: Linear(weight: Matrix(rows: [[1, 1], [-1, 2]]), bias: [0, 1]))
    XCTAssertEqual(model.logits(Matrix(rows: [[2, 3]])).values, [2, -1])
    XCTAssertEqual(model.hiddenLayerSizes, [2])
  }

  func testPredictor_SingleRowMatchesBatch() {
    for model in [Examples.logisticModel, Examples.mlpModel] {
      var predictor = model.makePredictor()
      let batch = model.predictProbabilities(Examples.inputs)
      let predictions = model.predict(Examples.inputs)
      for i in 0..<Examples.inputs.rowCount {
        let row = Examples.inputs.row(i)
        let prediction = row.withUnsafeBufferPointer { predictor.predict(features: $0) }
        XCTAssertLessThan(maxAbsoluteDifference(predictor.probabilities, batch.row(i)), 1e-6)
        XCTAssertEqual(prediction, predictions[i])
      }
    }
  }

  func testPrediction_ConfidenceAndUnknown() {
    let cutoffs = ConfidenceCutoffs(medium: 0.6, high: 0.85)
    XCTAssertEqual(cutoffs.level(for: 0.59), .low)
    XCTAssertEqual(cutoffs.level(for: 0.6), .medium)
    XCTAssertEqual(cutoffs.level(for: 0.85), .high)
    let model = Examples.logisticModel  // unknownThreshold 0.55
    for (i, p) in model.predict(Examples.inputs).enumerated() {
      XCTAssertEqual(p.isUnknown, p.probability < 0.55, "row \(i)")
      XCTAssertEqual(p.confidence, cutoffs.level(for: p.probability))
      XCTAssertEqual(p.probability, model.predictProbabilities(Examples.inputs).row(i).max())
    }
  }
}
