import MotusFeatures
import MotusTestSupport
import XCTest

final class FFTPlanTests: XCTestCase {
  /// Deterministic pseudo-random values in [-1, 1).
  private func signal(_ n: Int, seed: UInt64) -> [Float] {
    var state = seed
    return (0..<n).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
    }
  }

  func testForward_MatchesNaiveDFT_PowerOfTwoAndOtherLengths() {
    for n in [1, 2, 4, 8, 64, 128, 256, 3, 5, 12, 38, 100, 127] {
      let plan = FFTPlan(length: n)
      XCTAssertEqual(plan.scratchCount == 0, FFTPlan.isPowerOfTwo(n), "n = \(n)")
      let inputRe = signal(n, seed: UInt64(n)), inputIm = signal(n, seed: UInt64(n) + 99)
      var re = inputRe, im = inputIm
      plan.forward(real: &re, imag: &im)
      let naive = FFTPlan.naiveDFT(real: inputRe.map(Double.init), imag: inputIm.map(Double.init))
      let difference = max(
        maxAbsoluteDifference(re, naive.real.map(Float.init)),
        maxAbsoluteDifference(im, naive.imag.map(Float.init)))
      // Float rounding grows like sqrt(n) log n; the inputs are O(1).
      XCTAssertLessThan(difference, 2e-5 * Float(n).squareRoot() * 4, "n = \(n)")
    }
  }

  func testForwardReal_MatchesNaiveDFTHalfSpectrum() {
    for n in [1, 2, 3, 4, 8, 12, 38, 64, 128, 127] {
      let plan = FFTPlan(length: n)
      let input = signal(n, seed: UInt64(n) + 5)
      var re = [Float](repeating: .nan, count: n / 2 + 1), im = re
      var scratch = [Float](repeating: 0, count: plan.realScratchCount)
      input.withUnsafeBufferPointer { x in
        re.withUnsafeMutableBufferPointer { r in
          im.withUnsafeMutableBufferPointer { i in
            scratch.withUnsafeMutableBufferPointer { s in
              plan.forwardReal(
                input: x.baseAddress!, real: r.baseAddress!, imag: i.baseAddress!, scratch: s)
            }
          }
        }
      }
      let naive = FFTPlan.naiveDFT(
        real: input.map(Double.init), imag: [Double](repeating: 0, count: n))
      let bins = n / 2 + 1
      let difference = max(
        maxAbsoluteDifference(re, naive.real.prefix(bins).map(Float.init)),
        maxAbsoluteDifference(im, naive.imag.prefix(bins).map(Float.init)))
      XCTAssertLessThan(difference, 1e-4, "n = \(n)")
    }
  }

  func testForward_ImpulseGivesFlatSpectrum() {
    for n in [8, 12] {
      var re = [Float](repeating: 0, count: n), im = [Float](repeating: 0, count: n)
      re[0] = 1
      FFTPlan(length: n).forward(real: &re, imag: &im)
      XCTAssertLessThan(maxAbsoluteDifference(re, [Float](repeating: 1, count: n)), 1e-6)
      XCTAssertLessThan(maxAbsoluteDifference(im, [Float](repeating: 0, count: n)), 1e-6)
    }
  }

  func testForward_IsReusableAcrossCalls() {
    let plan = FFTPlan(length: 12)
    var first = (signal(12, seed: 1), [Float](repeating: 0, count: 12))
    var second = first
    plan.forward(real: &first.0, imag: &first.1)
    var other = (signal(12, seed: 2), [Float](repeating: 0, count: 12))
    plan.forward(real: &other.0, imag: &other.1)
    plan.forward(real: &second.0, imag: &second.1)
    XCTAssertEqual(first.0, second.0)
    XCTAssertEqual(first.1, second.1)
  }

  func testNaiveDFT_KnownPair() {
    // x = [1, 2, 3, 4] -> X = [10, -2+2i, -2, -2-2i].
    let out = FFTPlan.naiveDFT(real: [1, 2, 3, 4], imag: [0, 0, 0, 0])
    XCTAssertEqual(out.real, [10, -2, -2, -2].map(Double.init), accuracy: 1e-12)
    XCTAssertEqual(out.imag, [0, 2, 0, -2].map(Double.init), accuracy: 1e-12)
  }
}

func XCTAssertEqual(
  _ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(a.count, b.count, file: file, line: line)
  for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, file: file, line: line) }
}
