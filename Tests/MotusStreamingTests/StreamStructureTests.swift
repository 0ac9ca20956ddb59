// Structure of the motion in the stream: the push-up gate and the smoother's trips.
// Every signal and recording here is SYNTHETIC: sines and noise made in the test, or
// ActivitySimulator recordings streamed through the small synthetic model.

import Foundation
import MotusData
import MotusFeatures
import MotusModels
import MotusSimulation
import MotusStreaming
import MotusTestSupport
import XCTest

final class StreamStructureTests: XCTestCase {
  // MARK: The repetition probe (synthetic signals)

  /// A synthetic magnitude: 1 g plus `amplitude` at `hz`, plus noise, at 15 Hz for `seconds`.
  private func feed(
    _ counter: inout RepetitionCounter, hz: Double, amplitude: Double, seconds: Double,
    noise: Double = 0.01, seed: UInt64 = 1
  ) {
    var random = SplitMix64(seed: seed)
    let n = Int(seconds * counter.sampleRateHz)
    for i in 0..<n {
      let t = Double(i) / counter.sampleRateHz
      let x = 1 + amplitude * sin(2 * .pi * hz * t) + noise * random.gaussian()
      _ = counter.append(Float(x), counting: false)
    }
  }

  private func pushUpCadenceCounter() -> RepetitionCounter {
    RepetitionCounter(
      sampleRateHz: 15, periodRangeSeconds: (1 / 1.5)...(1 / 0.3), historySeconds: 10)
  }

  func testProbe_CountsRepetitionsAtPushUpCadence() {
    var counter = pushUpCadenceCounter()
    feed(&counter, hz: 0.6, amplitude: 0.3, seconds: 20)  // synthetic push-ups, 0.6 Hz
    let found = counter.repetitions(inLast: 150)
    XCTAssertGreaterThanOrEqual(found, 5, "10 s at 0.6 Hz hold 6 repetitions")
    XCTAssertLessThanOrEqual(found, 7)
    XCTAssertEqual(counter.count, 0, "a probe counts nothing")
  }

  func testProbe_FindsNoRepetitionsInNoiseOrOutsideTheCadence() {
    var still = pushUpCadenceCounter()
    feed(&still, hz: 0.6, amplitude: 0, seconds: 20, noise: 0.02)  // synthetic noise only
    XCTAssertEqual(still.repetitions(inLast: 150), 0)
    var fast = pushUpCadenceCounter()
    feed(&fast, hz: 4, amplitude: 0.3, seconds: 20)  // synthetic 4 Hz: no push-up rate
    XCTAssertLessThan(fast.repetitions(inLast: 150), 2)
  }

  // MARK: The push-up gate in the engine (synthetic recordings, synthetic model)

  private func answers(
    _ recording: SimulatedRecording, gate: PushUpGate?
  ) throws -> (predictions: [StreamPrediction], repetitions: Int) {
    var configuration = StreamConfiguration()
    configuration.pushUpGate = gate
    let engine = try StreamingClassifier(
      model: try StreamAgreement.model(), inputChannels: ActivitySimulator.channels,
      configuration: configuration)
    var predictions: [StreamPrediction] = []
    var repetitions = 0
    engine.feed(timestamps: recording.timestamps, columns: recording.columns) { event in
      if case .prediction(let p) = event { predictions.append(p) }
      if case .repetition = event { repetitions += 1 }
    }
    return (predictions, repetitions)
  }

  private func pushUpIndex() throws -> Int {
    try XCTUnwrap(try StreamAgreement.model().classes.firstIndex(of: "push-up"))
  }

  /// A gate that asks for more repetitions than a set holds turns every push-up answer into
  /// the fallback: the rule is what removes them.
  func testGate_WithoutEnoughRepetitions_NoPushUpAnswer() throws {
    var simulator = ActivitySimulator(seed: 21)
    let recording = simulator.recording(segments: [(.stationary, 6), (.pushUp, 30)], subject: 3)
    let pushUp = try pushUpIndex()
    func pushUps(_ p: [StreamPrediction]) -> Int {
      p.filter { !$0.isUnknown && $0.classIndex == pushUp }.count
    }
    let open = try answers(recording, gate: nil)
    XCTAssertGreaterThan(pushUps(open.predictions), 5)
    var strict = PushUpGate()
    strict.minimumRepetitions = 100
    let other = try answers(recording, gate: strict)
    XCTAssertEqual(pushUps(other.predictions), 0)
    XCTAssertEqual(other.predictions.count, open.predictions.count)
    XCTAssertFalse(other.predictions.contains { $0.unknownReason == .noRepetitions })
    strict.fallback = .unknown
    let unknown = try answers(recording, gate: strict)
    XCTAssertEqual(pushUps(unknown.predictions), 0)
    XCTAssertEqual(
      unknown.predictions.filter { $0.unknownReason == .noRepetitions }.count,
      pushUps(open.predictions))
  }

