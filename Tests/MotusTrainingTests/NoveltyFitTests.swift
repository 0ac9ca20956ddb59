// NoveltyDetector.fit on synthetic (generated) Gaussian rows with a known covariance, the
// scores of its training rows, and the nearest-rank quantile that sets its threshold.

import MotusData
import MotusLinearAlgebra
import MotusModels
import MotusTraining
import XCTest

final class NoveltyFitTests: XCTestCase {
  /// `n` rows of F = 4 features: mean (1, -2, 0.5, 3), plus 3 g along u = (1, 1, 0, 0) / √2,
  /// plus unit noise on every feature (g and the noise standard normal). The covariance is
  /// 9 u uᵀ + I: variance 10 along u and 1 in every direction across it.
  private func rows(_ n: Int, seed: UInt64) -> Matrix {
    var generator = SplitMix64(seed: seed)
    let mean: [Float] = [1, -2, 0.5, 3]
    let u: [Float] = [1, 1, 0, 0].map { $0 / Float(2).squareRoot() }
    var values: [Float] = []
    for _ in 0..<n {
      let g = 3 * Synthetic.gaussian(&generator)
      for j in 0..<4 { values.append(mean[j] + g * u[j] + Synthetic.gaussian(&generator)) }
    }
    return Matrix(rowCount: n, columnCount: 4, values: values)
  }

  private func average(_ x: [Float]) -> Double { x.reduce(0) { $0 + Double($1) } / Double(x.count) }

  func testFit_RecoversTheTopDirectionAndVariances() throws {
    let z = rows(4000, seed: 1)
    let detector = try NoveltyDetector.fit(z, componentCount: 1)
    XCTAssertEqual(detector.featureCount, 4)
    XCTAssertEqual(detector.componentCount, 1)
    let expectedMean: [Float] = [1, -2, 0.5, 3]
    for j in 0..<4 { XCTAssertEqual(detector.mean[j], expectedMean[j], accuracy: 0.15) }
    let u = [1, 1, 0, 0].map { $0 / Float(2).squareRoot() }
    let c = detector.components
    XCTAssertEqual(c.map { $0 * $0 }.reduce(0, +), 1, accuracy: 1e-5, "unit direction")
    XCTAssertGreaterThan(abs(zip(c, u).map(*).reduce(0, +)), 0.99)
    // Variance 10 along u (standard error 10 · √(2 / 4000) ≈ 0.22), 1 across it.
    XCTAssertEqual(detector.variances[0], 10, accuracy: 0.7)
    XCTAssertEqual(detector.residualVariance, 1, accuracy: 0.08)
    XCTAssertEqual(detector.threshold, .infinity, "no threshold unless given")
  }

  func testFit_TrainingRowsScoreOneOnAverage() throws {
    // On its own rows, p² / λ averages 1 per component and |r|² / ρ averages F - k, so the
    // mean score is (k + F - k) / F = 1 for any k.
    let z = rows(2000, seed: 2)
    for k in 1...3 {
      let detector = try NoveltyDetector.fit(z, componentCount: k)
      XCTAssertEqual(average(detector.scores(z)), 1, accuracy: 1e-3, "k = \(k)")
    }
    // Fresh rows from the same distribution score about 1 as well; a row 10 standard
    // deviations across u scores far more.
    let detector = try NoveltyDetector.fit(z, componentCount: 1, threshold: 3)
    XCTAssertEqual(average(detector.scores(rows(2000, seed: 3))), 1, accuracy: 0.1)
    let far = Matrix(rows: [[1, -2, 10.5, 3]])
    XCTAssertGreaterThan(detector.scores(far)[0], 20)
    XCTAssertTrue(detector.isFar(score: detector.scores(far)[0]))
  }

  func testFit_ClampsComponentsAndFloorsVariances() throws {
    let z = rows(500, seed: 4)
    XCTAssertEqual(try NoveltyDetector.fit(z, componentCount: 0).componentCount, 1)
    XCTAssertEqual(try NoveltyDetector.fit(z, componentCount: 10).componentCount, 3)
    // A constant feature: its direction has variance 0, which is floored so that scores
    // stay finite.
    var flat = z
    for i in 0..<flat.rowCount { flat.values[i * 4 + 2] = 7 }
    let detector = try NoveltyDetector.fit(flat, componentCount: 3)
    XCTAssertTrue(detector.variances.allSatisfy { $0 >= 1e-4 }, "\(detector.variances)")
    XCTAssertGreaterThanOrEqual(detector.residualVariance, 1e-4)
    XCTAssertTrue(detector.scores(flat).allSatisfy(\.isFinite))
  }

  func testQuantile_NearestRank() {
    let scores: [Float] = [4, 1, 3, 2]
    // Rank ceil(q · 4): q = 0.25 -> 1st, 0.5 -> 2nd, 0.75 -> 3rd, 1 -> 4th smallest.
    XCTAssertEqual(NoveltyDetector.quantile(scores, 0.25), 1)
    XCTAssertEqual(NoveltyDetector.quantile(scores, 0.5), 2)
    XCTAssertEqual(NoveltyDetector.quantile(scores, 0.75), 3)
    XCTAssertEqual(NoveltyDetector.quantile(scores, 0.76), 4)
    XCTAssertEqual(NoveltyDetector.quantile(scores, 1), 4)
    XCTAssertEqual(NoveltyDetector.quantile(scores, 0), 1, "clamped to the smallest")
    XCTAssertEqual(NoveltyDetector.quantile([.nan, 2, .nan, 1], 1), 2, "NaN left out")
    XCTAssertEqual(NoveltyDetector.quantile([], 0.5), .infinity)
    XCTAssertEqual(NoveltyDetector.quantile([.nan], 0.5), .infinity)
    XCTAssertEqual(NoveltyDetector.quantile([1, .infinity], 1), .infinity)
  }
}
