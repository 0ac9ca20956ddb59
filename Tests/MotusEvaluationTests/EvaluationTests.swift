import Foundation
import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusOutput
import MotusTraining
import XCTest

@testable import MotusEvaluation

final class EvaluationTests: XCTestCase {
  /// P(high) for window mean m (see HandMade), with the `idle` logit -10 included.
  private func probabilities(_ m: Double) -> (low: Double, high: Double) {
    let low = exp(-2 * m), high = exp(2 * m), idle = exp(-10.0)
    let sum = low + high + idle
    return (low / sum, high / sum)
  }

  func testRun_HandMadeCaseGivesWorkedOutMetrics() throws {
    let result = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    XCTAssertEqual(result.windowCount, 5)
    XCTAssertEqual(result.classes, ["low", "high", "idle"])
    // Truth (model indices): low = 0, high = 1. a: high, low, low; b: high, high.
    XCTAssertEqual(result.truth, [1, 0, 0, 1, 1])
    XCTAssertEqual(result.predicted, [1, 0, 1, 1, 0])
    // rows = truth (low, high, idle), columns = predicted.
    XCTAssertEqual(result.confusion.counts, [[1, 1, 0], [1, 2, 0], [0, 0, 0]])
    XCTAssertEqual(result.accuracy, 3.0 / 5.0, accuracy: 1e-12)
    // low: precision 1/2, recall 1/2, F1 1/2; high: precision 2/3, recall 2/3, F1 2/3.
    XCTAssertEqual(result.perClass[0].precision, 0.5, accuracy: 1e-12)
    XCTAssertEqual(result.perClass[1].recall, 2.0 / 3.0, accuracy: 1e-12)
    XCTAssertEqual(result.macroF1, (0.5 + 2.0 / 3.0) / 2, accuracy: 1e-12)
    XCTAssertEqual(result.balancedAccuracy, (0.5 + 2.0 / 3.0) / 2, accuracy: 1e-12)
    // The model class absent from the data has support 0 and does not count in macro-F1.
    XCTAssertEqual(result.perClass[2].support, 0)
    let trueProbabilities = [
      probabilities(1).high, probabilities(-1).low, probabilities(0.5).low, probabilities(2).high,
      probabilities(-0.25).high,
    ]
    let expectedLogLoss = -trueProbabilities.map { log($0) }.reduce(0, +) / 5
    XCTAssertEqual(result.logLoss, expectedLogLoss, accuracy: 1e-5)
    // ECE: top probabilities and correctness per window; 15 bins of width 1/15.
    let top = [
      probabilities(1).high, probabilities(-1).low, probabilities(0.5).high,
      probabilities(2).high, probabilities(-0.25).low,
    ]
    let correct = [true, true, false, true, false]
    var bins: [Int: (n: Double, hits: Double, confidence: Double)] = [:]
    for (p, ok) in zip(top, correct) {
      let b = Int((p * 15).rounded(.up)) - 1
      let old = bins[b] ?? (0, 0, 0)
      bins[b] = (old.n + 1, old.hits + (ok ? 1 : 0), old.confidence + p)
    }
    let ece = bins.values.reduce(0.0) { $0 + abs($1.hits - $1.confidence) / 5 }
    XCTAssertEqual(result.expectedCalibrationError, ece, accuracy: 1e-5)
    XCTAssertEqual(result.skippedRecordings.map(\.session), ["c1"])
    XCTAssertEqual(result.startTimes, [0, 0.4, 0.8, 0, 0.4])
  }

  func testRun_UnknownLabelsThrowWithHint() {
    var dataset = HandMade.dataset
    dataset.labels = ["high", "jump"]
    XCTAssertThrowsError(try Evaluation.run(model: HandMade.model, dataset: dataset)) { error in
      XCTAssertEqual(
        error as? EvaluationError,
        .unknownLabels(["jump"], modelClasses: ["low", "high", "idle"]))
      let text = "\(error)"
      XCTAssertTrue(text.contains("jump") && text.contains("HINT") && text.contains("--map"), text)
    }
  }

