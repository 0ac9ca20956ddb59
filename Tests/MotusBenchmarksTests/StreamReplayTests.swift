// StreamReplay on short synthetic streams: one label per sample, no label before the first
// window, model classes mapped onto the dataset's labels by name, unknown answers and why.

import MotusBaselines
import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels
import MotusStreaming
import XCTest

@testable import MotusBenchmarks

final class StreamReplayTests: XCTestCase {
  /// One recording of a single channel `x` (or three for acceleration) at `rate` Hz.
  private func stream(_ columns: [[Float]], rate: Double, labels: [Int32]? = nil)
    -> BenchmarkStream
  {
    let n = columns[0].count
    let recording = Recording(
      session: "s", subject: "1", source: "synthetic",
      timestamps: (0..<n).map { Double($0) / rate }, columns: columns,
      labelIndices: labels ?? [Int32](repeating: 0, count: n), sampleRateHz: rate)
    return BenchmarkStream.make(
      name: "1", recordings: [recording], channelCount: columns.count, knownRepetitions: [:])
  }

  func testThresholds_StillSensorIsStationaryAfterTheFirstWindow() {
    // Synthetic: 10 s at 20 Hz of a sensor at rest (-1 g on z). A 2.56 s window is
    // round(51.2) = 51 samples, so the first label comes with sample 51 (index 50).
    let n = 200
    let still = stream(
      [
        [Float](repeating: 0, count: n), [Float](repeating: 0, count: n),
        [Float](repeating: -1, count: n),
      ], rate: 20)
    for vote in [1, 3] {
      let run = StreamReplay.thresholds(
        cutoffs: .typical, voteLength: vote, windowSeconds: 2.56, stream: still, axes: [0, 1, 2],
        labels: ["walking", "stationary"])
      XCTAssertEqual(run.labels.count, n)
      XCTAssertEqual(Array(run.labels[0..<50]), [Int32](repeating: StreamReplay.noLabel, count: 50))
      XCTAssertEqual(Array(run.labels[50...]), [Int32](repeating: 1, count: n - 50))
      XCTAssertGreaterThanOrEqual(run.cpuSeconds, 0)
    }
    // A label the dataset lacks shows as no label.
    let absent = StreamReplay.thresholds(
      cutoffs: .typical, voteLength: 1, windowSeconds: 2.56, stream: still, axes: [0, 1, 2],
      labels: ["walking"])
    XCTAssertTrue(absent.labels.allSatisfy { $0 == StreamReplay.noLabel })
  }

  /// One channel `x` at 10 Hz, windows of 4 samples every 4, the window mean as the only
  /// feature; logits (low, high, idle) = (-2m, 2m, -10), so P(high) = 1 / (1 + e^-4m) nearly.
  private var model: TrainedModel {
    let spec = FeatureSpec(
      recipes: [.copy("x")], channels: ["x"], sampleRateHz: 10, windowLength: 4, hopLength: 4,
      statistics: [.mean], spectral: [], bandEdgesHz: [])
    return TrainedModel(
      featureSpec: spec, standardizer: Standardizer(mean: [0], scale: [1]),
      classifier: .logistic(
        LogisticRegression(
          classes: ["low", "high", "idle"],
          linear: Linear(weight: Matrix(rows: [[-2], [2], [0]]), bias: [0, 0, -10]))),
      confidenceCutoffs: ConfidenceCutoffs(medium: 0.6, high: 0.9),
      metadata: TrainingMetadata(dataDigest: "0000000000000000", seed: 0, motusVersion: "test"))
  }

  func testEngine_OneLabelPerSampleMappedByName() throws {
    // Synthetic: 8 samples at 1, 8 at -1, 4 at 0.1. Predictions come with samples 4, 8, 12,
    // 16 and 20 (indices 3, 7, 11, 15, 19): high, high, low, low, then P(high) ≈ 0.6 for
    // m = 0.1, unknown below the stream's threshold of 0.9.
    let values: [Float] =
      Array(repeating: 1, count: 8) + Array(repeating: -1, count: 8)
      + Array(repeating: 0.1, count: 4)
    var configuration = StreamConfiguration()
    configuration.unknownThreshold = 0.9
    let run = try StreamReplay.engine(
      model: model, configuration: configuration, stream: stream([values], rate: 10),
      channels: ["x"], labels: ["high", "low"])
    let noLabel = StreamReplay.noLabel
    let expected: [Int32] =
      [noLabel, noLabel, noLabel] + Array(repeating: 0, count: 8) + Array(repeating: 1, count: 8)
      + [StreamReplay.unknown]
    XCTAssertEqual(run.labels, expected)
    XCTAssertEqual(run.unknownReasons, Array(repeating: nil, count: 19) + [.lowConfidence])
    XCTAssertEqual(run.repetitions, 0)
    XCTAssertNil(run.firstRepetitionTime)
  }

  func testEngine_RangeReplaysPartOfTheStream() throws {
    let values: [Float] = Array(repeating: -1, count: 8) + Array(repeating: 1, count: 8)
    let run = try StreamReplay.engine(
      model: model, configuration: StreamConfiguration(), stream: stream([values], rate: 10),
      range: 8..<16, channels: ["x"], labels: ["high", "low"])
    let noLabel = StreamReplay.noLabel
    XCTAssertEqual(run.labels, [noLabel, noLabel, noLabel, 0, 0, 0, 0, 0])
    XCTAssertEqual(run.unknownReasons.count, 8)
  }

  func testEngine_MissingChannelThrows() {
    XCTAssertThrowsError(
      try StreamReplay.engine(
        model: model, configuration: StreamConfiguration(), stream: stream([[0, 0]], rate: 10),
        channels: ["y"], labels: ["high"]))
  }
}
