// Backprop against central differences (scikit-learn's test_gradient), and the BLAS forward and
// backward against the plain-loop reference kernels.

import MotusData
import MotusLinearAlgebra
import MotusTestSupport
import MotusTraining
import XCTest

final class GradientTests: XCTestCase {
  private func checkGradient(widths: [Int], l2Penalty: Float, weighted: Bool, seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    let network = FeedForwardNetwork(glorotUniform: widths, generator: &generator)
    let rows = 6
    let x = Matrix(
      rowCount: rows, columnCount: widths[0],
      values: (0..<(rows * widths[0])).map { _ in Synthetic.gaussian(&generator) })
    let labels = (0..<rows).map { $0 % widths.last! }
    let weights: [Float]? = weighted ? (0..<rows).map { 0.5 + Float($0) * 0.25 } : nil
    let (_, analytic) = network.lossAndGradient(
      x: x, labels: labels, sampleWeights: weights, l2Penalty: l2Penalty)
    let epsilon: Float = 3e-3
    var worst: Float = 0
    for i in network.parameters.indices {
      var plus = network
      var minus = network
      plus.parameters[i] += epsilon
      minus.parameters[i] -= epsilon
      let lossPlus = plus.lossAndGradient(
        x: x, labels: labels, sampleWeights: weights, l2Penalty: l2Penalty
      ).loss
      let lossMinus = minus.lossAndGradient(
        x: x, labels: labels, sampleWeights: weights, l2Penalty: l2Penalty
      ).loss
      let numeric = Float((lossPlus - lossMinus) / Double(2 * epsilon))
      worst = max(worst, abs(numeric - analytic[i]))
      XCTAssertEqual(analytic[i], numeric, accuracy: 1e-4, "parameter \(i) of widths \(widths)")
    }
    print("GRADIENT OK widths \(widths) l2 \(l2Penalty), maxdiff = \(worst)")
  }

  func testLogisticGradient_MatchesCentralDifference() {
    checkGradient(widths: [4, 3], l2Penalty: 0.5, weighted: true, seed: 11)
  }

  func testOneHiddenLayerGradient_MatchesCentralDifference() {
    checkGradient(widths: [3, 5, 4], l2Penalty: 0.3, weighted: false, seed: 12)
  }

  func testTwoHiddenLayerGradient_MatchesCentralDifference() {
    checkGradient(widths: [3, 6, 4, 3], l2Penalty: 0.2, weighted: true, seed: 13)
  }

  func testL2Term_HandValue() {
    // All-zero weights except W[0,0] = 2 in widths [1, 2]; x = [[0]], one row, alpha = 1:
    // logits = [0, 0] -> CE = ln 2; L2 = alpha/(2B)·||W||² = 1/2·4 = 2; dL/dW[0,0] = alpha/B·2 = 2
    var network = FeedForwardNetwork(widths: [1, 2])
    network.parameters[0] = 2
    let (loss, gradient) = network.lossAndGradient(
      x: Matrix(rows: [[0]]), labels: [0], l2Penalty: 1)
    XCTAssertEqual(loss, log(2) + 2, accuracy: 1e-6)
    XCTAssertEqual(gradient[0], 2, accuracy: 1e-6)
  }

  func testBLASBackend_MatchesReferenceKernels() {
    var generator = SplitMix64(seed: 21)
    let widths = [7, 9, 5, 4]
    let network = FeedForwardNetwork(glorotUniform: widths, generator: &generator)
    let x = Matrix(
      rowCount: 13, columnCount: 7, values: (0..<91).map { _ in Synthetic.gaussian(&generator) })
    let labels = (0..<13).map { ($0 * 3) % 4 }
    let fast = network.lossAndGradient(x: x, labels: labels, l2Penalty: 0.1, backend: .blas)
    let slow = network.lossAndGradient(x: x, labels: labels, l2Penalty: 0.1, backend: .reference)
    XCTAssertEqual(fast.loss, slow.loss, accuracy: 1e-5)
    let diff = maxAbsoluteDifference(fast.gradient, slow.gradient)
    print("BLAS vs reference gradient maxdiff = \(diff)")
    XCTAssertLessThan(diff, 1e-5)
    XCTAssertLessThan(
      maxAbsoluteDifference(
        network.logits(x).values, network.logits(x, backend: .reference).values), 1e-5)
  }

  func testLayers_MatchPureSwiftInference() {
    // The trained parameters, read back as Linear layers, give the same logits without BLAS.
    var generator = SplitMix64(seed: 22)
    let network = FeedForwardNetwork(glorotUniform: [3, 4, 2], generator: &generator)
    let x = Matrix(rows: [[1, -1, 0.5], [0, 2, -3]])
    let layers = network.layers
    var h = layers[0](x)
    for i in h.values.indices where h.values[i] < 0 { h.values[i] = 0 }
    let z = layers[1](h)
    XCTAssertLessThan(maxAbsoluteDifference(z.values, network.logits(x).values), 1e-6)
  }
}
