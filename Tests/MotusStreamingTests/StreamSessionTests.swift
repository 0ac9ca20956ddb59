// `StreamSession` on labelled synthetic rows: each session gets its own engine, a pause
// restarts the window, and the input rate comes from a session's first rows.

import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels
import MotusStreaming
import XCTest

final class StreamSessionTests: XCTestCase {
  /// Mean |acceleration| above 1 is "moving", below it "still"; 10 Hz, windows of 4, hop 4.
  private static let model: TrainedModel = {
    let axes = ["acceleration.x", "acceleration.y", "acceleration.z"]
    let spec = FeatureSpec(
      recipes: axes.map { ChannelRecipe.copy($0) }
        + [ChannelRecipe(name: "|acceleration|", operation: .magnitude, inputs: axes)],
      channels: ["|acceleration|"], sampleRateHz: 10, windowLength: 4, hopLength: 4,
      statistics: [.mean], spectral: [], bandEdgesHz: [])
    return TrainedModel(
      featureSpec: spec, standardizer: Standardizer(mean: [1], scale: [1]),
      classifier: .logistic(
        LogisticRegression(
          classes: ["still", "moving"],
          linear: Linear(weight: Matrix(rows: [[-4], [4]]), bias: [0, 0]))),
      confidenceCutoffs: ConfidenceCutoffs(medium: 0.6, high: 0.9),
      metadata: TrainingMetadata(dataDigest: "0000000000000000", seed: 0, motusVersion: "test"))
  }()
  private static let channels = ["acceleration.x", "acceleration.y", "acceleration.z"]

  /// A labelled synthetic row: |acceleration| is 0.2 when still, 3 when moving.
  private struct Row {
    var time: Double
    var session: String?
    var label: String
    var values: [Float] { label == "moving" ? [3, 0, 0] : [0.2, 0, 0] }
  }

  private static func rows(
    _ label: String, session: String?, from start: Double, count: Int, rateHz: Double = 10
  ) -> [Row] {
    (0..<count).map { Row(time: start + Double($0) / rateHz, session: session, label: label) }
  }

  /// Streams `rows` and returns every output with the session's label of each prediction.
  private func run(_ session: StreamSession, _ rows: [Row]) throws
    -> [(event: StreamEvent, session: String?)]
  {
    var out: [(StreamEvent, String?)] = []
    let collect: (StreamSession.Output) -> Bool = { output in
      if case .event(let event, let name) = output { out.append((event, name)) }
      return true
    }
    for row in rows {
      let more = try row.values.withUnsafeBufferPointer {
        try session.append(
          .sample(time: row.time, session: row.session), values: $0, consumer: collect)
      }
      XCTAssertTrue(more)
    }
    try session.finish(consumer: collect)
    return out
  }

  private func predictions(_ events: [(event: StreamEvent, session: String?)])
    -> [(prediction: StreamPrediction, session: String?)]
  {
    events.compactMap { item in
      if case .prediction(let p) = item.event { return (p, item.session) }
      return nil
    }
  }

  func testNewSessionStartsItsOwnEngine() throws {
    let session = StreamSession(model: Self.model, inputChannels: Self.channels)
    // Session b continues a's clock without a pause: only the session column separates them.
    let rows =
      Self.rows("still", session: "a", from: 0, count: 20)
      + Self.rows("moving", session: "b", from: 2, count: 20)
    let events = try run(session, rows)
    let predicted = predictions(events)
    XCTAssertEqual(
      predicted.map(\.session), Array(repeating: "a", count: 5) + Array(repeating: "b", count: 5))
    for (p, name) in predicted {
      XCTAssertEqual(Self.model.classes[p.classIndex], name == "a" ? "still" : "moving")
    }
    // b's first window starts on b's first row, not on a's leftovers.
    let firstOfB = try XCTUnwrap(predicted.first { $0.session == "b" })
    XCTAssertEqual(firstOfB.prediction.windowStart, 2, accuracy: 1e-9)
    // One segment per session, closed when the session ends.
    let segments = events.compactMap { item -> (String, String?)? in
      if case .segment(let s) = item.event { return (s.label, item.session) }
      return nil
    }
    XCTAssertEqual(segments.map(\.0), ["still", "moving"])
    XCTAssertEqual(segments.map(\.1), ["a", "b"])
    XCTAssertEqual(session.statistics.samplesReceived, 40)
    XCTAssertEqual(session.statistics.predictions, 10)
    XCTAssertEqual(session.statistics.gaps, 0)
  }

