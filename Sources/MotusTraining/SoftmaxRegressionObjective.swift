// The full-batch objective of multinomial logistic regression, for L-BFGS. X [N, F]
// standardised, W [K, F], b [K], sample weights s [N], alpha = l2Penalty; parameters laid out as
// FeedForwardNetwork(widths: [F, K]): W row-major, then b.
//
//   loss = (1/N) Σ_i s_i·(-log softmax(W·x_i + b)[y_i]) + (alpha / (2N))·||W||²
//   dZ_i = s_i·(p_i - onehot(y_i)) / N;  dW = Σ_i dZ_iᵀ·x_i + (alpha/N)·W;  db = Σ_i dZ_i
//
// The same numbers as FeedForwardNetwork.lossAndGradient up to Float rounding, computed block by
// block of rows: a block's logits and its gradient product read the same rows of X while they
// are still in cache, so X crosses the memory bus once per evaluation instead of twice, and one
// exp per logit (not two) feeds both the loss and the probabilities.

import Foundation
import MotusBLAS
import MotusLinearAlgebra

/// Loss and gradient of softmax regression over one fixed table; reuses its buffers.
struct SoftmaxRegressionObjective {
  let x: Matrix
  let labels: [Int]
  let sampleWeights: [Float]
  let l2Penalty: Float
  let classCount: Int
  /// Rows per block: about 128 KiB of X, well inside a core's L2 cache.
  let blockRows: Int
  private var scratch: [Float]  // [K, blockRows]: logits, then dZ, transposed
  private var exps: [Double]  // [K]

  /// - Parameters:
  ///   - x: `[N, F]`, `N >= 1`.
  ///   - labels: `N` indices in `0..<classCount`.
  ///   - sampleWeights: `N` weights.
  init(x: Matrix, labels: [Int], sampleWeights: [Float], l2Penalty: Float, classCount: Int) {
    precondition(
      x.rowCount > 0 && labels.count == x.rowCount && sampleWeights.count == x.rowCount,
      "\(x.rowCount) rows, \(labels.count) labels, \(sampleWeights.count) weights")
    precondition(classCount >= 2, "classCount \(classCount)")
    self.x = x
    self.labels = labels
    self.sampleWeights = sampleWeights
    self.l2Penalty = l2Penalty
    self.classCount = classCount
    blockRows = max(8, min(x.rowCount, 32_768 / max(1, x.columnCount)))
    scratch = [Float](repeating: 0, count: blockRows * classCount)
    exps = [Double](repeating: 0, count: classCount)
  }

  var parameterCount: Int { classCount * (x.columnCount + 1) }

  /// The loss (accumulated in Double) at `parameters`; writes the gradient (`P` values).
  /// - Complexity: O(*N F K*), one pass over X.
  mutating func evaluate(
    _ parameters: UnsafeBufferPointer<Float>, gradient: UnsafeMutableBufferPointer<Float>
  ) -> Double {
    let n = x.rowCount
    let f = x.columnCount
    let k = classCount
    precondition(
      parameters.count == parameterCount && gradient.count == parameterCount,
      "\(parameters.count) parameters, \(gradient.count) gradient values, need \(parameterCount)")
    let inverseN = 1 / Double(n)
    var loss = 0.0
    var biasGradient = [Double](repeating: 0, count: k)
    let weight = parameters.baseAddress!
    let bias = weight + k * f
    let weightGradient = gradient.baseAddress!
    x.values.withUnsafeBufferPointer { xv in
      scratch.withUnsafeMutableBufferPointer { z in
        exps.withUnsafeMutableBufferPointer { e in
          var start = 0
          while start < n {
            let rows = min(blockRows, n - start)
            let xBlock = xv.baseAddress! + start * f
            // Zᵀ = W·X_blockᵀ, stored [K, rows]: OpenBLAS's kernels are column-major, and in
            // that layout this product has the long side (rows) where its register blocking is
            // wide; X·Wᵀ stored [rows, K] puts K = 6 there and runs about half as fast.
            BLAS.gemm(
              transposeA: false, transposeB: true, m: k, n: rows, k: f, alpha: 1, a: weight,
              lda: f, b: xBlock, ldb: f, beta: 0, c: z.baseAddress, ldc: rows)
            for r in 0..<rows {
              let i = start + r
              for c in 0..<k { z[c * rows + r] += bias[c] }
              let lse = LogSumExp(count: k, exponentials: e.baseAddress) { z[$0 * rows + r] }
              let y = labels[i]
              let s = Double(sampleWeights[i])
              loss += s * lse.crossEntropy(labelLogit: z[y * rows + r])
              let scale = s * inverseN / lse.sum
              for c in 0..<k { z[c * rows + r] = Float(e[c] * scale) }
              // p_y - 1 = -(Σ_{c≠y} e_c) / sum: no cancellation when p_y is close to 1
              var others = 0.0
              for c in 0..<k where c != y { others += e[c] }
              z[y * rows + r] = Float(-others * scale)
              for c in 0..<k { biasGradient[c] += Double(z[c * rows + r]) }
            }
            // dW (+)= dZ_blockᵀ·X_block, [K, F]; the block is still in cache
            BLAS.gemm(
              transposeA: false, transposeB: false, m: k, n: f, k: rows, alpha: 1,
              a: UnsafePointer(z.baseAddress), lda: rows, b: xBlock, ldb: f,
              beta: start == 0 ? 0 : 1, c: weightGradient, ldc: f)
            start += rows
          }
        }
      }
    }
    for c in 0..<k { gradient[k * f + c] = Float(biasGradient[c]) }
    return loss * inverseN + weightDecay(weight, gradient: weightGradient)
  }

  /// Adds the L2 term's gradient (l2Penalty / N) w to `gradient` and returns its loss,
  /// l2Penalty / (2N) |W|^2 (the bias is not penalised).
  private func weightDecay(
    _ weight: UnsafePointer<Float>, gradient: UnsafeMutablePointer<Float>
  ) -> Double {
    let n = x.rowCount
    let decay = l2Penalty / Float(n)
    var squares = 0.0
    for j in 0..<(classCount * x.columnCount) {
      let w = weight[j]
      squares += Double(w) * Double(w)
      gradient[j] += decay * w
    }
    return Double(l2Penalty) * (1 / Double(n)) / 2 * squares
  }
}
