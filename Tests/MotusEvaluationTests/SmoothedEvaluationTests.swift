// `Evaluation.run(smoothing:)` on the hand-made model and data (see HandMade): each
// recording's windows are smoothed in time order, restarting at every recording.

import MotusData
import MotusLinearAlgebra
import MotusStreaming
import XCTest

@testable import MotusEvaluation

final class SmoothedEvaluationTests: XCTestCase {
  private let smoothing = Smoothing.hiddenMarkov(switchProbability: 0.1)

  /// `rows` of `raw` after one smoother per run of consecutive rows in `runs`.
  private func smoothed(_ raw: Matrix, runs: [Range<Int>]) -> [[Float]] {
    var out: [[Float]] = []
    for run in runs {
      var smoother = PredictionSmoother(
        smoothing: smoothing, classCount: raw.columnCount,
        evidenceWeight: HandMade.model.featureSpec.evidenceWeight)
      for i in run {
        var row = raw.row(i)
        row.withUnsafeMutableBufferPointer { smoother.smooth($0) }
        out.append(row)
      }
    }
    return out
  }

  func testRun_SmoothsEachRecordingAndRestartsBetweenThem() throws {
    let raw = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    let result = try Evaluation.run(
      model: HandMade.model, dataset: HandMade.dataset, smoothing: smoothing)
    XCTAssertEqual(result.smoothing, smoothing)
    XCTAssertEqual(result.truth, raw.truth)
    // Recording a1 holds windows 0-2, b1 windows 3-4.
    let expected = smoothed(raw.probabilities, runs: [0..<3, 3..<5])
    for i in 0..<5 {
      for (got, want) in zip(result.probabilities.row(i), expected[i]) {
        XCTAssertEqual(got, want, accuracy: 1e-6, "window \(i)")
      }
    }
    // b1 starts afresh: its first window keeps its own probabilities.
    XCTAssertEqual(result.probabilities.row(3), raw.probabilities.row(3))
    // b1's second window (mean -0.25, read as low alone) is held at the first window's high,
    // its true label; a1's third window is pulled towards low but its evidence wins.
    XCTAssertEqual(raw.predicted[4], 0)
    XCTAssertEqual(result.predicted[4], 1)
    XCTAssertLessThan(result.probabilities[2, 1], raw.probabilities[2, 1])
    XCTAssertEqual(result.predicted[2], 1)
    XCTAssertEqual(result.accuracy, 4.0 / 5.0, accuracy: 1e-12)
  }

  func testRun_ImpureWindowsFeedTheSmootherButAreNotScored() throws {
    // Three windows of 4 samples: mean -1 (low), an impure one (two high samples, two low),
    // then mean 0.5 labelled low.
    let values: [Float] = [-1, -1, -1, -1, 1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5]
    let labels: [Int32] = [1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1]
    let dataset = Dataset(
      channels: ["x"], labels: ["high", "low"],
      recordings: [
        Recording(
          session: "mixed", subject: "a", source: "hand-made",
          timestamps: values.indices.map { Double($0) / 10 }, columns: [values],
          labelIndices: labels, sampleRateHz: 10)
      ])
    let every = try Evaluation.run(model: HandMade.model, dataset: dataset, smoothing: smoothing)
    XCTAssertEqual(every.windowCount, 3)
    let pure = try Evaluation.run(
      model: HandMade.model, dataset: dataset, minimumPurity: 0.75, smoothing: smoothing)
    XCTAssertEqual(pure.windowCount, 2)
    XCTAssertEqual(pure.droppedImpureCount, 1)
    XCTAssertEqual(pure.startTimes, [0, 0.8])
    // The last window saw the impure one's evidence for high, as a stream would.
    XCTAssertEqual(pure.probabilities.row(1), every.probabilities.row(2))
    let withoutImpure = smoothed(
      try Evaluation.run(model: HandMade.model, dataset: dataset).probabilities.rows([0, 2]),
      runs: [0..<2])
    XCTAssertGreaterThan(abs(pure.probabilities[1, 1] - withoutImpure[1][1]), 1e-3)
    // Without smoothing the impure window is dropped the same way.
    let unsmoothed = try Evaluation.run(
      model: HandMade.model, dataset: dataset, minimumPurity: 0.75)
    XCTAssertEqual(unsmoothed.droppedImpureCount, 1)
    XCTAssertEqual(unsmoothed.windowCount, 2)
  }

  func testSmoothAlongRecordings_RestartsAtAGapInStarts() {
    // Two rows of one recording whose starts are two hops apart: a gap, so a restart.
    let raw = Matrix(rows: [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7]])
    var gapped = raw
    Evaluation.smoothAlongRecordings(
      &gapped, recordings: [0, 0, 0], starts: [0, 4, 12], hop: 4
    ) { PredictionSmoother(smoothing: smoothing, classCount: 2) }
    XCTAssertEqual(gapped.row(2), raw.row(2))
    XCTAssertNotEqual(gapped.row(1), raw.row(1))
    var unbroken = raw
    Evaluation.smoothAlongRecordings(
      &unbroken, recordings: [0, 0, 0], starts: [0, 4, 8], hop: 4
    ) { PredictionSmoother(smoothing: smoothing, classCount: 2) }
    XCTAssertNotEqual(unbroken.row(2), raw.row(2))
  }

  func testReports_NameTheSmoothing() throws {
    let result = try Evaluation.run(
      model: HandMade.model, dataset: HandMade.dataset, smoothing: smoothing)
    XCTAssertEqual(result.report.smoothing, "hmm switch-probability=0.1")
    XCTAssertTrue(result.text().contains("(hmm switch-probability=0.1)"), result.text())
    XCTAssertTrue(result.csv().contains("overall,,smoothing,hmm switch-probability=0.1"))
    let raw = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    XCTAssertEqual(raw.report.smoothing, "none")
    XCTAssertFalse(raw.text().contains("smoothed"))
  }
}
