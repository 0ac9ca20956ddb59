// Why a model answers unknown: far from the training data first, then a negative class, then
// low confidence; the streaming Predictor gives the same answer and novelty score as the batch
// path. Uses `Examples.unknownModel` (see ModelTestSupport).

import MotusLinearAlgebra
import MotusModels
import XCTest

final class UnknownAnswerTests: XCTestCase {
  private let model = Examples.unknownModel

  private func reason(_ p: [Float], _ score: Float?) -> UnknownReason? {
    model.answer(probabilities: p, noveltyScore: score).unknownReason
  }

  func testReasons_RawValuesInPrecedenceOrder() {
    XCTAssertEqual(
      UnknownReason.allCases.map(\.rawValue),
      ["far-from-training-data", "none-of-the-classes", "low-confidence", "no-repetitions"])
  }

  func testAnswer_ReasonPrecedence() {
    // Classes (sit, walk, other); `other` is negative, unknown when it reaches 0.5; unknown
    // below 0.6; far above 3.
    // A negative class that wins, far away: far wins.
    XCTAssertEqual(reason([0.2, 0.1, 0.7], 5), .farFromTrainingData)
    // The same window near the data: none of the classes.
    XCTAssertEqual(reason([0.2, 0.1, 0.7], 1), .noneOfTheClasses)
    // The negative class at its threshold is none of the classes; just below, the best real
    // class is judged on its own confidence.
    XCTAssertEqual(reason([0.3, 0.2, 0.5], 1), .noneOfTheClasses)
    XCTAssertEqual(reason([0.3, 0.21, 0.49], 1), .lowConfidence)
    XCTAssertNil(reason([0.6, 0.0, 0.4], 1), "the negative class is not the answer below 0.5")
    // A real class below the threshold: low confidence; far wins over it.
    XCTAssertEqual(reason([0.5, 0.3, 0.2], 1), .lowConfidence)
    XCTAssertEqual(reason([0.5, 0.3, 0.2], 5), .farFromTrainingData)
    // A confident real class near the data, or with no score: named.
    XCTAssertNil(reason([0.8, 0.1, 0.1], 1))
    XCTAssertNil(reason([0.8, 0.1, 0.1], nil))
    XCTAssertNil(reason([0.8, 0.1, 0.1], 3), "a score at the threshold is not far")
    XCTAssertEqual(reason([0.8, 0.1, 0.1], .infinity), .farFromTrainingData)
    // At the confidence threshold itself the class is named.
    XCTAssertNil(reason([0.6, 0.3, 0.1], 1))
  }

  func testAnswer_NamesTheTopClassWithItsProbabilityAndConfidence() {
    let named = model.answer(probabilities: [0.05, 0.95, 0], noveltyScore: 0.5)
    XCTAssertEqual(named.classIndex, 1)
    XCTAssertEqual(named.probability, 0.95)
    XCTAssertEqual(named.confidence, .high)
    XCTAssertFalse(named.isUnknown)
    let far = model.answer(probabilities: [0.05, 0.95, 0], noveltyScore: 50)
    XCTAssertEqual(far.classIndex, 1, "an unknown answer still carries the top class")
    XCTAssertTrue(far.isUnknown)
  }

  func testAnswer_WithoutDetectorOrNegativesOrThreshold() {
    var plain = model
    plain.novelty = nil
    XCTAssertNil(
      plain.answer(probabilities: [0.8, 0.1, 0.1], noveltyScore: 1e9).unknownReason,
      "no detector: a score cannot make it far")
    plain.negativeClasses = []
    XCTAssertNil(plain.answer(probabilities: [0.1, 0.1, 0.8], noveltyScore: nil).unknownReason)
    XCTAssertEqual(plain.negativeClassIndices, [])
    plain.unknownThreshold = 0
    XCTAssertNil(plain.answer(probabilities: [0.34, 0.33, 0.33], noveltyScore: nil).unknownReason)
    XCTAssertEqual(model.negativeClassIndices, [2])
  }

