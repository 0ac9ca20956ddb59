// The stream's per-sample timing in fixed space: exact mean, quantiles within a bucket of the
// exact order statistic.

import MotusStreaming
import XCTest

final class SampleTimeHistogramTests: XCTestCase {
  func testQuantiles_AreWithinTwoPercentOfTheSortedArraysAndTheMeanIsExact() {
    var state: UInt64 = 7
    var values: [UInt64] = []
    var histogram = SampleTimeHistogram()
    for i in 0..<50_000 {
      state = state &* 6364136223846793005 &+ 1442695040888963407
      // Mostly 100-400 ns with a tail of prediction samples around 50 µs.
      let value = i % 128 == 0 ? 40_000 + (state >> 50) : 100 + (state >> 55)
      values.append(value)
      histogram.record(value)
    }
    let sorted = values.sorted()
    for q in [0.0, 0.5, 0.9, 0.99, 0.999] {
      let exact = Double(sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))])
      XCTAssertEqual(histogram.quantile(q), exact, accuracy: 0.022 * exact, "q \(q)")
    }
    XCTAssertEqual(histogram.count, 50_000)
    XCTAssertEqual(
      histogram.mean, Double(values.reduce(0, +)) / Double(values.count), accuracy: 1e-9)
  }

  func testEmpty_ReportsZero() {
    let histogram = SampleTimeHistogram()
    XCTAssertEqual(histogram.mean, 0)
    XCTAssertEqual(histogram.quantile(0.99), 0)
  }
}
