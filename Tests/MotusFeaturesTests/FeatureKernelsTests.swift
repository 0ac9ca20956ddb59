import Foundation
import MotusTestSupport
import XCTest

@testable import MotusFeatures

final class FeatureKernelsTests: XCTestCase {
  private func values(_ n: Int, seed: UInt64, levels: Int? = nil) -> [Float] {
    var state = seed
    return (0..<n).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let u = Double(state >> 11) / Double(1 << 53)
      // `levels` makes many ties.
      return levels.map { Float(Int(u * Double($0))) } ?? Float(u * 200 - 100)
    }
  }

  func testBitonicAndShellSort_MatchStandardSort() {
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 38, 64, 100, 128, 129, 256, 300, 512] {
      for (seed, levels) in [(UInt64(n), nil), (UInt64(n) + 7, 3)] as [(UInt64, Int?)] {
        let input = values(n, seed: seed, levels: levels)
        var bitonic = input, shell = input
        var scratch = [Float](repeating: 0, count: 2 * FeatureKernels.bitonicLength(n))
        bitonic.withUnsafeMutableBufferPointer { a in
          scratch.withUnsafeMutableBufferPointer { s in
            FeatureKernels.bitonicSort(a.baseAddress!, n, scratch: s.baseAddress!)
          }
        }
        shell.withUnsafeMutableBufferPointer { FeatureKernels.shellSort($0.baseAddress!, n) }
        XCTAssertEqual(bitonic, input.sorted(), "bitonic n = \(n)")
        XCTAssertEqual(shell, input.sorted(), "shell n = \(n)")
      }
    }
  }

  func testMedianAbsoluteDeviation_MatchesSortOfDeviations() {
    for n in [1, 2, 5, 8, 38, 128] {
      for levels in [nil, 4] as [Int?] {
        let sorted = values(n, seed: UInt64(n) * 3, levels: levels).sorted()
        let median = FeatureExtractor.referencePercentile(sorted.map(Double.init), 0.5)
        let deviations = sorted.map { abs(Double($0) - median) }.sorted()
        let expected = FeatureExtractor.referencePercentile(deviations, 0.5)
        let got = sorted.withUnsafeBufferPointer {
          FeatureKernels.medianAbsoluteDeviation($0.baseAddress!, n, median: median)
        }
        XCTAssertEqual(got, expected, accuracy: 1e-12, "n = \(n)")
      }
    }
  }

  func testAutocorrelationPeak_MatchesEveryLagDefinition() {
    let n = 100
    let d = (0..<n).map { Float(sin(Double($0) * 0.5) + 0.3 * cos(Double($0) * 1.7)) }
    var scratch = [Float](repeating: 0, count: 50 + 5)
    let padded = d + [Float](repeating: 0, count: FeatureKernels.autocorrelationPadding)
    let fast = padded.withUnsafeBufferPointer { dp in
      scratch.withUnsafeMutableBufferPointer { s in
        FeatureKernels.autocorrelationPeak(
          dp.baseAddress!, n, minLag: 4, maxLag: 50, scratch: s.baseAddress!)
      }
    }
    let energy = d.map { Double($0) * Double($0) }.reduce(0, +)
    let r = (0..<n).map { k in
      (0..<(n - k)).map { Double(d[$0]) * Double(d[$0 + k]) }.reduce(0, +) / energy
    }
    let peaks = (4...50).filter { r[$0] > r[$0 - 1] && r[$0] >= r[$0 + 1] }
    let best = peaks.max { r[$0] < r[$1] } ?? 0
    XCTAssertEqual(fast.lag, best)
    XCTAssertEqual(fast.value, r[best], accuracy: 1e-5)
  }
}

final class ArccosTests: XCTestCase {
  func testArccos_MatchesLibmWithin3e8() {
    var worst = 0.0
    for i in 0...20_000 {
      let c = -1 + Double(i) / 10_000
      worst = max(worst, abs(FeatureKernels.arccos(c) - acos(c)))
    }
    XCTAssertLessThan(worst, 3e-8)
  }
}

final class SIMDKernelTests: XCTestCase {
  func testNaturalLog_MatchesLibmWithinFloatPrecision() {
    var worst: Float = 0
    var x: Float = 1e-30
    while x < 1e3 {
      let lanes = FeatureKernels.naturalLog(SIMD4(x, x * 1.1, x * 1.2, x * 1.3))
      for (i, scale) in [Float(1), 1.1, 1.2, 1.3].enumerated() {
        let expected = Float(log(Double(x * scale)))
        worst = max(worst, abs(lanes[i] - expected) / max(1, abs(expected)))
      }
      x *= 1.37
    }
    XCTAssertLessThan(worst, 4e-7)
    XCTAssertEqual(0 * FeatureKernels.naturalLog(SIMD4(repeating: 0))[0], 0)
  }

  func testArccosLanes_MatchScalar() {
    let c = SIMD4<Double>(-1, -0.3, 0.25, 1)
    let lanes = FeatureKernels.arccos(c)
    for i in 0..<4 { XCTAssertEqual(lanes[i], FeatureKernels.arccos(c[i]), accuracy: 1e-15) }
  }
}
