import CMallocCounter
import Foundation
import MotusData
import MotusSimulation
import MotusModels
import MotusStreaming
import MotusTestSupport
import XCTest

// Every signal here is synthetic: |a| in g as a pure gait rhythm, a stride-dominant rhythm
// (a pocketed phone), or sensor noise at rest.
final class StepCounterTests: XCTestCase {
  /// |a| = 1 g + a rhythm at `stepHz`, plus optionally one at half of it (one leg's swing).
  private func gait(
    stepHz: Double, seconds: Double, rateHz: Double = 50, strideAmplitude: Double = 0,
    stepAmplitude: Double = 0.3
  ) -> [(Double, Float)] {
    (0..<Int(seconds * rateHz)).map { i in
      let t = Double(i) / rateHz
      let value = 1 + stepAmplitude * sin(2 * .pi * stepHz * t)
        + strideAmplitude * sin(2 * .pi * stepHz / 2 * t + 0.4)
      return (t, Float(value))
    }
  }

  private func count(_ signal: [(Double, Float)], rateHz: Double = 50) -> (StepCounter, [Int]) {
    var counter = StepCounter(sampleRateHz: rateHz)
    var perPush: [Int] = []
    for (t, m) in signal { perPush.append(counter.push(time: t, magnitude: m)) }
    return (counter, perPush)
  }

  func testSteadyWalk_CountsEveryStepAndItsCadence() {
    // 1.8 steps/s for 60 s: 108 steps at 108 steps/min.
    let (counter, perPush) = count(gait(stepHz: 1.8, seconds: 60))
    XCTAssertEqual(Double(counter.wholeSteps), 108, accuracy: 108 * 0.03)
    XCTAssertEqual(counter.cadence, 108, accuracy: 2)
    XCTAssertEqual(perPush.reduce(0, +), counter.wholeSteps, "push reports every whole step once")
  }

  func testStrideDominantRhythm_CountsStepsNotStrides() {
    // One leg swings harder: a 0.9 Hz stride rhythm under the 1.8 Hz steps makes the stride
    // lag the strongest autocorrelation peak; the count must still be of steps, 108/min.
    let (counter, _) = count(gait(stepHz: 1.8, seconds: 60, strideAmplitude: 0.1, stepAmplitude: 0.25))
    XCTAssertEqual(counter.cadence, 108, accuracy: 3)
    XCTAssertEqual(Double(counter.wholeSteps), 108, accuracy: 108 * 0.05)
  }

  func testRunningAtFifteenHertz_MeasuresCadenceBetweenSamples() {
    // 2.8 steps/s (168/min) at 15 Hz: a period of 5.36 samples, refined between them.
    let (counter, _) = count(gait(stepHz: 2.8, seconds: 60, rateHz: 15), rateHz: 15)
    XCTAssertEqual(counter.cadence, 168, accuracy: 4)
    XCTAssertEqual(Double(counter.wholeSteps), 168, accuracy: 168 * 0.05)
  }

  func testStillPhone_CountsNothing() {
    var random = SplitMix64(seed: 24301)  // seeded: a failure replays
    let noise = (0..<3000).map { i in
      (Double(i) / 50, Float(1 + Double.random(in: -0.01...0.01, using: &random)))
    }
    let (counter, _) = count(noise)
    XCTAssertEqual(counter.wholeSteps, 0)
    XCTAssertEqual(counter.cadence, 0)
  }

  func testStepTimes_AreIncreasingAndInsideTheWalk() {
    var counter = StepCounter(sampleRateHz: 50)
    var times: [Double] = []
    for (t, m) in gait(stepHz: 2, seconds: 20) {
      let completed = counter.push(time: t, magnitude: m)
      for k in stride(from: counter.wholeSteps - completed + 1, through: counter.wholeSteps, by: 1)
      where completed > 0 {
        times.append(counter.time(ofStep: k))
      }
    }
    XCTAssertEqual(times.count, counter.wholeSteps)
    XCTAssertEqual(times, times.sorted())
    XCTAssertGreaterThanOrEqual(times.first ?? -1, 0)
    XCTAssertLessThanOrEqual(times.last ?? 99, 20)
    // Evenly spaced at the step period once counting.
    let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
    XCTAssertEqual(gaps.last ?? 0, 0.5, accuracy: 0.02)
  }

