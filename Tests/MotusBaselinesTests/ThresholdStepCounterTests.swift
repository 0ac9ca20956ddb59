import Foundation
import MotusBaselines
import XCTest

// Synthetic |a| signals: a gait rhythm of known steps.
final class ThresholdStepCounterTests: XCTestCase {
  private func walk(stepHz: Double, seconds: Double, amplitude: Double) -> ([Double], [Float]) {
    let times = (0..<Int(seconds * 50)).map { Double($0) / 50 }
    return (times, times.map { Float(1 + amplitude * sin(2 * .pi * stepHz * $0)) })
  }

  func testTypicalSettings_CountAStrongRhythmAndNotAWeakOne() {
    let (times, strong) = walk(stepHz: 1.5, seconds: 40, amplitude: 0.6)
    let counted = ThresholdStepCounter.count(
      times: times, magnitudes: strong, sampleRateHz: 50, settings: .typical)
    XCTAssertEqual(Double(counted), 60, accuracy: 2)
    // The RC 0.3 s low-pass shrinks a 0.1 g rhythm below the 1.1 g level.
    let (_, weak) = walk(stepHz: 1.5, seconds: 40, amplitude: 0.1)
    XCTAssertEqual(
      ThresholdStepCounter.count(times: times, magnitudes: weak, sampleRateHz: 50, settings: .typical), 0)
  }

  func testMinimumInterval_CapsTheCount() {
    let (times, fast) = walk(stepHz: 3, seconds: 20, amplitude: 1.5)
    let capped = ThresholdStepCounter.count(
      times: times, magnitudes: fast, sampleRateHz: 50,
      settings: .init(level: 1.05, minimumInterval: 0.5))
    // Peaks every 1/3 s; with 0.5 s between steps every second peak counts: 30 in 20 s.
    XCTAssertEqual(Double(capped), 30, accuracy: 1)
    let uncapped = ThresholdStepCounter.count(
      times: times, magnitudes: fast, sampleRateHz: 50,
      settings: .init(level: 1.05, minimumInterval: 0.25))
    XCTAssertEqual(Double(uncapped), 60, accuracy: 1)
  }

  func testTune_FindsALevelThatCountsAWeakRhythm() {
    let (times, weak) = walk(stepHz: 1.5, seconds: 40, amplitude: 0.1)
    let tuned = ThresholdStepCounter.tune(
      recordings: [(times: times, magnitudes: weak, sampleRateHz: 50, steps: 60)])
    XCTAssertLessThan(tuned.level, 1.1)
    let counted = ThresholdStepCounter.count(
      times: times, magnitudes: weak, sampleRateHz: 50, settings: tuned)
    XCTAssertEqual(Double(counted), 60, accuracy: 2)
  }
}