  func testAnswer_NegativeThresholdDecidesAndTheRealClassIsNamed() {
    var strict = model
    strict.novelty = nil
    strict.unknownThreshold = 0
    strict.negativeThreshold = 0.2
    // Negatives claim 0.25 >= 0.2: unknown, though sit is the most probable class.
    let claimed = strict.answer(probabilities: [0.7, 0.05, 0.25], noveltyScore: nil)
    XCTAssertEqual(claimed.unknownReason, .noneOfTheClasses)
    XCTAssertEqual(claimed.classIndex, 0, "the most probable real class is still carried")
    XCTAssertEqual(claimed.probability, 0.7)
    // Negatives most probable (0.9) but the threshold set to 1: the best real class answers.
    strict.negativeThreshold = 1
    let named = strict.answer(probabilities: [0.02, 0.08, 0.9], noveltyScore: nil)
    XCTAssertNil(named.unknownReason)
    XCTAssertEqual(named.classIndex, 1)
    XCTAssertEqual(named.probability, 0.08)
  }

  /// Rows whose answers are worked out from the model's comment: logits (4 z0, -4 z0, 4 z1),
  /// score |z|² / 3, far above 3, unknown below 0.6.
  private let rows: [(z: [Float], reason: UnknownReason?)] = [
    ([2, 0, 0], nil),  // sit, p ≈ 0.9997; score 4/3
    ([0.1, 0, 0], .lowConfidence),  // sit, p = e^0.4 / (e^0.4 + e^-0.4 + 1) ≈ 0.47
    ([0, 2, 0], .noneOfTheClasses),  // other, p ≈ 0.999
    // other, p = e^0.4 / (e^0.4 + 2) ≈ 0.43 < 0.5: sit answers, p = 1 / (e^0.4 + 2) ≈ 0.29
    ([0, 0.1, 0], .lowConfidence),
    ([0, 4, 0], .farFromTrainingData),  // other; score 16/3
    ([-4, 0, 0], .farFromTrainingData),  // walk, sure; score 16/3
    ([0.1, 0, 3.1], .farFromTrainingData),  // score (0.01 + 9.61) / 3 ≈ 3.21
    ([0.1, 0, 2.9], .lowConfidence),  // score (0.01 + 8.41) / 3 ≈ 2.81
    ([.nan, 0, 0], .farFromTrainingData),  // a NaN feature scores +infinity
  ]

  func testPredict_BatchReasonsMatchTheWorkedOutAnswers() {
    let x = Matrix(rows: rows.map(\.z))
    let predictions = model.predict(x)
    let scores = model.noveltyScores(x) ?? []
    XCTAssertEqual(scores.count, rows.count)
    for (i, row) in rows.enumerated() {
      XCTAssertEqual(predictions[i].unknownReason, row.reason, "row \(row.z)")
      let expected = row.z.map { $0 * $0 }.reduce(0, +) / 3
      if expected.isFinite {
        XCTAssertEqual(scores[i], expected, accuracy: 1e-5, "row \(row.z)")
      } else {
        XCTAssertEqual(scores[i], .infinity)
      }
    }
  }

  func testPredictor_SameReasonAndScoreAsTheBatchPath() {
    let x = Matrix(rows: rows.map(\.z))
    let batch = model.predict(x)
    let scores = model.noveltyScores(x) ?? []
    var predictor = model.makePredictor()
    XCTAssertEqual(predictor.isNegativeClass, [false, false, true])
    for (i, row) in rows.enumerated() {
      let p = row.z.withUnsafeBufferPointer { predictor.predict(features: $0) }
      XCTAssertEqual(p.unknownReason, batch[i].unknownReason, "row \(row.z)")
      XCTAssertEqual(p.classIndex, batch[i].classIndex, "row \(row.z)")
      let score = predictor.noveltyScore ?? -1
      if scores[i].isFinite {
        XCTAssertEqual(score, scores[i], accuracy: 1e-6, "row \(row.z)")
      } else {
        XCTAssertEqual(score, scores[i], "row \(row.z)")
      }
      if row.z.allSatisfy(\.isFinite) {
        XCTAssertEqual(p.probability, batch[i].probability, accuracy: 1e-6)
        XCTAssertEqual(p.confidence, batch[i].confidence)
      }
    }
  }

  func testPredictor_NoScoreWithoutDetector() {
    var plain = model
    plain.novelty = nil
    XCTAssertNil(plain.noveltyScores(Matrix(rows: [[1, 2, 3]])))
    var predictor = plain.makePredictor()
    let z: [Float] = [1, 2, 3]
    _ = z.withUnsafeBufferPointer { predictor.predict(features: $0) }
    XCTAssertNil(predictor.noveltyScore)
  }
}
