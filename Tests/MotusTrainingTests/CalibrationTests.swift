import MotusData
import MotusLinearAlgebra
import MotusModels
import MotusTraining
import XCTest

final class CalibrationTests: XCTestCase {
  /// Logits of a model that is right ~70 % of the time but scaled to be nearly certain.
  private func overconfident() -> (logits: Matrix, labels: [Int]) {
    var generator = SplitMix64(seed: 5)
    var values: [Float] = []
    var labels: [Int] = []
    for i in 0..<600 {
      let truth = i % 3
      let predicted = generator.nextUnitFloat() < 0.7 ? truth : (truth + 1 + i % 2) % 3
      for c in 0..<3 { values.append(c == predicted ? 8 : 0) }
      labels.append(truth)
    }
    return (Matrix(rowCount: 600, columnCount: 3, values: values), labels)
  }

  func testTemperatureScaling_LowersNLLOfOverconfidentModel() {
    let (logits, labels) = overconfident()
    let t = TemperatureScaling.fit(logits: logits, labels: labels)
    let before = TemperatureScaling.negativeLogLikelihood(
      logits: logits, labels: labels, temperature: 1)
    let after = TemperatureScaling.negativeLogLikelihood(
      logits: logits, labels: labels, temperature: Double(t))
    XCTAssertGreaterThan(t, 1)
    XCTAssertLessThan(after, before)
    // The optimum: softmax at T gives p(top) = e^(8/T) / (e^(8/T) + 2) = accuracy.
    let accuracy = ConfusionMatrix(truth: labels, predicted: Metrics.argmax(logits), classCount: 3)
      .accuracy
    let top = Softmax.rows(logits, temperature: t).row(0).max()!
    XCTAssertEqual(Double(top), accuracy, accuracy: 1e-3)
    let eceBefore = Metrics.expectedCalibrationError(
      probabilities: Softmax.rows(logits), labels: labels)
    let eceAfter = Metrics.expectedCalibrationError(
      probabilities: Softmax.rows(logits, temperature: t), labels: labels)
    XCTAssertLessThan(eceAfter, eceBefore)
    XCTAssertLessThan(eceAfter, 1e-3)
  }

  func testConfidenceCutoffs_HandExample() {
    // Top probabilities (correct?): 0.95 y, 0.9 y, 0.8 y, 0.7 n, 0.6 y, 0.5 n, 0.4 n.
    // Prefix accuracies: 1, 1, 1, 3/4, 4/5, 4/6, 4/7. With minimumSupport 2:
    // high (0.9) -> longest prefix with accuracy >= 0.9 ends at 0.8;
    // medium (0.7) -> longest with >= 0.7 ends at 0.6 (4/5 = 0.8).
    let tops: [Float] = [0.95, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    let correct = [true, true, true, false, true, false, false]
    var values: [Float] = []
    var labels: [Int] = []
    for (p, ok) in zip(tops, correct) {
      values += [p, (1 - p) / 2, (1 - p) / 2]  // p stays the top probability
      labels.append(ok ? 0 : 1)
    }
    let cutoffs = ConfidenceCutoffs.fit(
      probabilities: Matrix(rowCount: 7, columnCount: 3, values: values), labels: labels,
      mediumAccuracy: 0.7, highAccuracy: 0.9, minimumSupport: 2)
    XCTAssertEqual(cutoffs.high, 0.8)
    XCTAssertEqual(cutoffs.medium, 0.6)
    // A target nobody reaches gives a cut-off above 1: the level is never given.
    let strict = ConfidenceCutoffs.fit(
      probabilities: Matrix(rowCount: 7, columnCount: 3, values: values), labels: labels,
      mediumAccuracy: 0.7, highAccuracy: 1, minimumSupport: 4)
    XCTAssertGreaterThan(strict.high, 1)
    XCTAssertEqual(strict.level(for: 1), .medium)
  }
}
