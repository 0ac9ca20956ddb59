// The stages after the classifier (steps, repetitions, segments) as `StreamingClassifier`
// composes them, on SYNTHETIC recordings (ActivitySimulator): which channel they count on, and
// no heap allocation per sample with every stage running, directly and through `StreamSession`.

import CMallocCounter
import MotusModels
import MotusSimulation
@testable import MotusStreaming
import MotusTestSupport
import XCTest

final class StreamStagesTests: XCTestCase {
  func testCountingChannel_IsTheMagnitudePreferringTotalAcceleration() {
    XCTAssertEqual(
      MagnitudeChannel.index(among: ["a.x", "|userAcceleration|", "|acceleration|"]), 2)
    XCTAssertEqual(
      MagnitudeChannel.index(among: ["a.x", "|rotationRate|", "|userAcceleration|"]), 2)
    XCTAssertEqual(MagnitudeChannel.index(among: ["a.x", "|rotationRate|"]), 1)
    XCTAssertNil(MagnitudeChannel.index(among: ["a.x", "a.y"]))
  }

  /// An axis depends on how the phone is held: steps are counted on a magnitude or not at all,
  /// while repetitions fall back to the first channel.
  func testWithoutAMagnitudeChannel_NoStepsAndRepetitionsOnTheFirstChannel() throws {
    let model = try TrainedModel.randomlyWeighted(channels: ActivitySimulator.channels)
    var configuration = StreamConfiguration()
    configuration.countsSteps = true
    XCTAssertNil(StepStage(spec: model.featureSpec, configuration: configuration))
    let repetitions = RepetitionStage(
      spec: model.featureSpec, classes: model.classes, configuration: configuration)
    XCTAssertEqual(repetitions?.channel, 0)
    let engine = try StreamingClassifier(
      model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
    XCTAssertFalse(engine.isCountingSteps)

    let counted = try StreamAgreement.model()
    let magnitude = counted.featureSpec.recipes.firstIndex { $0.name == "|acceleration|" }
    XCTAssertNotNil(magnitude)
    let steps = StepStage(spec: counted.featureSpec, configuration: configuration)
    XCTAssertEqual(steps?.channel, magnitude)
    configuration.repetitionClass = nil
    XCTAssertNil(
      RepetitionStage(
        spec: counted.featureSpec, classes: counted.classes, configuration: configuration))
  }

  func testEveryStage_MakesNoHeapAllocationOnceWarm() throws {
    try skipUnlessAllocationsCount()
    try assertNoAllocationPerSample(resampling: false, throughSession: false)
    try assertNoAllocationPerSample(resampling: false, throughSession: true)
  }

  /// Resampling too: the resampler's FIFO of pending times used to grow during the first
  /// thousand samples of a stream, one allocation every few hundred.
  func testEveryStage_Resampling_MakesNoHeapAllocationOnceWarm() throws {
    try skipUnlessAllocationsCount()
    try assertNoAllocationPerSample(resampling: true, throughSession: false)
    try assertNoAllocationPerSample(resampling: true, throughSession: true)
  }

  private func skipUnlessAllocationsCount() throws {
    guard motus_allocation_count() != UInt64.max else {
      throw XCTSkip("allocation counting needs glibc")
    }
    #if DEBUG
      // Unoptimised code boxes and copies freely; the claim is about the code an app ships.
      throw XCTSkip("allocation counting needs an optimised build: bash scripts/test.sh runs it")
    #endif
  }

  /// Streams walking then push-ups with steps, distance, repetitions, the push-up gate and HMM
  /// segments with trips on, and counts allocations after the first 300 samples; every kind of event must occur there.
  private func assertNoAllocationPerSample(resampling: Bool, throughSession: Bool) throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 8)
    let recording = simulator.recording(
      segments: [(.walking, 15), (.stationary, 5), (.pushUp, 20)], subject: 4)
    var configuration = StreamConfiguration()
    configuration.smoothing = .hiddenMarkov(switchProbability: 0.05)
    configuration.countsSteps = true
    configuration.stride = StrideModel(heightMeters: 1.75)
    configuration.alwaysResample = resampling
    configuration.inputRateHz = 50
    configuration.pushUpGate = PushUpGate()
    configuration.trips = TripRule()
    let engine = try StreamingClassifier(
      model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
    let session = StreamSession(
      model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
    var kinds = (predictions: 0, steps: 0, repetitions: 0, segments: 0)
    func note(_ event: StreamEvent) {
      switch event {
      case .prediction: kinds.predictions += 1
      case .step: kinds.steps += 1
      case .repetition: kinds.repetitions += 1
      case .segment: kinds.segments += 1
      case .gap: break
      }
    }
    var row = [Float](repeating: 0, count: 6)
    func feed(_ range: Range<Int>) throws {
      for t in range {
        for c in 0..<6 { row[c] = recording.columns[c][t] }
        let time = recording.timestamps[t]
        if throughSession {
          _ = try row.withUnsafeBufferPointer { values in
            try session.append(.sample(time: time, session: "one"), values: values) { output in
              if case .event(let event, _) = output { note(event) }
              return true
            }
          }
        } else {
          row.withUnsafeBufferPointer { values in
            engine.append(timestamp: time, values: values) { note($0) }
          }
        }
      }
    }
    try feed(0..<300)  // warm: the first windows, predictions and steps
    kinds = (0, 0, 0, 0)
    let before = motus_allocation_count()
    try feed(300..<recording.timestamps.count)
    let allocations = motus_allocation_count() - before
    let what = "resampling \(resampling), session \(throughSession): \(kinds)"
    XCTAssertGreaterThan(kinds.predictions, 10, what)
    XCTAssertGreaterThan(kinds.steps, 0, what)
    XCTAssertGreaterThan(kinds.repetitions, 0, what)
    XCTAssertGreaterThan(kinds.segments, 0, what)
    XCTAssertEqual(allocations, 0, "\(allocations) allocations, \(what)")
  }
}
