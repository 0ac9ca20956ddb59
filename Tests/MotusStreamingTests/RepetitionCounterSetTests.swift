import Foundation
import MotusStreaming
import XCTest

// Synthetic signals: a push-up-like acceleration magnitude (g) at 15 Hz, the model rate of
// the shipped six-class model. One repetition: a short dip as the chest starts down, a
// longer hump as it stops at the bottom and is pushed up, a second dip as it stops at the
// top, then rest at 1 g.
final class RepetitionCounterSetTests: XCTestCase {
  static let rate = 15.0

  /// Samples of `repetitions` repetitions of `periodSeconds` each, then `restSeconds` at 1 g.
  static func repetitions(
    _ repetitions: Int, periodSeconds: Double, restSeconds: Double = 0, noise: inout UInt64
  ) -> [Float] {
    func bump(_ t: Double, _ centre: Double, _ width: Double) -> Double {
      let u = (t - centre) / width
      return exp(-0.5 * u * u)
    }
    var out: [Float] = []
    let period = Int(periodSeconds * rate)
    for _ in 0..<repetitions {
      for i in 0..<period {
        let t = Double(i) / Double(period)
        let v =
          1 - 0.5 * bump(t, 0.2, 0.05) + 0.35 * bump(t, 0.5, 0.12) - 0.45 * bump(t, 0.78, 0.05)
        out.append(Float(v))
      }
    }
    out += [Float](repeating: 1, count: Int(restSeconds * rate))
    // Deterministic sensor noise, +-0.005 g.
    for i in out.indices {
      noise = noise &* 6364136223846793005 &+ 1442695040888963407
      out[i] += 0.01 * (Float(noise >> 40) / Float(1 << 24) - 0.5)
    }
    return out
  }

  /// A rest long enough for the periodicity estimate to be lost mid-set, then more
  /// repetitions: counting must go on from where it was, not recount the whole history when
  /// the period is found again.
  func testPeriodLostMidSet_DoesNotRecountTheSet() {
    var noise: UInt64 = 7
    let signal =
      Self.repetitions(6, periodSeconds: 2, restSeconds: 7, noise: &noise)
      + Self.repetitions(6, periodSeconds: 2, noise: &noise)
    var counter = RepetitionCounter(sampleRateHz: Self.rate)
    var reported = counter.beginCounting(lookbackSamples: 0)
    var periodLost = false
    var hadPeriod = false
    for v in signal {
      reported += counter.append(v, counting: true)
      if counter.periodSeconds != nil { hadPeriod = true }
      if hadPeriod && counter.periodSeconds == nil { periodLost = true }
    }
    XCTAssertTrue(periodLost, "the rest should make the period estimate drop out")
    XCTAssertEqual(reported, counter.count)
    XCTAssertEqual(counter.count, 12)
  }

  /// The detector's prediction of the set drops for a window and comes back: counting
  /// resumes with a look-back that overlaps repetitions already counted. Those must not be
  /// counted twice.
  func testSetInterrupted_LookBackDoesNotRecountCountedRepetitions() {
    var noise: UInt64 = 11
    let signal = Self.repetitions(10, periodSeconds: 2, noise: &noise)
    var counter = RepetitionCounter(sampleRateHz: Self.rate)
    let lookback = 76  // the engine's: one 38-sample window plus two 19-sample hops
    // One hop of another class 10 s into the set, and again 14 s in.
    let interruptions = [150..<169, 210..<229]
    var reported = 0
    var counting = false
    for (t, v) in signal.enumerated() {
      let wanted = t >= lookback && !interruptions.contains { $0.contains(t) }
      if wanted && !counting {
        reported += counter.beginCounting(lookbackSamples: t == lookback ? t : lookback)
      } else if !wanted && counting {
        counter.stopCounting()
      }
      counting = wanted
      reported += counter.append(v, counting: counting)
    }
    XCTAssertEqual(reported, counter.count)
    XCTAssertEqual(counter.count, 10)
  }

  /// The same set at two sizes and offsets counts the same: no amplitude threshold.
  func testCount_IndependentOfAmplitudeAndOffset() {
    var counts: [Int] = []
    for (gain, offset) in [(Float(1), Float(0)), (0.2, 3), (5, -1)] {
      var noise: UInt64 = 3
      let signal = Self.repetitions(8, periodSeconds: 1.6, restSeconds: 1, noise: &noise)
      var counter = RepetitionCounter(sampleRateHz: Self.rate)
      for v in signal { _ = counter.append(offset + gain * v, counting: true) }
      counts.append(counter.count)
    }
    XCTAssertEqual(counts[0], counts[1])
    XCTAssertEqual(counts[0], counts[2])
    XCTAssertEqual(counts[0], 8)
  }
}
