import Foundation
import MotusSimulation
import XCTest

// All signals here are synthetic, from ActivitySimulator.
final class ActivitySimulatorTests: XCTestCase {
  func testSameSeed_GivesSameRecording() {
    var a = ActivitySimulator(seed: 3), b = ActivitySimulator(seed: 3), c = ActivitySimulator(seed: 4)
    let ra = a.recording(.walking, subject: 1, seconds: 4)
    let rb = b.recording(.walking, subject: 1, seconds: 4)
    let rc = c.recording(.walking, subject: 1, seconds: 4)
    XCTAssertEqual(ra.columns, rb.columns)
    XCTAssertNotEqual(ra.columns, rc.columns)
  }

  func testStationary_ReadsOneGravity() {
    var simulator = ActivitySimulator(seed: 1)
    let r = simulator.recording(.stationary, subject: 2, seconds: 10)
    let magnitudes = r.timestamps.indices.map { t in
      (0..<3).map { Double(r.columns[$0][t] * r.columns[$0][t]) }.reduce(0, +).squareRoot()
    }
    let mean = magnitudes.reduce(0, +) / Double(magnitudes.count)
    XCTAssertEqual(mean, 1, accuracy: 0.02)
    XCTAssertTrue(r.session.hasPrefix("synthetic-"))
  }

  func testWalkingAndRunning_HaveStepCadenceInTheirBands() {
    var simulator = ActivitySimulator(seed: 5)
    for (activity, band) in [(SimulatedActivity.walking, 1.5...2.3), (.running, 2.3...3.4)] {
      let r = simulator.recording(activity, subject: 4, seconds: 20)
      let magnitude = r.timestamps.indices.map { t in
        (0..<3).map { Double(r.columns[$0][t] * r.columns[$0][t]) }.reduce(0, +).squareRoot()
      }
      let peak = dominantFrequency(magnitude, sampleRateHz: simulator.sampleRateHz)
      XCTAssertTrue(band.contains(peak), "\(activity) peaks at \(peak) Hz")
    }
  }

  func testPushUpSegment_CountsCompletedRepetitions() {
    var simulator = ActivitySimulator(seed: 9)
    let r = simulator.recording(segments: [(.stationary, 5), (.pushUp, 20), (.stationary, 5)], subject: 1)
    // 0.4-0.7 reps/s over 20 s.
    XCTAssertTrue((7...15).contains(r.pushUpCount), "\(r.pushUpCount) push-ups")
    XCTAssertEqual(r.labels.filter { $0 == "push-up" }.count, 1000)
  }

  func testCSV_HasHeaderAndOneRowPerSample() {
    var simulator = ActivitySimulator(seed: 2)
    let r = simulator.recording(.cycling, subject: 1, seconds: 1)
    let lines = r.csv().split(separator: "\n")
    XCTAssertEqual(lines.count, 51)
    XCTAssertEqual(lines[0].split(separator: ",").count, 10)
  }

  /// Naive DFT peak over 0.5-6 Hz of the mean-removed signal.
  private func dominantFrequency(_ x: [Double], sampleRateHz: Double) -> Double {
    let mean = x.reduce(0, +) / Double(x.count)
    var best = (power: 0.0, hz: 0.0)
    var hz = 0.5
    while hz <= 6 {
      var re = 0.0, im = 0.0
      for (i, v) in x.enumerated() {
        let a = 2 * Double.pi * hz * Double(i) / sampleRateHz
        re += (v - mean) * cos(a)
        im -= (v - mean) * sin(a)
      }
      if re * re + im * im > best.power { best = (re * re + im * im, hz) }
      hz += 0.05
    }
    return best.hz
  }
}