  /// Later sessions reuse the first engine's planned extractor: their probabilities are those
  /// of a fresh engine fed the same rows, every class's as each prediction event carries them.
  func testLaterSessions_AnswerAsAFreshEngineWould() throws {
    let session = StreamSession(model: Self.model, inputChannels: Self.channels)
    var rowsOfB = Self.rows("moving", session: "b", from: 2, count: 12)
    for i in rowsOfB.indices where i % 3 == 0 { rowsOfB[i].label = "still" }
    let events = try run(session, Self.rows("still", session: "a", from: 0, count: 12) + rowsOfB)
    let streamed = predictions(events).filter { $0.session == "b" }.map(\.prediction.probabilities)

    let fresh = try StreamingClassifier(
      model: Self.model, inputChannels: Self.channels,
      configuration: { var c = StreamConfiguration(); c.inputRateHz = 10; return c }())
    var expected: [[Float]] = []
    let collect: (StreamEvent) -> Void = { event in
      guard case .prediction(let p) = event else { return }
      XCTAssertEqual(p.probabilities, fresh.probabilities)
      XCTAssertEqual(p.probabilities[p.classIndex], p.probability)
      expected.append(p.probabilities)
    }
    for row in rowsOfB {
      row.values.withUnsafeBufferPointer {
        fresh.append(timestamp: row.time, values: $0, events: collect)
      }
    }
    fresh.finish(events: collect)
    XCTAssertEqual(streamed.count, 3)
    XCTAssertEqual(streamed.map(\.count), [2, 2, 2])
    XCTAssertEqual(streamed, expected)
  }

  func testPauseRestartsTheWindow() throws {
    var configuration = StreamConfiguration()
    configuration.inputRateHz = 10
    let session = StreamSession(
      model: Self.model, inputChannels: Self.channels, configuration: configuration)
    // 1.8 s of rows, a 5 s pause, then 1.6 s more of the same session.
    let rows =
      Self.rows("moving", session: nil, from: 0, count: 18)
      + Self.rows("moving", session: nil, from: 6.8, count: 16)
    let events = try run(session, rows)
    let gaps = events.compactMap { item -> (Double, Double)? in
      if case .gap(let from, let to) = item.event { return (from, to) }
      return nil
    }
    XCTAssertEqual(gaps.count, 1)
    XCTAssertEqual(gaps.first?.0 ?? 0, 1.7, accuracy: 1e-9)
    XCTAssertEqual(gaps.first?.1 ?? 0, 6.8, accuracy: 1e-9)
    XCTAssertEqual(session.statistics.gaps, 1)
    // 18 rows give 4 windows (2 left over), the 16 after the pause 4 more, from 6.8 on.
    let starts = predictions(events).map(\.prediction.windowStart)
    XCTAssertEqual(starts.count, 8)
    XCTAssertEqual(starts[4], 6.8, accuracy: 1e-9)
  }

  func testRateIsEstimatedFromTheFirstRows() throws {
    let session = StreamSession(
      model: Self.model, inputChannels: Self.channels, rateEstimateRows: 32)
    XCTAssertTrue(session.estimatesInputRate)
    var outputs = 0
    let rows = Self.rows("moving", session: "s", from: 0, count: 80, rateHz: 40)
    for (i, row) in rows.enumerated() {
      _ = try row.values.withUnsafeBufferPointer {
        try session.append(.sample(time: row.time, session: row.session), values: $0) { _ in
          outputs += 1
          return true
        }
      }
      if i < 31 {
        // The first rows wait for the rate: no engine, nothing out yet.
        XCTAssertNil(session.inputRateHz)
        XCTAssertEqual(outputs, 0)
      } else {
        XCTAssertEqual(try XCTUnwrap(session.inputRateHz), 40, accuracy: 1e-6)
      }
    }
    try session.finish { _ in true }
    // 2 s at 40 Hz, resampled to the model's 10 Hz: 5 windows of 4 (taken as 10 Hz: 20).
    XCTAssertEqual(session.statistics.predictions, 5)
    XCTAssertEqual(session.statistics.samplesReceived, 80)
  }

  func testSkippedRowsAreCountedAndHandedBack() throws {
    let session = StreamSession(model: Self.model, inputChannels: Self.channels)
    let error = CSVError.unreadable(file: "live.csv", reason: "test")
    var skipped: [CSVError] = []
    let empty = [Float](repeating: 0, count: 3)
    for row in [StreamRowReader.Row.skipped(error), .blank, .skipped(error)] {
      let more = try empty.withUnsafeBufferPointer {
        try session.append(row, values: $0) { output in
          if case .skippedRow(let e) = output { skipped.append(e) }
          return true
        }
      }
      XCTAssertTrue(more)
    }
    XCTAssertEqual(session.rowsSkipped, 2)
    XCTAssertEqual(skipped.count, 2)
    XCTAssertEqual(session.statistics.samplesReceived, 0)
  }

  func testStoppedConsumerEndsTheStream() throws {
    var configuration = StreamConfiguration()
    configuration.inputRateHz = 10
    let session = StreamSession(
      model: Self.model, inputChannels: Self.channels, configuration: configuration)
    var more = true
    var received = 0
    for row in Self.rows("moving", session: nil, from: 0, count: 40) where more {
      more = try row.values.withUnsafeBufferPointer {
        try session.append(.sample(time: row.time, session: nil), values: $0) { _ in
          received += 1
          return false
        }
      }
    }
    try session.finish { _ in
      received += 1
      return true
    }
    // The first prediction (4th row) was refused: the stream stopped there, counts kept.
    XCTAssertEqual(received, 1)
    XCTAssertEqual(session.statistics.samplesReceived, 4)
  }
}
