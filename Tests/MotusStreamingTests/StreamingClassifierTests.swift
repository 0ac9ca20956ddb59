import CMallocCounter
import Foundation
import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels
import MotusSimulation
import MotusStreaming
import MotusTestSupport
import XCTest

// Every recording here is synthetic (ActivitySimulator).
final class StreamingClassifierTests: XCTestCase {
  /// Streaming must reproduce batch evaluation window by window.
  func testStreaming_MatchesBatchProbabilities() throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 99)
    let recording = simulator.recording(
      segments: [(.walking, 12), (.stationary, 8), (.pushUp, 10)], subject: 7)
    let batch = try StreamAgreement.batchProbabilities(model: model, recording: recording).probabilities

    let engine = try StreamingClassifier(model: model, inputChannels: ActivitySimulator.channels)
    XCTAssertFalse(engine.isResampling)
    StreamAgreement.assertMatch(StreamAgreement.streamedProbabilities(recording, engine: engine), batch, "streaming vs batch")
  }

  /// A model that also summarises recent windows: the stream restarts that summary at a gap
  /// as loading starts a new recording there, so every window still matches batch.
  func testStreamingWithContext_MatchesBatchAcrossAGap() throws {
    var spec = try StreamAgreement.model().featureSpec
    spec.context = FeatureContext.recentIntensity(
      windowCount: 6, windowFeatures: spec.windowFeatureNames)
    let model = try TrainedModel.randomlyWeighted(spec: spec)
    var simulator = ActivitySimulator(seed: 21)
    var recording = simulator.recording(
      segments: [(.walking, 8), (.stationary, 6), (.running, 8)], subject: 3)
    // A 2 s gap after 10 s: loading splits the recording there, the stream restarts.
    for t in 500..<recording.timestamps.count { recording.timestamps[t] += 2 }
    let batch = try StreamAgreement.batchProbabilities(model: model, recording: recording)
    let engine = try StreamingClassifier(model: model, inputChannels: ActivitySimulator.channels)
    StreamAgreement.assertMatch(
      StreamAgreement.streamedProbabilities(recording, engine: engine), batch.probabilities,
      "streaming with context vs batch")
  }

  func testMissingChannel_FailsAtStart() throws {
    let model = try StreamAgreement.model()
    XCTAssertThrowsError(
      try StreamingClassifier(model: model, inputChannels: ["acceleration.x", "acceleration.y"])
    ) { error in
      XCTAssertTrue("\(error)".contains("acceleration.z"), "\(error)")
    }
  }

  func testGap_RestartsWindowAndIsReported() throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 4)
    var recording = simulator.recording(.walking, subject: 2, seconds: 10)
    // Shift the second half 2 s later: a gap of 100 sample periods.
    for t in 250..<recording.timestamps.count { recording.timestamps[t] += 2 }
    let engine = try StreamingClassifier(model: model, inputChannels: ActivitySimulator.channels)
    let events = StreamingFixture.stream(recording, engine: engine)
    let gaps = events.compactMap { e -> (Double, Double)? in
      if case .gap(let from, let to) = e { return (from, to) } else { return nil }
    }
    XCTAssertEqual(gaps.count, 1)
    XCTAssertEqual(gaps.first?.0 ?? 0, recording.timestamps[249], accuracy: 1e-9)
    // 250 samples before (1 window at 128, one more at 192) and 250 after (likewise).
    XCTAssertEqual(engine.statistics.predictions, 4)
    let firstAfterGap = events.compactMap { e -> StreamPrediction? in
      if case .prediction(let p) = e, p.windowStart >= recording.timestamps[250] { return p }
      return nil
    }.first
    XCTAssertEqual(firstAfterGap?.windowStart ?? -1, recording.timestamps[250], accuracy: 1e-9)
  }

  /// A 0.1 s hiccup (5 sample periods) is jitter under the loader's 0.25 s floor: bridged, as
  /// `motus evaluate` bridges it; with no floor the factor alone restarts the window.
  func testHiccup_UnderTheGapFloorIsBridgedAsLoadingBridgesIt() throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 4)
    var recording = simulator.recording(.walking, subject: 2, seconds: 10)
    for t in 250..<recording.timestamps.count { recording.timestamps[t] += 0.08 }
    let bridged = try StreamingClassifier(model: model, inputChannels: ActivitySimulator.channels)
    _ = StreamingFixture.stream(recording, engine: bridged)
    XCTAssertEqual(bridged.statistics.gaps, 0)
    var noFloor = StreamConfiguration()
    noFloor.gapRule.minimumGapSeconds = 0
    let split = try StreamingClassifier(
      model: model, inputChannels: ActivitySimulator.channels, configuration: noFloor)
    _ = StreamingFixture.stream(recording, engine: split)
    XCTAssertEqual(split.statistics.gaps, 1)
  }

  func testNaNSamples_AreSkippedAndCounted() throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 6)
    let recording = simulator.recording(.stationary, subject: 3, seconds: 6)
    let engine = try StreamingClassifier(model: model, inputChannels: ActivitySimulator.channels)
    _ = StreamingFixture.stream(recording, engine: engine) { t, row in
      if t % 50 == 7 { row[2] = .nan }
    }
    XCTAssertEqual(engine.statistics.samplesSkippedNaN, 6)
    XCTAssertEqual(engine.statistics.samplesReceived, 300)
    XCTAssertEqual(engine.statistics.gaps, 0)
  }

  func testNaNTimestamp_IsSkippedNotPoisoning() throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 6)
    var recording = simulator.recording(.stationary, subject: 3, seconds: 6)
    recording.timestamps[0] = .nan
    let engine = try StreamingClassifier(model: model, inputChannels: ActivitySimulator.channels)
    _ = StreamingFixture.stream(recording, engine: engine)
    XCTAssertEqual(engine.statistics.samplesSkippedNaN, 1)
    XCTAssertEqual(engine.statistics.samplesSkippedOutOfOrder, 0)
    // 299 samples: windows at 128, 192, 256.
    XCTAssertEqual(engine.statistics.predictions, 3)
  }

  func testSegments_FollowActivityChanges() throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 21)
    let recording = simulator.recording(
      segments: [(.stationary, 15), (.running, 15)], subject: 9)
    var configuration = StreamConfiguration()
    configuration.smoothing = .hiddenMarkov(switchProbability: 0.05)
    let engine = try StreamingClassifier(
      model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
    let events = StreamingFixture.stream(recording, engine: engine)
    let segments = events.compactMap { e -> ActivitySegment? in
      if case .segment(let s) = e { return s } else { return nil }
    }
    let lastWindowEnd = events.compactMap { e -> Double? in
      if case .prediction(let p) = e { return p.windowEnd } else { return nil }
    }.last
    XCTAssertEqual(segments.first?.label, "stationary")
    XCTAssertEqual(segments.last?.label, "running")
    XCTAssertEqual(segments.first?.start ?? -1, 0, accuracy: 1e-9)
    XCTAssertEqual(segments.last?.end ?? -1, lastWindowEnd ?? 0, accuracy: 1e-9)
    // Contiguous, and anything between the two activities is a brief transition (windows
    // that straddle the change), not flicker.
    for (a, b) in zip(segments, segments.dropFirst()) { XCTAssertEqual(a.end, b.start, accuracy: 1e-9) }
    for middle in segments.dropFirst().dropLast() {
      XCTAssertLessThanOrEqual(middle.predictionCount, 2, "\(segments)")
    }
  }

  func testAppend_MakesNoHeapAllocationOnceWarm() throws {
    guard motus_allocation_count() != UInt64.max else {
      throw XCTSkip("allocation counting needs glibc")
    }
    #if DEBUG
      // Unoptimised code boxes and copies freely; the claim is about the code an app ships.
      throw XCTSkip("allocation counting needs an optimised build: bash scripts/test.sh runs it")
    #endif
    for model in [
      try StreamAgreement.model(),
      try TrainedModel.randomlyWeighted(
        channels: ActivitySimulator.channels, sampleRateHz: 50, contextWindows: 8),
    ] {
      try assertNoAllocationPerSample(model: model)
    }
  }

  private func assertNoAllocationPerSample(model: TrainedModel) throws {
    var simulator = ActivitySimulator(seed: 8)
    let recording = simulator.recording(segments: [(.walking, 10), (.pushUp, 10)], subject: 4)
    var configuration = StreamConfiguration()
    configuration.smoothing = .hiddenMarkov(switchProbability: 0.05)
    let engine = try StreamingClassifier(
      model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
    var row = [Float](repeating: 0, count: 6)
    var predictions = 0
    func feed(_ range: Range<Int>) {
      for t in range {
        for c in 0..<6 { row[c] = recording.columns[c][t] }
        row.withUnsafeBufferPointer { values in
          engine.append(timestamp: recording.timestamps[t], values: values) { event in
            if case .prediction = event { predictions += 1 }
          }
        }
      }
    }
    feed(0..<300)  // warm: the first windows and predictions
    let before = motus_allocation_count()
    feed(300..<recording.timestamps.count)
    let allocations = motus_allocation_count() - before
    XCTAssertGreaterThan(predictions, 10)
    XCTAssertEqual(allocations, 0, "\(allocations) allocations over 700 samples")
  }

  /// The budget: under 64 KB per stream for a 12-channel 50 Hz model with an MLP(64)
  /// (the model itself is shared between streams and not counted).
  func testEngine_HoldsUnder64KilobytesPerStream() throws {
    guard motus_live_heap_bytes() != Int64.min else { throw XCTSkip("byte counting needs glibc") }
    let channels = ["userAcceleration", "gravity", "rotationRate"].flatMap { g in
      ["x", "y", "z"].map { "\(g).\($0)" }
    } + ["attitude.roll", "attitude.pitch", "attitude.yaw"]
    let model = try TrainedModel.randomlyWeighted(channels: channels)
    var engines: [StreamingClassifier] = []
    let before = motus_live_heap_bytes()
    for _ in 0..<16 { engines.append(try StreamingClassifier(model: model, inputChannels: channels)) }
    // Warm them: the first predictions must not grow anything either.
    var row = [Float](repeating: 0.1, count: channels.count)
    for engine in engines {
      for t in 0..<300 {
        row[0] = Float(t % 7)
        row.withUnsafeBufferPointer { engine.append(timestamp: Double(t) / 50, values: $0) { _ in } }
      }
    }
    let perEngine = Double(motus_live_heap_bytes() - before) / Double(engines.count)
    print("live heap per stream: \(Int(perEngine)) bytes")
    XCTAssertLessThan(perEngine, 64 * 1024)
    XCTAssertGreaterThan(perEngine, 12 * 128 * 4, "the ring buffer alone holds 6 KB")
  }
}
