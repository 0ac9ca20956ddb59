// Temperature scaling must not sharpen beyond what the validation part supports.

import MotusData
import MotusLinearAlgebra
import MotusModels
import MotusTraining
import XCTest

final class TemperatureBoundTests: XCTestCase {
  /// Logits of `rows` rows over 3 classes: the predicted class gets `margin` (plus a little
  /// spread), the others 0; the prediction is the label with probability `accuracy`.
  private func logits(rows: Int, margin: Float, accuracy: Float, seed: UInt64) -> (
    Matrix, [Int]
  ) {
    var generator = SplitMix64(seed: seed)
    var values: [Float] = []
    var labels: [Int] = []
    for i in 0..<rows {
      let truth = i % 3
      let predicted = generator.nextUnitFloat() < accuracy ? truth : (truth + 1 + i % 2) % 3
      let top = margin * (0.5 + generator.nextUnitFloat())
      for c in 0..<3 { values.append(c == predicted ? top : 0) }
      labels.append(truth)
    }
    return (Matrix(rowCount: rows, columnCount: 3, values: values), labels)
  }

  func testTemperatureScaling_SeparableValidationIsNotSaturated() {
    // Every validation row is right: the NLL keeps falling as T -> 0.
    let (validation, validationLabels) = logits(rows: 300, margin: 2, accuracy: 1, seed: 3)
    let t = TemperatureScaling.fit(logits: validation, labels: validationLabels)
    let tops = Softmax.rows(validation, temperature: t)
    var meanTop = 0.0
    for i in 0..<tops.rowCount { meanTop += Double(tops.row(i).max()!) }
    meanTop /= Double(tops.rowCount)
    // As confident as 300 correct out of 300 supports (Laplace: 301/302), not more.
    XCTAssertEqual(meanTop, 301.0 / 302, accuracy: 1e-4)
    XCTAssertGreaterThan(t, 0.1)
    XCTAssertLessThan(t, 1)
    // New data from the same model makes 3 % errors: the bounded temperature is better
    // calibrated there than the old floor of 0.05 (probabilities saturated at 1).
    let (test, testLabels) = logits(rows: 3000, margin: 2, accuracy: 0.97, seed: 4)
    let bounded = Metrics.expectedCalibrationError(
      probabilities: Softmax.rows(test, temperature: t), labels: testLabels)
    let saturated = Metrics.expectedCalibrationError(
      probabilities: Softmax.rows(test, temperature: 0.05), labels: testLabels)
    XCTAssertLessThan(bounded, saturated)
    let boundedNLL = TemperatureScaling.negativeLogLikelihood(
      logits: test, labels: testLabels, temperature: Double(t))
    let saturatedNLL = TemperatureScaling.negativeLogLikelihood(
      logits: test, labels: testLabels, temperature: 0.05)
    XCTAssertLessThan(boundedNLL, saturatedNLL / 4)
  }

  func testTemperatureScaling_StillSharpensAnUnderconfidentModel() {
    // Right 90 % of the time with logits of about 1: at T = 1 the top probability is ~0.58.
    let (x, labels) = logits(rows: 900, margin: 1, accuracy: 0.9, seed: 5)
    let t = TemperatureScaling.fit(logits: x, labels: labels)
    XCTAssertLessThan(t, 0.5)
    let accuracy = ConfusionMatrix(truth: labels, predicted: Metrics.argmax(x), classCount: 3)
      .accuracy
    let tops = Softmax.rows(x, temperature: t)
    var meanTop = 0.0
    for i in 0..<tops.rowCount { meanTop += Double(tops.row(i).max()!) }
    meanTop /= Double(tops.rowCount)
    // Never more confident than the accuracy estimate; here the bound does not bind, so T is
    // the NLL's own minimum (interior: a little sharper or softer is worse).
    let correct = (accuracy * 900).rounded()
    XCTAssertLessThanOrEqual(meanTop, (correct + 1) / 902 + 1e-5)
    XCTAssertLessThan(TemperatureScaling.sharpeningLimit(logits: x, labels: labels), Double(t))
    let nll = { (scale: Double) in
      TemperatureScaling.negativeLogLikelihood(
        logits: x, labels: labels, temperature: Double(t) * scale)
    }
    XCTAssertLessThan(nll(1), nll(0.98))
    XCTAssertLessThan(nll(1), nll(1.02))
  }

  func testSharpeningLimit_OneWhenAlreadyAsConfidentAsSupported() {
    // Logits of 8 with 70 % accuracy: already far too confident, so no sharpening at all.
    let (x, labels) = logits(rows: 600, margin: 8, accuracy: 0.7, seed: 6)
    XCTAssertEqual(TemperatureScaling.sharpeningLimit(logits: x, labels: labels), 1)
    XCTAssertGreaterThan(TemperatureScaling.fit(logits: x, labels: labels), 1)
  }
}
