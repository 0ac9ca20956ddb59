import MotusSimulation
import MotusStreaming
import XCTest

final class RingBufferTests: XCTestCase {
  func testCopyWindow_ReturnsOldestFirstAfterWrapping() {
    var ring = RingBuffer(channelCount: 2, capacity: 3)
    for v in 1...5 {
      let sample: [Float] = [Float(v), Float(10 * v)]
      sample.withUnsafeBufferPointer { ring.append($0) }
    }
    var columns = [[Float]](repeating: [0, 0, 0], count: 2)
    ring.copyWindow(into: &columns)
    XCTAssertEqual(columns, [[3, 4, 5], [30, 40, 50]])
    XCTAssertTrue(ring.isFull)
    ring.removeAll()
    XCTAssertEqual(ring.count, 0)
  }
}

final class PredictionSmootherTests: XCTestCase {
  func testExponential_WorkedByHand() {
    var smoother = PredictionSmoother(smoothing: .exponential(alpha: 0.25), classCount: 2)
    var p: [Float] = [1, 0]
    p.withUnsafeMutableBufferPointer { smoother.smooth($0) }  // first: taken as is
    p = [0, 1]
    p.withUnsafeMutableBufferPointer { smoother.smooth($0) }
    // 0.25 * [0, 1] + 0.75 * [1, 0] = [0.75, 0.25]
    XCTAssertEqual(p[0], 0.75, accuracy: 1e-6)
    XCTAssertEqual(p[1], 0.25, accuracy: 1e-6)
  }

  func testSwitchPenalty_WorkedByHand() {
    var smoother = PredictionSmoother(smoothing: .hiddenMarkov(switchProbability: 0.1), classCount: 2)
    var p: [Float] = [0.9, 0.1]
    p.withUnsafeMutableBufferPointer { smoother.smooth($0) }
    p = [0.3, 0.7]
    p.withUnsafeMutableBufferPointer { smoother.smooth($0) }
    // prior = 0.9 * [0.9, 0.1] + 0.1 * [0.1, 0.9] = [0.82, 0.18]
    // posterior ∝ [0.3 * 0.82, 0.7 * 0.18] = [0.246, 0.126] -> [0.6613, 0.3387]
    XCTAssertEqual(p[0], 0.246 / 0.372, accuracy: 1e-5)
    XCTAssertEqual(p[1], 0.126 / 0.372, accuracy: 1e-5)
  }

  func testSwitchPenalty_SuppressesSingleWindowFlicker() {
    var smoother = PredictionSmoother(smoothing: .hiddenMarkov(switchProbability: 0.05), classCount: 2)
    var labels: [Int] = []
    for step in 0..<20 {
      var p: [Float] = step == 10 ? [0.35, 0.65] : [0.7, 0.3]
      p.withUnsafeMutableBufferPointer { smoother.smooth($0) }
      labels.append(p[0] >= p[1] ? 0 : 1)
    }
    XCTAssertEqual(labels, [Int](repeating: 0, count: 20))
  }
}

final class ActivitySegmenterTests: XCTestCase {
  func testSegments_CloseOnLabelChangeAndAtFinish() {
    var segmenter = ActivitySegmenter()
    XCTAssertNil(segmenter.add(label: "walking", start: 0, end: 2.56, confidence: 0.8))
    XCTAssertNil(segmenter.add(label: "walking", start: 1.28, end: 3.84, confidence: 0.6))
    let closed = segmenter.add(label: "running", start: 2.56, end: 5.12, confidence: 0.9)
    XCTAssertEqual(closed?.label, "walking")
    XCTAssertEqual(closed?.end, 3.84)
    XCTAssertEqual(closed?.meanConfidence ?? 0, 0.7, accuracy: 1e-6)
    let last = segmenter.finish()
    XCTAssertEqual(last?.label, "running")
    XCTAssertEqual(last?.start, 3.84)  // overlapping windows: starts where the previous ended
    XCTAssertNil(segmenter.finish())
  }
}

// Synthetic signals.
final class RepetitionCounterTests: XCTestCase {
  func testCountsPeriodsOfASine_WhateverItsAmplitudeAndOffset() {
    for (amplitude, offset) in [(Float(0.05), Float(1)), (2, -3)] {
      var counter = RepetitionCounter(sampleRateHz: 50)
      let period = 1.6  // seconds
      let samples = Int(16 * 50)  // 10 periods
      var total = 0
      for t in 0..<samples {
        let v = offset + amplitude * Float(sin(2 * Double.pi * Double(t) / 50 / period))
        total += counter.append(v, counting: t >= 128)
        if t == 127 { total += counter.beginCounting(lookbackSamples: 128) }
      }
      XCTAssertEqual(counter.count, total)
      XCTAssertTrue((9...11).contains(counter.count), "counted \(counter.count) of 10")
      XCTAssertEqual(counter.periodSeconds ?? 0, period, accuracy: 0.05)
    }
  }

  func testNoise_CountsNothing() {
    var counter = RepetitionCounter(sampleRateHz: 50)
    var state: UInt64 = 1
    var total = 0
    for _ in 0..<1000 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      total += counter.append(Float(state >> 40) / Float(1 << 24), counting: true)
    }
    XCTAssertEqual(total, 0, "white noise has no period to count")
  }
}

// Synthetic push-up sets from ActivitySimulator.
final class RepetitionCounterOnSimulatedPushUpsTests: XCTestCase {
  func testCountsSimulatedPushUps_WithinOne() {
    for seed in UInt64(1)...4 {
      var simulator = ActivitySimulator(seed: seed)
      let set = simulator.recording(.pushUp, subject: Int(seed), seconds: 30)
      var counter = RepetitionCounter(sampleRateHz: simulator.sampleRateHz)
      for t in set.timestamps.indices {
        let m = (0..<3).map { set.columns[$0][t] * set.columns[$0][t] }.reduce(0, +).squareRoot()
        _ = counter.append(m, counting: true)
      }
      XCTAssertLessThanOrEqual(
        abs(counter.count - set.pushUpCount), 1,
        "seed \(seed): counted \(counter.count), simulated \(set.pushUpCount), "
          + "period \(counter.periodSeconds ?? -1) s")
    }
  }
}
