// Baselines on labelled synthetic signals whose outcomes can be checked by hand (g, rad, Hz).

import Foundation
import XCTest

@testable import MotusBaselines
@testable import MotusBenchmarks

final class BaselinesTests: XCTestCase {
  // MARK: Low-pass filter

  func testLowPassAlpha_MatchesHandComputation() {
    // dt = 1/20 s, RC = 0.3 s: alpha = 0.05 / 0.35 = 1/7.
    XCTAssertEqual(
      LowPassFilter.alpha(timeConstantSeconds: 0.3, sampleRateHz: 20), 1.0 / 7, accuracy: 1e-12)
  }

  func testLowPass_StepResponseByHand() {
    var filter = LowPassFilter(timeConstantSeconds: 0.3, sampleRateHz: 20, channelCount: 1)
    XCTAssertEqual(filter.push(Float(0)), 0)  // starts at the first sample
    let a: Float = 1.0 / 7
    XCTAssertEqual(filter.push(Float(1)), a, accuracy: 1e-6)
    XCTAssertEqual(filter.push(Float(1)), a + (1 - a) * a, accuracy: 1e-6)
  }

  // MARK: Shake detector

  func testShake_FiresOnlyAboveThreshold() {
    var detector = ShakeDetector()
    XCTAssertFalse(detector.push(x: 0, y: 0, z: -1))
    XCTAssertFalse(detector.push(x: 2.5, y: 0, z: 0))  // exactly 2.5 g is not above
    XCTAssertFalse(detector.push(x: 1.5, y: 1.5, z: 1.0))  // |a| = 2.35 g
    XCTAssertTrue(detector.push(x: 2.0, y: 1.5, z: 0.5))  // |a| = 2.55 g
    XCTAssertFalse(detector.push(x: 3, y: 0, z: 0))  // still above: same shake
    XCTAssertFalse(detector.push(x: 0, y: 0, z: -1))
    XCTAssertTrue(detector.push(x: 0, y: -3, z: 0))
    XCTAssertEqual(detector.count, 2)
  }

  // MARK: Push-up counter

  /// Labelled synthetic: `reps` push-ups as vertical acceleration -0.8 then +0.8 g.
  func testPushUpCounter_CountsSyntheticRepetitions() {
    for reps in [1, 5, 12] {
      var counter = ThresholdPushUpCounter(thresholds: .tuned)
      for _ in 0..<reps {
        for a: Float in [0, -0.8, -0.3, 0.2, 0.8, 0.1, 0] {
          _ = counter.push(acceleration: a, pitch: -1.3)
        }
      }
      XCTAssertEqual(counter.count, reps)
    }
  }

  func testPushUpCounter_PitchGate() {
    var counter = ThresholdPushUpCounter(thresholds: .initial)
    for a: Float in [-0.6, 0.6, -0.6, 0.6] { _ = counter.push(acceleration: a, pitch: -0.2) }
    XCTAssertEqual(counter.count, 0, "upright: not prone, nothing counted")
    for a: Float in [-0.6, 0.6] { _ = counter.push(acceleration: a, pitch: -1.2) }
    XCTAssertEqual(counter.count, 1)
  }

  func testPushUpCounter_ThresholdsDiffer() {
    // -0.6 g crosses the first -0.5 but not the tuned -0.7 down threshold.
    var first = ThresholdPushUpCounter(thresholds: .initial)
    var tuned = ThresholdPushUpCounter(thresholds: .tuned)
    for a: Float in [-0.6, 0.6, -0.6, 0.6] {
      _ = first.push(acceleration: a, pitch: -1.5)
      _ = tuned.push(acceleration: a, pitch: -1.5)
    }
    XCTAssertEqual(first.count, 2)
    XCTAssertEqual(tuned.count, 0)
  }

  /// Labelled synthetic: a horizontal torso (gravity on z) bobbing with a 1 s period, 1.2 g
  /// peak vertical acceleration (the RC = 0.3 s gravity filter passes ~88 % at 1 Hz), in both sign conventions.
  func testChestCounter_CountsSyntheticSet() {
    let rate = 50.0
    for sign: Float in [1, -1] {
      for (tilted, expected) in [(true, 8), (false, 0)] {
        var counter = ThresholdChestPushUpCounter(thresholds: .tuned, sampleRateHz: rate)
        let n = Int(rate) * 10
        for t in 0..<n {
          let time = Double(t) / rate
          let inSet = time >= 1 && time < 9
          let a = inSet ? Float(-1.2 * sin(2 * Double.pi * (time - 1))) : 0
          // Raw = s * (up acceleration on the vertical axis + 1 g).
          let vertical = sign * (1 + a)
          if tilted {
            _ = counter.push(x: 0, y: 0, z: vertical)
          } else {
            _ = counter.push(x: vertical, y: 0, z: 0)
          }
        }
        XCTAssertEqual(counter.count, expected, "sign \(sign), horizontal torso \(tilted)")
      }
    }
  }

  // MARK: Threshold classifier

