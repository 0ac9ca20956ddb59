// NoveltyDetector scores worked out by hand, and what a non-finite feature scores.

import MotusModels
import XCTest

final class NoveltyDetectorTests: XCTestCase {
  /// F = 3 features, k = 1 component c = (0.6, 0.8, 0) (unit length) of variance λ = 4,
  /// residual variance ρ = 0.5, mean (1, 2, 0).
  private let detector = NoveltyDetector(
    mean: [1, 2, 0], components: [0.6, 0.8, 0], variances: [4], residualVariance: 0.5,
    threshold: 1)

  private func score(_ z: [Float]) -> Float {
    z.withUnsafeBufferPointer { detector.score(standardized: $0) }
  }

  func testScore_HandComputed() {
    // z = (2, 4, 1): d = z - mean = (1, 2, 1), |d|² = 1 + 4 + 1 = 6.
    // p = c · d = 0.6 + 1.6 + 0 = 2.2; in the subspace p² / λ = 4.84 / 4 = 1.21.
    // r = d - p c = (1 - 1.32, 2 - 1.76, 1) = (-0.32, 0.24, 1), |r|² = 0.1024 + 0.0576 + 1
    //   = 1.16 (= 6 - 4.84); off it |r|² / ρ = 2.32.
    // score = (1.21 + 2.32) / 3 = 1.17666...
    XCTAssertEqual(score([2, 4, 1]), 3.53 / 3, accuracy: 1e-6)
    XCTAssertTrue(detector.isFar(score: score([2, 4, 1])))
    XCTAssertEqual(detector.featureCount, 3)
    XCTAssertEqual(detector.componentCount, 1)
  }

  func testScore_AtTheMeanAndAlongTheComponent() {
    XCTAssertEqual(score([1, 2, 0]), 0)
    // z = mean + 2 c = (2.2, 3.6, 0): p = 2, p² / λ = 1, no residual: score 1 / 3.
    XCTAssertEqual(score([2.2, 3.6, 0]), 1.0 / 3, accuracy: 1e-6)
    XCTAssertFalse(detector.isFar(score: score([2.2, 3.6, 0])))
    // Straight off the subspace: d = (0, 0, 1), p = 0, |r|² / ρ = 2: score 2 / 3.
    XCTAssertEqual(score([1, 2, 1]), 2.0 / 3, accuracy: 1e-6)
  }

  func testIsFar_IsStrictlyAboveTheThreshold() {
    XCTAssertFalse(detector.isFar(score: 1))
    XCTAssertTrue(detector.isFar(score: 1.0001))
    XCTAssertTrue(detector.isFar(score: .infinity))
  }

  func testScore_NonFiniteFeatureIsInfinitelyFar() {
    for bad: Float in [.nan, .infinity, -.infinity] {
      for position in 0..<3 {
        var z: [Float] = [1, 2, 0]
        z[position] = bad
        XCTAssertEqual(score(z), .infinity, "\(bad) at \(position)")
      }
    }
  }

  func testScore_ScaledByFeatureCount() {
    // Two components spanning the first two axes of F = 2 leave no residual: the score is
    // the Mahalanobis distance over F. d = (2, -1): (4 / 4 + 1 / 0.25) / 2 = 2.5.
    let full = NoveltyDetector(
      mean: [0, 0], components: [1, 0, 0, 1], variances: [4, 0.25], residualVariance: 1,
      threshold: .infinity)
    let z: [Float] = [2, -1]
    XCTAssertEqual(z.withUnsafeBufferPointer { full.score(standardized: $0) }, 2.5, accuracy: 1e-6)
    XCTAssertFalse(full.isFar(score: 1e30))
  }
}