  func testRun_NoWindowsThrows() {
    let dataset = Dataset(
      channels: ["x"], labels: ["high"],
      recordings: [HandMade.dataset.recordings[2]])
    XCTAssertThrowsError(try Evaluation.run(model: HandMade.model, dataset: dataset)) { error in
      guard case .noWindows(let skipped, _, _)? = error as? EvaluationError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(skipped, 1)
    }
  }

  func testCheckChannels_MismatchNamesBothSides() {
    XCTAssertNoThrow(try Evaluation.checkChannels([.copy("x")], model: HandMade.model))
    XCTAssertThrowsError(
      try Evaluation.checkChannels([.copy("x", scale: -1)], model: HandMade.model)
    ) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("x = copy(x) * -1.0") && text.contains("HINT"), text)
    }
  }

  func testBreakdowns_SumToTheWhole() throws {
    let result = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    for groups in [result.perSubject, result.perSession] {
      XCTAssertEqual(groups.map(\.windows).reduce(0, +), result.windowCount)
      let correct = groups.reduce(0.0) { $0 + $1.accuracy * Double($1.windows) }
      XCTAssertEqual(correct / Double(result.windowCount), result.accuracy, accuracy: 1e-12)
    }
    // Worst first: b (1 of 2 right) before a (2 of 3).
    XCTAssertEqual(result.perSubject.map(\.name), ["b", "a"])
    XCTAssertEqual(result.perSubject[0].accuracy, 0.5, accuracy: 1e-12)
  }

  func testReliability_BinsReproduceMetricsECE() throws {
    // A larger random case: 200 rows, 4 classes.
    var generator = SplitMix64(seed: 3)
    var values: [Float] = []
    var truth: [Int] = []
    for _ in 0..<200 {
      var row = (0..<4).map { _ in generator.nextUnitFloat() + 0.01 }
      let total = row.reduce(0, +)
      row = row.map { $0 / total }
      values += row
      truth.append(generator.nextInt(below: 4))
    }
    let p = Matrix(rowCount: 200, columnCount: 4, values: values)
    let result = EvaluationResult(
      classes: ["a", "b", "c", "d"], truth: truth, predicted: Metrics.argmax(p), probabilities: p,
      sessions: truth.map { "s\($0)" }, subjects: truth.map { _ in "u" },
      startTimes: truth.indices.map(Double.init), windowLength: 4, hopLength: 2, sampleRateHz: 10)
    XCTAssertEqual(result.reliability.count, 15)
    XCTAssertEqual(result.reliability.map(\.count).reduce(0, +), 200)
    let fromBins = result.reliability.filter { $0.count > 0 }.reduce(0.0) {
      $0 + Double($1.count) / 200 * abs($1.accuracy - $1.meanConfidence)
    }
    XCTAssertEqual(fromBins, result.expectedCalibrationError, accuracy: 1e-9)
    XCTAssertEqual(
      result.expectedCalibrationError,
      Metrics.expectedCalibrationError(probabilities: p, labels: truth),
      accuracy: 1e-12)
  }

  func testJSON_HasKeysConsistentWithText() throws {
    let result = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: result.jsonData()) as? [String: Any])
    for key in [
      "accuracy", "macro_f1", "balanced_accuracy", "log_loss", "ece", "confusion_matrix",
      "per_class", "windows", "per_subject", "per_session", "skipped_recordings",
    ] {
      XCTAssertNotNil(object[key], "missing \(key)")
    }
    let accuracy = try XCTUnwrap(object["accuracy"] as? Double)
    let logLoss = try XCTUnwrap(object["log_loss"] as? Double)
    XCTAssertEqual(accuracy, result.accuracy)
    XCTAssertEqual(object["windows"] as? Int, 5)
    let matrix = try XCTUnwrap(object["confusion_matrix"] as? [String: Any])
    XCTAssertEqual(matrix["labels"] as? [String], ["low", "high", "idle"])
    XCTAssertEqual(matrix["counts"] as? [[Int]], [[1, 1, 0], [1, 2, 0], [0, 0, 0]])
    let perClass = try XCTUnwrap(object["per_class"] as? [String: [String: Any]])
    XCTAssertEqual(perClass["idle"]?["support"] as? Int, 0)
    XCTAssertEqual(perClass["high"]?["support"] as? Int, 3)
    let perSubject = try XCTUnwrap(object["per_subject"] as? [String: [String: Any]])
    XCTAssertEqual(perSubject["b"]?["windows"] as? Int, 2)
    let skipped = try XCTUnwrap(object["skipped_recordings"] as? [[String: Any]])
    XCTAssertEqual(skipped.first?["session"] as? String, "c1")

    // The text shows the same figures, rounded to 4 decimals.
    let text = result.text()
    let lines = text.split(separator: "\n").map(String.init)
    func value(_ name: String) -> Double? {
      lines.first { $0.hasPrefix(name + " ") }.flatMap { $0.split(separator: " ").last }
        .flatMap { Double($0) }
    }
    XCTAssertEqual(try XCTUnwrap(value("accuracy")), accuracy, accuracy: 5e-5)
    XCTAssertEqual(try XCTUnwrap(value("log loss")), logLoss, accuracy: 5e-5)
    XCTAssertTrue(text.contains("Per subject (worst first):"), text)
    XCTAssertTrue(text.contains("c1"), "skipped recording missing from text:\n\(text)")
    // Normalised rows: the `high` row is 1/3, 2/3, 0.
    XCTAssertTrue(result.text(normalize: true).contains("0.333  0.667  0.000"))
  }

  func testCSV_QuotesAndCarriesOverallMetrics() throws {
    let result = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    let csv = result.csv()
    XCTAssertTrue(csv.hasPrefix("section,name,metric,value\n"))
    XCTAssertTrue(csv.contains("overall,,accuracy,\(result.accuracy)\n"))
    XCTAssertTrue(csv.contains("confusion,high,low,1\n"))
    XCTAssertEqual(CSVText.field("a,b\"c"), "\"a,b\"\"c\"")
  }
}