  func testRestart_KeepsTheTotalAndStartsTheSignalAgain() {
    var counter = StepCounter(sampleRateHz: 50)
    for (t, m) in gait(stepHz: 1.8, seconds: 30) { counter.push(time: t, magnitude: m) }
    let before = counter.wholeSteps
    counter.restart()
    XCTAssertEqual(counter.wholeSteps, before)
    XCTAssertEqual(counter.cadence, 0)
    for (t, m) in gait(stepHz: 1.8, seconds: 30) { counter.push(time: 100 + t, magnitude: m) }
    XCTAssertEqual(Double(counter.wholeSteps), 108, accuracy: 108 * 0.05)
  }

  func testPush_MakesNoHeapAllocationOnceWarm() throws {
    guard motus_allocation_count() != UInt64.max else {
      throw XCTSkip("allocation counting needs glibc")
    }
    #if DEBUG
      throw XCTSkip("allocation counting needs an optimised build: bash scripts/test.sh runs it")
    #endif
    let signal = gait(stepHz: 1.8, seconds: 40)
    var counter = StepCounter(sampleRateHz: 50)
    for (t, m) in signal[0..<500] { counter.push(time: t, magnitude: m) }
    let before = motus_allocation_count()
    for (t, m) in signal[500...] { counter.push(time: t, magnitude: m) }
    XCTAssertEqual(motus_allocation_count() - before, 0)
    XCTAssertGreaterThan(counter.wholeSteps, 50)
  }

  func testStrideModel_SetLengthWinsAndHeightLengthensWithCadence() {
    XCTAssertNil(StrideModel().stepLength(cadence: 110))
    XCTAssertEqual(StrideModel(stepLengthMeters: 0.7, heightMeters: 2).stepLength(cadence: 170), 0.7)
    let byHeight = StrideModel(heightMeters: 1.8)
    XCTAssertEqual(byHeight.stepLength(cadence: 110) ?? 0, 0.747, accuracy: 1e-9)
    XCTAssertEqual(byHeight.stepLength(cadence: 200) ?? 0, 1.17, accuracy: 1e-9)
    XCTAssertLessThan(byHeight.stepLength(cadence: 150)!, byHeight.stepLength(cadence: 170)!)
  }
}

/// The reconciliation rules of a dual-source step tracker (seed 002).
final class StepReconcilerTests: XCTestCase {
  func testLiveStepsAddToTheExternalBaseline() {
    var r = StepReconciler()
    r.externalTotal(1000)
    r.liveTotal(5)
    XCTAssertEqual(r.displayed, 1005)
    XCTAssertEqual(r.stepsBySource[.external], 1000)
    XCTAssertEqual(r.stepsBySource[.live], 5)
  }

  func testAHigherExternalTotalBecomesTheBaselineAndTheDeltaRestarts() {
    var r = StepReconciler()
    r.externalTotal(1000)
    r.liveTotal(30)
    let adopted = r.externalTotal(1050)
    XCTAssertEqual(adopted, .init(steps: 20, source: .external, displayed: 1050))
    r.liveTotal(35)  // 5 live steps since the baseline
    XCTAssertEqual(r.displayed, 1055)
  }

  func testALowerExternalTotalIsIgnored() {
    var r = StepReconciler()
    r.externalTotal(1000)
    r.liveTotal(40)
    XCTAssertNil(r.externalTotal(1020))
    XCTAssertEqual(r.displayed, 1040)
    r.liveTotal(41)
    XCTAssertEqual(r.displayed, 1041, "the ignored total does not reset the delta")
  }

