// The fused logistic objective against the layer-by-layer one, and L-BFGS's pair memory.

import MotusData
import MotusLinearAlgebra
import MotusTestSupport
import XCTest

@testable import MotusTraining

final class SoftmaxRegressionObjectiveTests: XCTestCase {
  func testFusedObjective_MatchesFeedForwardNetworkAcrossBlocks() {
    var generator = SplitMix64(seed: 21)
    // 1000 rows of 40 features: blocks of 819 rows, so the last block is partial.
    let (rows, features, classes) = (1000, 40, 5)
    let x = Matrix(
      rowCount: rows, columnCount: features,
      values: (0..<(rows * features)).map { _ in Synthetic.gaussian(&generator) })
    let labels = (0..<rows).map { ($0 * 7) % classes }
    let weights = (0..<rows).map { 0.5 + Float($0 % 4) * 0.5 }
    let network = FeedForwardNetwork(glorotUniform: [features, classes], generator: &generator)
    var objective = SoftmaxRegressionObjective(
      x: x, labels: labels, sampleWeights: weights, l2Penalty: 3, classCount: classes)
    XCTAssertLessThan(objective.blockRows, rows)
    XCTAssertNotEqual(rows % objective.blockRows, 0)
    let (loss, gradient) = network.lossAndGradient(
      x: x, labels: labels, sampleWeights: weights, l2Penalty: 3, backend: .reference)
    var fused = [Float](repeating: 0, count: gradient.count)
    let fusedLoss = network.parameters.withUnsafeBufferPointer { p in
      fused.withUnsafeMutableBufferPointer { objective.evaluate(p, gradient: $0) }
    }
    XCTAssertEqual(fusedLoss, loss, accuracy: 1e-6 * abs(loss))
    XCTAssertLessThan(maxAbsoluteDifference(fused, gradient), 1e-6)
    // A second call reuses the buffers and gives the same bits.
    var again = [Float](repeating: 0, count: gradient.count)
    let againLoss = network.parameters.withUnsafeBufferPointer { p in
      again.withUnsafeMutableBufferPointer { objective.evaluate(p, gradient: $0) }
    }
    XCTAssertEqual(againLoss, fusedLoss)
    XCTAssertEqual(again, fused)
  }

  func testLBFGS_MoreMemoryNeedsFewerEvaluationsOnIllConditionedQuadratic() {
    // f(x) = Σ c_i (x_i - 1)² with curvatures from 1 to 1e4: same optimum, fewer evaluations
    // with more (s, y) pairs.
    let p = 60
    let curvature = (0..<p).map { pow(10, 4 * Double($0) / Double(p - 1)) }
    func run(_ memory: Int) -> LBFGS.Result {
      LBFGS.minimize(
        initial: [Float](repeating: 0, count: p), maxIterations: 5000, gradientTolerance: 1e-3,
        memory: memory
      ) { x in
        var f = 0.0
        var g = [Float](repeating: 0, count: p)
        for i in 0..<p {
          let d = Double(x[i]) - 1
          f += curvature[i] * d * d
          g[i] = Float(2 * curvature[i] * d)
        }
        return (f, g)
      }
    }
    let few = run(3)
    let many = run(60)
    for result in [few, many] {
      XCTAssertTrue(result.converged)
      let ones = [Float](repeating: 1, count: p)
      XCTAssertLessThan(maxAbsoluteDifference(result.parameters, ones), 1e-3)
      XCTAssertGreaterThanOrEqual(result.evaluations, result.iterations + 1)
    }
    XCTAssertLessThan(many.evaluations, few.evaluations)
  }
}