final class PerSourceBreakdownTests: XCTestCase {
  func testPerSource_GroupsManifestSubjectsBySourceAndIsEmptyOtherwise() throws {
    // Source "x": subjects x:a (2 of 3 right) and x:c (1 of 1); source "y": y:b (1 of 2).
    let dataset = Dataset(
      channels: ["x"], labels: ["high", "low"],
      recordings: [
        HandMade.recording(session: "a1", subject: "x:a", means: [1, -1, 0.5], labels: [0, 1, 1]),
        HandMade.recording(session: "b1", subject: "y:b", means: [2, -0.25], labels: [0, 0]),
        HandMade.recording(session: "c1", subject: "x:c", means: [3], labels: [0]),
      ])
    let result = try Evaluation.run(model: HandMade.model, dataset: dataset)
    XCTAssertEqual(result.perSource.map(\.name), ["y", "x"])
    XCTAssertEqual(result.perSource.map(\.windows), [2, 4])
    XCTAssertEqual(result.perSource[0].accuracy, 0.5, accuracy: 1e-12)
    XCTAssertEqual(result.perSource[1].accuracy, 0.75, accuracy: 1e-12)
    XCTAssertEqual(result.report.perSource["x"]?.windows, 4)
    XCTAssertTrue(result.text().contains("Per source (worst first):"), result.text())
    XCTAssertTrue(result.csv().contains("source,x,windows,4"), result.csv())

    // Plain subject names (no source prefix): no per-source section.
    let plain = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    XCTAssertTrue(plain.perSource.isEmpty)
    XCTAssertFalse(plain.text().contains("Per source"))
  }
}