  func testTheTotalNeverDecreases() {
    var r = StepReconciler()
    var shown: [Int] = []
    let updates: [(Bool, Int)] = [
      (true, 500), (false, 10), (false, 25), (true, 510), (false, 30), (true, 540), (false, 2),
      (false, 12), (true, 100), (false, 13),
    ]
    for (external, value) in updates {
      if external { r.externalTotal(value) } else { r.liveTotal(value) }
      shown.append(r.displayed)
    }
    XCTAssertEqual(shown, shown.sorted(), "\(shown)")
    XCTAssertEqual(r.displayed, r.stepsBySource.values.reduce(0, +), "every step has a source")
  }

  func testAPersistedValueRestoresTheCountAfterARelaunch() {
    var r = StepReconciler()
    r.restore(persisted: 2400)
    XCTAssertNil(r.externalTotal(2300), "the external store has not caught up")
    XCTAssertEqual(r.displayed, 2400)
    r.externalTotal(2600)  // steps taken while the app was not running
    XCTAssertEqual(r.displayed, 2600)
    XCTAssertEqual(r.stepsBySource[.persisted], 2400)
  }

  func testPauseAndResume_NeitherLoseNorDoubleCountSteps() {
    var r = StepReconciler()
    r.externalTotal(100)
    r.liveTotal(40)  // paused here; the live counter restarts on resume
    r.liveTotal(0)
    XCTAssertEqual(r.displayed, 140)
    r.liveTotal(15)
    XCTAssertEqual(r.displayed, 155)
  }

  func testDayRollover_StartsFromZero() {
    var r = StepReconciler()
    r.externalTotal(9000)
    r.liveTotal(50)
    r.rollOver()
    XCTAssertEqual(r.displayed, 0)
    r.liveTotal(3)
    XCTAssertEqual(r.displayed, 3)
  }
}

/// Steps inside the engine, on a SYNTHETIC walk and rest (ActivitySimulator).
final class StreamingStepsTests: XCTestCase {
  private func run(countsSteps: Bool) throws -> (events: [StreamEvent], engine: StreamingClassifier) {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 21)
    let recording = simulator.recording(segments: [(.stationary, 15), (.walking, 40)], subject: 5)
    var configuration = StreamConfiguration()
    configuration.countsSteps = countsSteps
    configuration.stride = StrideModel(stepLengthMeters: 0.7)
    let engine = try StreamingClassifier(
      model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
    var events: [StreamEvent] = []
    engine.feed(timestamps: recording.timestamps, columns: recording.columns) { events.append($0) }
    return (events, engine)
  }

  func testWithoutCountsSteps_TheStreamIsUnchanged() throws {
    let (events, engine) = try run(countsSteps: false)
    XCTAssertFalse(engine.isCountingSteps)
    for event in events {
      if case .step = event { XCTFail("a step event without countsSteps") }
      if case .prediction(let p) = event { XCTAssertNil(p.steps) }
      if case .segment(let s) = event { XCTAssertNil(s.steps) }
    }
  }

  func testCountsSteps_WalkingHasStepsSegmentsShareThemAndDistanceFollows() throws {
    let (events, engine) = try run(countsSteps: true)
    XCTAssertTrue(engine.isCountingSteps)
    var stepTotals: [Int] = []
    var predicted: [Int] = []
    var segmentSteps = 0
    for event in events {
      switch event {
      case .step(_, let total): stepTotals.append(total)
      case .prediction(let p): predicted.append(p.steps ?? -1)
      case .segment(let s): segmentSteps += s.steps ?? 0
      default: break
      }
    }
    XCTAssertGreaterThan(engine.stepTotal, 30, "40 s of synthetic walking")
    XCTAssertEqual(stepTotals, Array(1...engine.stepTotal), "one event per step, in order")
    XCTAssertEqual(predicted, predicted.sorted())
    XCTAssertEqual(segmentSteps, engine.stepTotal, "the segments share out every step")
    XCTAssertEqual(engine.distanceMeters, 0.7 * Double(engine.stepTotal), accuracy: 1e-9)
  }
}