  /// A real (synthetic) set passes the default gate: its push-up answers stay, and so does the
  /// count of repetitions per push-up segment.
  func testGate_KeepsASetsAnswersAndItsRepetitionCount() throws {
    let pushUp = try pushUpIndex()
    for seed in [21, 22, 23] as [UInt64] {
      var simulator = ActivitySimulator(seed: seed)
      let recording = simulator.recording(
        segments: [(.walking, 10), (.stationary, 6), (.pushUp, 25), (.stationary, 8)],
        subject: Int(seed % 3) + 1)
      let open = try answers(recording, gate: nil)
      let gated = try answers(recording, gate: PushUpGate())
      let before = open.predictions.filter { !$0.isUnknown && $0.classIndex == pushUp }.count
      let after = gated.predictions.filter { !$0.isUnknown && $0.classIndex == pushUp }.count
      // The gate may hold back the set's first windows, whose 10 s are mostly the rest.
      XCTAssertGreaterThanOrEqual(after, before - 3, "seed \(seed): \(after) of \(before)")
      XCTAssertLessThanOrEqual(
        abs(gated.repetitions - open.repetitions), 1,
        "seed \(seed): \(gated.repetitions) counted gated, \(open.repetitions) without")
      XCTAssertLessThanOrEqual(
        abs(gated.repetitions - recording.pushUpCount), 2,
        "seed \(seed): \(gated.repetitions) counted, \(recording.pushUpCount) simulated")
    }
  }

  // MARK: Trips in the smoother (synthetic probabilities)

  // Classes: stationary, walking, automotive; hops of 1.7 s (the six-class model's 5.12 s
  // windows, a third apart), evidence weight 1/3.
  private let classes = ["stationary", "walking", "automotive"]

  private func smoothedAnswers(_ sequence: [(Int, Int)], trips: Bool) -> [Int] {
    var smoother = PredictionSmoother(
      smoothing: .hiddenMarkov(switchProbability: 0.05), classCount: 3, evidenceWeight: 1 / 3,
      trips: trips
        ? TripStates(
          vehicle: 2, still: 0, stopEnds: Float(1 - pow(0.5, 1.7 / 120)), entryFactor: 0.2)
        : nil)
    var out: [Int] = []
    var p = [Float](repeating: 0, count: 3)
    for (label, hops) in sequence {
      for _ in 0..<hops {
        for c in 0..<3 { p[c] = c == label ? 0.9 : 0.05 }
        p.withUnsafeMutableBufferPointer { smoother.smooth($0) }
        XCTAssertEqual(p.reduce(0, +), 1, accuracy: 1e-4)
        out.append(p.indices.max { p[$0] < p[$1] } ?? -1)
      }
    }
    return out
  }

  /// A red light (30 s of stationary evidence) inside a drive stays automotive with trips, and
  /// is answered stationary without.
  func testTrips_AShortStopStaysAutomotive() {
    let drive: [(Int, Int)] = [(2, 40), (0, 18), (2, 40)]
    let with = smoothedAnswers(drive, trips: true)
    let without = smoothedAnswers(drive, trips: false)
    XCTAssertEqual(with[40..<58].filter { $0 == 2 }.count, 18)
    XCTAssertGreaterThan(without[40..<58].filter { $0 == 0 }.count, 12)
  }

  /// Parking for good: a long stop becomes stationary; walking ends the trip at once.
  func testTrips_ALongStopOrWalkingEndsTheTrip() {
    let parked = smoothedAnswers([(2, 40), (0, 300)], trips: true)
    XCTAssertEqual(parked.suffix(100).filter { $0 == 0 }.count, 100)
    let walked = smoothedAnswers([(2, 40), (1, 10), (0, 30)], trips: true)
    XCTAssertEqual(walked[54..<80].filter { $0 == 0 }.count, 26)
  }

  /// Entering automotive needs sustained evidence: a three-hop blip in a stationary stretch is
  /// not a trip with trips, and is answered automotive without.
  func testTrips_ABriefBlipIsNoTrip() {
    let blip: [(Int, Int)] = [(0, 30), (2, 3), (0, 30)]
    let with = smoothedAnswers(blip, trips: true)
    let without = smoothedAnswers(blip, trips: false)
    XCTAssertEqual(with.filter { $0 == 2 }.count, 0)
    XCTAssertGreaterThan(without.filter { $0 == 2 }.count, 0)
  }

  func testTripStates_NeedBothClasses() throws {
    let spec = try StreamAgreement.model().featureSpec  // 50 Hz, hop 64
    XCTAssertNil(TripStates(rule: TripRule(), classes: ["walking", "automotive"], spec: spec))
    XCTAssertNil(TripStates(rule: nil, classes: classes, spec: spec))
    let states = try XCTUnwrap(TripStates(rule: TripRule(), classes: classes, spec: spec))
    XCTAssertEqual(states.vehicle, 2)
    XCTAssertEqual(states.still, 0)
    XCTAssertEqual(states.stopEnds, Float(1 - pow(0.5, 64.0 / 50 / 120)), accuracy: 1e-6)
  }
}
