// Resampling of synthetic sines: amplitude kept below the new Nyquist rate, removed above
// it, and the streaming object gives the batch result bit for bit.

import Foundation
import MotusData
import MotusTestSupport
import XCTest

final class StreamingResamplerTests: XCTestCase {
  /// Synthetic sine sampled at `rateHz` for `seconds`.
  private func sine(frequencyHz: Double, rateHz: Double, seconds: Double) -> ([Double], [Float]) {
    let n = Int(seconds * rateHz)
    let t = (0..<n).map { Double($0) / rateHz }
    return (t, t.map { Float(sin(2 * Double.pi * frequencyHz * $0)) })
  }

  /// Largest |value| away from the first and last second (the padded ends).
  private func peak(_ times: [Double], _ values: [Float]) -> Float {
    guard let last = times.last else { return 0 }
    var m: Float = 0
    for (t, v) in zip(times, values) where t > 1 && t < last - 1 { m = max(m, abs(v)) }
    return m
  }

  func testResample_100To50Hz_KeepsAmplitudeOfSlowSine() {
    let (t, x) = sine(frequencyHz: 2, rateHz: 100, seconds: 10)
    let out = StreamingResampler.resample(
      timestamps: t, columns: [x], inputRateHz: 100, outputRateHz: 50)
    XCTAssertEqual(out.timestamps.count, 500)
    XCTAssertEqual(peak(out.timestamps, out.columns[0]), 1, accuracy: 0.01)
    // Zero phase: the output at time t is the sine at t, not delayed.
    for k in stride(from: 60, to: 440, by: 37) {
      let expected = Float(sin(2 * Double.pi * 2 * out.timestamps[k]))
      XCTAssertEqual(out.columns[0][k], expected, accuracy: 0.01, "k = \(k)")
    }
  }

  func testResample_100To50Hz_AttenuatesToneAboveNewNyquist() {
    // 40 Hz would alias to 10 Hz at 50 Hz without the low-pass.
    let (t, x) = sine(frequencyHz: 40, rateHz: 100, seconds: 10)
    let out = StreamingResampler.resample(
      timestamps: t, columns: [x], inputRateHz: 100, outputRateHz: 50)
    XCTAssertLessThan(peak(out.timestamps, out.columns[0]), 0.01)
  }

  func testLowPassTaps_UnitGainOddLengthAndNoFilterWhenUpsampling() {
    let taps = StreamingResampler.lowPassTaps(cutoffHz: 22.5, transitionHz: 10, sampleRateHz: 100)
    XCTAssertEqual(taps.count % 2, 1)
    XCTAssertEqual(taps.reduce(0, +), 1, accuracy: 1e-5)
    XCTAssertEqual(taps, Array(taps.reversed()))  // linear phase
    let up = StreamingResampler(inputRateHz: 15, outputRateHz: 50, channelCount: 1)
    XCTAssertEqual(up.taps, [1])
    XCTAssertEqual(up.latencySamples, 0)
  }

  func testStreaming_MatchesBatchExactly() {
    // Synthetic two-channel signal with jittered times.
    let n = 1000
    var t: [Double] = []
    var a: [Float] = []
    var b: [Float] = []
    for i in 0..<n {
      let time = Double(i) / 100 + (i % 3 == 0 ? 0.001 : 0)
      t.append(time)
      a.append(Float(sin(3 * time)))
      b.append(Float(i % 7))
    }
    let batch = StreamingResampler.resample(
      timestamps: t, columns: [a, b], inputRateHz: 100, outputRateHz: 30)
    var streaming = StreamingResampler(inputRateHz: 100, outputRateHz: 30, channelCount: 2)
    var times: [Double] = []
    var columns: [[Float]] = [[], []]
    let collect = { (time: Double, values: UnsafeBufferPointer<Float>) in
      times.append(time)
      columns[0].append(values[0])
      columns[1].append(values[1])
    }
    for i in 0..<n { streaming.push(timestamp: t[i], values: [a[i], b[i]], emit: collect) }
    // Live output lags by the filter's half length only.
    let lagOutputs = 30 * streaming.latencySamples / 100 + 2
    XCTAssertGreaterThan(times.count, batch.timestamps.count - lagOutputs)
    streaming.finish(emit: collect)
    XCTAssertEqual(times, batch.timestamps)
    XCTAssertEqual(columns, batch.columns)
  }

  func testReset_StartsANewGrid() {
    var r = StreamingResampler(inputRateHz: 10, outputRateHz: 10, channelCount: 1)
    var times: [Double] = []
    for i in 0..<5 { r.push(timestamp: Double(i) / 10, values: [1]) { t, _ in times.append(t) } }
    r.reset()
    for i in 0..<3 {
      r.push(timestamp: 100 + Double(i) / 10, values: [1]) { t, _ in times.append(t) }
    }
    XCTAssertEqual(times.count, 8)
    XCTAssertEqual(times[5], 100, accuracy: 1e-12)
  }
}