  func testCutoffs_RulesByHand() {
    let c = ActivityThresholds.typical
    func s(_ std: Float, _ vib: Float, _ cad: Float, _ tilt: Float) -> ActivityWindowStatistics {
      ActivityWindowStatistics(motionStd: std, vibrationRMS: vib, cadenceHz: cad, tilt: tilt)
    }
    XCTAssertEqual(c.classify(s(0.005, 0.002, 0, 0.2)), .stationary)
    XCTAssertEqual(c.classify(s(0.01, 0.05, 0, 0.2)), .automotive)
    XCTAssertEqual(c.classify(s(0.2, 0.05, 1.8, 0.2)), .walking)
    XCTAssertEqual(c.classify(s(0.2, 0.05, 2.8, 0.2)), .running)
    XCTAssertEqual(c.classify(s(0.6, 0.05, 1.8, 0.2)), .running)
    XCTAssertEqual(c.classify(s(0.1, 0.05, 0.6, 0.2)), .cycling)
    XCTAssertEqual(c.classify(s(0.1, 0.05, 0.6, 0.95)), .pushUp)
  }

  /// Labelled synthetic: |a| of an upright sensor (gravity on x) oscillating at 2 Hz
  /// (walking) must give cadence ~2 Hz.
  func testThresholdClassifier_CadenceOfSyntheticGait() throws {
    let rate = 50.0
    var classifier = ThresholdActivityClassifier(cutoffs: .typical, sampleRateHz: rate)
    var last: ActivityWindowStatistics?
    for t in 0..<Int(rate * 10) {
      let time = Double(t) / rate
      let x = Float(-1 - 0.3 * sin(2 * Double.pi * 2 * time))
      if let s = classifier.pushStatistics(x: x, y: 0, z: 0) { last = s }
    }
    let s = try XCTUnwrap(last)
    XCTAssertEqual(s.cadenceHz, 2, accuracy: 0.4)
    XCTAssertEqual(classifier.cutoffs.classify(s), .walking)
  }

  // MARK: Grid search

  /// Labelled synthetic: stationary below a planted 0.05 g std, walking above; the typical
  /// 0.02 g cut-off misclassifies the band between, the search must move it to 0.05.
  func testCutoffSearch_FindsPlantedCutoff() {
    var stats: [ActivityWindowStatistics] = []
    var labels: [ThresholdActivity] = []
    for k in 0..<200 {
      let std = Float(k) * 0.0005  // 0 ... 0.0995 g
      stats.append(
        ActivityWindowStatistics(motionStd: std, vibrationRMS: 0, cadenceHz: 1.8, tilt: 0))
      labels.append(std < 0.05 ? .stationary : .walking)
    }
    let before = ThresholdSearch.macroF1(.typical, stats, labels)
    let result = ThresholdSearch.tune(statistics: stats, labels: labels, gridSize: 200)
    XCTAssertLessThan(before, 0.9)
    XCTAssertEqual(result.macroF1, 1, accuracy: 1e-12)
    XCTAssertEqual(result.cutoffs.stillStd, 0.05, accuracy: 0.0006)
  }

  // MARK: Scoring

  func testScoreCounter_LatencyAndFlicker() {
    var counter = ScoreCounter(classCount: 2, sampleRateHz: 1, stableSeconds: 2)
    // Truth changes at t=5; prediction follows at t=7 and flickers once before.
    let truth: [Int32] = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]
    let predicted: [Int32] = [-1, 0, 0, 0, 1, 0, 0, 1, 1, 1]
    counter.add(truth: truth, predicted: predicted)
    let score = counter.score(method: "m", cpuSeconds: 0)
    XCTAssertEqual(score.changes, 1)
    XCTAssertEqual(score.medianLatencySeconds, 2)
    XCTAssertEqual(score.coverage ?? 0, 0.9, accuracy: 1e-12)
    XCTAssertEqual(score.accuracy ?? 0, 0.6, accuracy: 1e-12)
    XCTAssertEqual(score.flickerPerMinute ?? 0, 3.0 / (10.0 / 60), accuracy: 1e-9)
  }
}

final class LabelVoteTests: XCTestCase {
  func testVote_MajorityOfLastLabels() {
    var vote = LabelVote<Int>(length: 3)
    XCTAssertEqual(vote.push(1), 1)
    XCTAssertEqual(vote.push(2), 2)  // 1,2: a tie goes to the newest
    XCTAssertEqual(vote.push(1), 1)  // 1,2,1
    XCTAssertEqual(vote.push(2), 2)  // 2,1,2
    XCTAssertEqual(vote.push(2), 2)  // 1,2,2
    XCTAssertEqual(vote.push(3), 2)  // 2,2,3: one outlier is voted down
    XCTAssertEqual(vote.push(3), 3)  // 2,3,3
  }

  func testVote_LengthOneIsIdentity() {
    var vote = LabelVote<String>(length: 1)
    for label in ["a", "b", "b", "a"] { XCTAssertEqual(vote.push(label), label) }
  }
}
