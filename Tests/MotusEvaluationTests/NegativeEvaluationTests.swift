// Evaluation of a dataset with a negative label (activities that are none of the classes) and
// of unknown answers by reason, on the hand-made model of EvaluationTestSupport.

import Foundation
import MotusData
import MotusLinearAlgebra
import MotusModels
import XCTest

@testable import MotusEvaluation

final class NegativeEvaluationTests: XCTestCase {
  /// HandMade.model answering unknown below 0.9, with a novelty detector on its one feature
  /// (the window mean m): mean 0, one component of variance 1, so the score is m² and a
  /// window is far when |m| > √3.
  private var model: TrainedModel {
    var m = HandMade.model
    m.unknownThreshold = 0.9
    m.novelty = NoveltyDetector(
      mean: [0], components: [1], variances: [1], residualVariance: 1, threshold: 3)
    return m
  }

  /// Labels high (0), low (1) and the negative label other (2). With P(high) = e^2m / (e^2m +
  /// e^-2m + e^-10) and the score m²:
  ///   a: m = 1 high (P 0.982, named), m = -1 low (named), m = 0.1 other (P 0.599: low
  ///      confidence), m = 2 other (score 4: far);
  ///   b: m = 0.05 other (P 0.550: low confidence), m = -2 low (score 4: far),
  ///      m = 1.5 other (P 0.9975, score 2.25: named high).
  private var dataset: Dataset {
    Dataset(
      channels: ["x"], labels: ["high", "low", "other"],
      recordings: [
        HandMade.recording(
          session: "a1", subject: "a", means: [1, -1, 0.1, 2], labels: [0, 1, 2, 2]),
        HandMade.recording(
          session: "b1", subject: "b", means: [0.05, -2, 1.5], labels: [2, 1, 2]),
      ],
      negativeLabels: ["other"])
  }

  func testRun_NegativeWindowsAreCountedApartFromTheScores() throws {
    let result = try Evaluation.run(model: model, dataset: dataset)
    // Scored windows: a (1, high), a (-1, low), b (-2, low); model classes (low, high, idle).
    XCTAssertEqual(result.windowCount, 3)
    XCTAssertEqual(result.truth, [1, 0, 0])
    XCTAssertEqual(result.predicted, [1, 0, 0])
    XCTAssertEqual(result.confusion.counts, [[2, 0, 0], [0, 1, 0], [0, 0, 0]])
    XCTAssertEqual(result.accuracy, 1)
    let negatives = try XCTUnwrap(result.negatives)
    XCTAssertEqual(negatives.labels, ["other"])
    XCTAssertEqual(negatives.windows, 4)
    XCTAssertEqual(
      negatives.unknownByReason, ["low-confidence": 2, "far-from-training-data": 1])
    XCTAssertEqual(negatives.answeredUnknown, 3)
    XCTAssertEqual(negatives.unknownShare, 0.75)
    // The one negative window named a class is a false alarm of that class.
    XCTAssertEqual(negatives.answeredAs, ["high": 1])
    let text = result.text()
    XCTAssertTrue(text.contains("negatives answered high (false alarms)"), text)
  }

  func testRun_UnknownReasonsNamedAndByReasonAgree() throws {
    let result = try Evaluation.run(model: model, dataset: dataset)
    XCTAssertEqual(result.unknownReasons, [nil, nil, .farFromTrainingData])
    XCTAssertEqual(result.unknownByReason, ["far-from-training-data": 1])
    XCTAssertEqual(result.named.coverage, 2.0 / 3, accuracy: 1e-12)
    XCTAssertEqual(result.named.accuracy, 1)
    // Without reasons, coverage falls back to the threshold alone (all three are sure).
    var bare = result
    bare.unknownReasons = []
    XCTAssertEqual(bare.named.coverage, 1)
    XCTAssertEqual(bare.unknownByReason, [:])
  }

  func testReport_JSONHasNegativesAndUnknownByReason() throws {
    let result = try Evaluation.run(model: model, dataset: dataset)
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: result.jsonData()) as? [String: Any])
    XCTAssertEqual(json["unknown_by_reason"] as? [String: Int], ["far-from-training-data": 1])
    XCTAssertEqual(try XCTUnwrap(json["coverage"] as? Double), 2.0 / 3, accuracy: 1e-12)
    let negatives = try XCTUnwrap(json["negatives"] as? [String: Any])
    XCTAssertEqual(negatives["labels"] as? [String], ["other"])
    XCTAssertEqual(negatives["windows"] as? Int, 4)
    XCTAssertEqual(try XCTUnwrap(negatives["unknown_share"] as? Double), 0.75, accuracy: 1e-12)
    XCTAssertEqual(
      negatives["unknown_by_reason"] as? [String: Int],
      ["low-confidence": 2, "far-from-training-data": 1])
    let text = result.text()
    XCTAssertTrue(text.contains("negatives answered unknown (4 windows of other)"), text)
    XCTAssertTrue(text.contains("unknown: far-from-training-data"), text)
    XCTAssertFalse(text.contains("unknown: low-confidence"), "no scored window is unsure")
  }

  func testReport_WithoutNegativeWindowsHasNoNegatives() throws {
    var plain = dataset
    plain.recordings = [
      HandMade.recording(session: "a1", subject: "a", means: [1, -0.1], labels: [0, 1])
    ]
    let result = try Evaluation.run(model: model, dataset: plain)
    XCTAssertNil(result.negatives)
    XCTAssertEqual(result.unknownReasons, [nil, .lowConfidence])
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: result.jsonData()) as? [String: Any])
    XCTAssertTrue(json["negatives"] == nil || json["negatives"] is NSNull)
    XCTAssertEqual(json["unknown_by_reason"] as? [String: Int], ["low-confidence": 1])
  }

  func testRun_NegativeLabelsNeedNoModelClassButOtherLabelsDo() throws {
    var unlisted = dataset
    unlisted.negativeLabels = []
    XCTAssertThrowsError(try Evaluation.run(model: model, dataset: unlisted)) { error in
      XCTAssertEqual(
        error as? EvaluationError,
        .unknownLabels(["other"], modelClasses: ["low", "high", "idle"]))
    }
  }

  func testRun_OnlyNegativeWindowsIsNoWindows() {
    var negativesOnly = dataset
    negativesOnly.recordings = [
      HandMade.recording(session: "a1", subject: "a", means: [0.1, 2], labels: [2, 2])
    ]
    XCTAssertThrowsError(try Evaluation.run(model: model, dataset: negativesOnly)) { error in
      guard case .noWindows? = error as? EvaluationError else { return XCTFail("\(error)") }
    }
  }
}
