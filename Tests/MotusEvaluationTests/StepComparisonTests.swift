import MotusData
import MotusEvaluation
import XCTest

// A SYNTHETIC walk: |a| = 1 g + 0.3 g at 2 steps/s for 60 s (120 steps), with a pedometer.
final class StepComparisonTests: XCTestCase {
  private func dataset(channel: String, phoneSteps: Double?) -> Dataset {
    let times = (0..<3000).map { Double($0) / 50 }
    let magnitude = times.map { Float(1 + 0.3 * sin(2 * .pi * 2 * $0)) }
    var recording = Recording(
      session: "walk", subject: "1", source: "synthetic", timestamps: times, columns: [magnitude],
      labelIndices: [Int32](repeating: 0, count: times.count), sampleRateHz: 50)
    if let phoneSteps {
      recording.pedometer = PedometerReference(
        times: [0, 60], cumulativeSteps: [500, 500 + phoneSteps], source: "synthetic")
    }
    return Dataset(channels: [channel], labels: ["walking"], recordings: [recording])
  }

  func testRecordingWithAPedometer_IsComparedOverItsInterval() throws {
    let comparisons = StepComparison.all(in: dataset(channel: "|acceleration|", phoneSteps: 125))
    let comparison = try XCTUnwrap(comparisons.first)
    XCTAssertEqual(comparisons.count, 1)
    // Over the recording's first to last sample (59.98 s) of the phone's 125 steps in 60 s.
    XCTAssertEqual(comparison.phone, 125 * 59.98 / 60, accuracy: 1e-9)
    XCTAssertEqual(Double(comparison.motus), 120, accuracy: 4)
    XCTAssertEqual(comparison.relativeError ?? 0, (Double(comparison.motus) - comparison.phone) / comparison.phone, accuracy: 1e-12)
    XCTAssertTrue(comparison.line.contains("phone 125, motus \(comparison.motus)"))
  }

  func testNoPedometerOrNoMagnitude_NoComparison() {
    XCTAssertTrue(StepComparison.all(in: dataset(channel: "|acceleration|", phoneSteps: nil)).isEmpty)
    XCTAssertTrue(StepComparison.all(in: dataset(channel: "acceleration.x", phoneSteps: 125)).isEmpty)
  }

  /// A reference made in code may hold any count: one no phone reaches gives no comparison
  /// (it trapped when printed as an Int).
  func testCountsNoPhoneReaches_GiveNoComparisonAndNoTrap() {
    for steps in [9.3e18, 1e300, .infinity] {
      XCTAssertTrue(StepComparison.all(in: dataset(channel: "|acceleration|", phoneSteps: steps)).isEmpty)
    }
  }
}
