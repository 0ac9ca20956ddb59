// Loss and gradient of a ReLU feed-forward softmax classifier on one batch.
// B = batch rows, F = features, K = classes; layer l has weight W_l stored [O_l, I_l], bias b_l.
//
//   A_0 = X [B, F];  Z_l = A_l·W_lᵀ + b_l;  A_{l+1} = relu(Z_l) (l < L-1);  P = softmax(Z_{L-1})
//   loss = (1/B) Σ_i s_i·(-log P[i, y_i]) + (alpha / (2B)) Σ_l ||W_l||²   (biases not penalised)
//
// This is scikit-learn's MLPClassifier objective (`alpha` divided by the batch size; s_i = 1).
// Over the full batch, B = N, it is also LogisticRegression's objective divided by N, with
// C = 1/alpha and s_i the class weights.
// Backward: dZ_{L-1} = s ⊙ (P - Y) / B;  dW_l = dZ_lᵀ·A_l + (alpha/B)·W_l;  db_l = Σ_rows dZ_l;
//           dA_l = dZ_l·W_l;  dZ_{l-1} = dA_l ⊙ [Z_{l-1} > 0].

import Foundation
import MotusBLAS
import MotusData
import MotusLinearAlgebra
import MotusModels

/// The parameters of a feed-forward network as one flat vector, and its training objective.
///
/// Parameter layout: for each layer in order, its weight `[O, I]` row-major, then its bias `[O]`.
public struct FeedForwardNetwork: Sendable, Equatable {
  /// Which matrix kernels to use: OpenBLAS, or the plain loops of `ReferenceKernels`.
  public enum Backend: Sendable { case blas, reference }

  /// Layer widths `[F, H1, ..., K]`.
  public let widths: [Int]
  public var parameters: [Float]

  public init(widths: [Int], parameters: [Float]) {
    precondition(widths.count >= 2 && widths.allSatisfy { $0 > 0 }, "bad widths \(widths)")
    self.widths = widths
    let count = FeedForwardNetwork.parameterCount(widths: widths)
    precondition(parameters.count == count, "\(parameters.count) parameters, widths need \(count)")
    self.parameters = parameters
  }

  /// All-zero parameters.
  public init(widths: [Int]) {
    self.init(
      widths: widths, parameters: .init(repeating: 0, count: Self.parameterCount(widths: widths)))
  }

  /// Glorot/Xavier uniform initialisation (Glorot and Bengio, "Understanding the difficulty of
  /// training deep feedforward neural networks", AISTATS 2010), as scikit-learn's MLP:
  /// weights and biases ~ U(-b, b) with `b = √(6 / (fanIn + fanOut))`.
  public init(glorotUniform widths: [Int], generator: inout SplitMix64) {
    var parameters: [Float] = []
    for l in 0..<(widths.count - 1) {
      let bound = (6 / Float(widths[l] + widths[l + 1])).squareRoot()
      for _ in 0..<(widths[l + 1] * widths[l] + widths[l + 1]) {
        parameters.append((2 * generator.nextUnitFloat() - 1) * bound)
      }
    }
    self.init(widths: widths, parameters: parameters)
  }

  public static func parameterCount(widths: [Int]) -> Int {
    (0..<(widths.count - 1)).reduce(0) { $0 + widths[$1 + 1] * (widths[$1] + 1) }
  }

  var layerCount: Int { widths.count - 1 }

  /// Offset of layer `l`'s weight in `parameters`; its bias follows the weight.
  func weightOffset(_ l: Int) -> Int {
    (0..<l).reduce(0) { $0 + widths[$1 + 1] * (widths[$1] + 1) }
  }

  /// The layers as `Linear` values (weights `[O, I]`).
  public var layers: [Linear] {
    (0..<layerCount).map { l in
      let o = widths[l + 1]
      let i = widths[l]
      let start = weightOffset(l)
      return Linear(
        weight: Matrix(
          rowCount: o, columnCount: i, values: Array(parameters[start..<(start + o * i)])),
        bias: Array(parameters[(start + o * i)..<(start + o * i + o)]))
    }
  }

  /// The objective above and its gradient with respect to `parameters`.
  ///
  /// - Parameters:
  ///   - x: `[B, F]` standardised features.
  ///   - labels: `B` class indices in `0..<K`.
  ///   - sampleWeights: `B` weights `s_i`, or `nil` for all 1.
  ///   - l2Penalty: `alpha >= 0`.
  ///   - backend: OpenBLAS (default) or the reference loops.
  /// - Returns: the loss (accumulated in Double) and `P` gradient values.
  /// - Complexity: O(*B* Σ_l O_l I_l).
  public func lossAndGradient(
    x: Matrix, labels: [Int], sampleWeights: [Float]? = nil, l2Penalty: Float,
    backend: Backend = .blas
  ) -> (loss: Double, gradient: [Float]) {
    let b = x.rowCount
    precondition(x.columnCount == widths[0], "expected \(widths[0]) features, got \(x.columnCount)")
    precondition(labels.count == b && (sampleWeights?.count ?? b) == b, "batch sizes differ")
    precondition(b > 0, "empty batch")
    let activations = forward(x, backend: backend)
    let k = widths[layerCount]
    var delta = activations[layerCount]  // logits, becomes P then dZ
    var loss = 0.0
    for i in 0..<b {
      let s = sampleWeights?[i] ?? 1
      let rowLoss = softmaxInPlace(&delta.values, offset: i * k, count: k, label: labels[i])
      loss += Double(s) * rowLoss
      for c in 0..<k {
        let y: Float = c == labels[i] ? 1 : 0
        delta.values[i * k + c] = s * (delta.values[i * k + c] - y) / Float(b)
      }
    }
    loss /= Double(b)
    var squares = 0.0
    var gradient = [Float](repeating: 0, count: parameters.count)
    for l in stride(from: layerCount - 1, through: 0, by: -1) {
      let o = widths[l + 1]
      let inputs = widths[l]
      let start = weightOffset(l)
      let a = activations[l]
      parameters.withUnsafeBufferPointer { p in
        gradient.withUnsafeMutableBufferPointer { g in
          // dW = dZᵀ·A, [O, I]
          delta.values.withUnsafeBufferPointer { d in
            a.values.withUnsafeBufferPointer { av in
              gemm(
                backend, transposeA: true, transposeB: false, m: o, n: inputs, k: b,
                a: d.baseAddress, lda: o, b: av.baseAddress, ldb: inputs, beta: 0,
                c: g.baseAddress.map { $0 + start }, ldc: inputs)
            }
          }
          let decay = l2Penalty / Float(b)
          for j in 0..<(o * inputs) {
            let w = p[start + j]
            squares += Double(w) * Double(w)
            g[start + j] += decay * w
          }
          delta.values.withUnsafeBufferPointer { d in
            for row in 0..<b {
              for c in 0..<o { g[start + o * inputs + c] += d[row * o + c] }
            }
          }
        }
      }
      if l > 0 {
        // dA = dZ·W, [B, I]; then mask by the ReLU of the layer below
        var next = Matrix(rowCount: b, columnCount: inputs)
        parameters.withUnsafeBufferPointer { p in
          delta.values.withUnsafeBufferPointer { d in
            next.values.withUnsafeMutableBufferPointer { nv in
              gemm(
                backend, transposeA: false, transposeB: false, m: b, n: inputs, k: o,
                a: d.baseAddress, lda: o, b: p.baseAddress.map { $0 + start }, ldb: inputs, beta: 0,
                c: nv.baseAddress, ldc: inputs)
            }
          }
        }
        a.values.withUnsafeBufferPointer { av in
          next.values.withUnsafeMutableBufferPointer { nv in
            for j in 0..<nv.count where av[j] <= 0 { nv[j] = 0 }
          }
        }
        delta = next
      }
    }
    loss += Double(l2Penalty) / (2 * Double(b)) * squares
    return (loss, gradient)
  }

  /// Activations `[A_0 = X, A_1, ..., A_{L-1}, Z_{L-1}]`: post-ReLU for hidden layers, logits last.
  public func forward(_ x: Matrix, backend: Backend = .blas) -> [Matrix] {
    var out = [x]
    out.reserveCapacity(layerCount + 1)
    for l in 0..<layerCount {
      let o = widths[l + 1]
      let inputs = widths[l]
      let start = weightOffset(l)
      let a = out[l]
      var z = Matrix(rowCount: a.rowCount, columnCount: o)
      parameters.withUnsafeBufferPointer { p in
        a.values.withUnsafeBufferPointer { av in
          z.values.withUnsafeMutableBufferPointer { zv in
            // Z = A·Wᵀ
            gemm(
              backend, transposeA: false, transposeB: true, m: a.rowCount, n: o, k: inputs,
              a: av.baseAddress, lda: inputs, b: p.baseAddress.map { $0 + start }, ldb: inputs,
              beta: 0,
              c: zv.baseAddress, ldc: o)
            for row in 0..<a.rowCount {
              for c in 0..<o {
                zv[row * o + c] += p[start + o * inputs + c]
                if l < layerCount - 1 && zv[row * o + c] < 0 { zv[row * o + c] = 0 }
              }
            }
          }
        }
      }
      out.append(z)
    }
    return out
  }

  /// Logits `[N, K]`.
  public func logits(_ x: Matrix, backend: Backend = .blas) -> Matrix {
    forward(x, backend: backend)[layerCount]
  }

  /// Softmax of `count` values at `offset`, in place; returns `-log p[label]` from the
  /// log-sum-exp (exact even when p underflows).
  private func softmaxInPlace(_ v: inout [Float], offset: Int, count: Int, label: Int) -> Double {
    let lse = LogSumExp(count: count) { v[offset + $0] }
    let nll = lse.crossEntropy(labelLogit: v[offset + label])
    for c in 0..<count {
      v[offset + c] = Float(Foundation.exp(Double(v[offset + c] - lse.maximum) - lse.logSum))
    }
    return nll
  }

  private func gemm(
    _ backend: Backend, transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int,
    a: UnsafePointer<Float>?, lda: Int, b: UnsafePointer<Float>?, ldb: Int, beta: Float,
    c: UnsafeMutablePointer<Float>?, ldc: Int
  ) {
    switch backend {
    case .blas:
      BLAS.gemm(
        transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, alpha: 1, a: a, lda: lda,
        b: b, ldb: ldb, beta: beta, c: c, ldc: ldc)
    case .reference:
      ReferenceKernels.gemm(
        transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, alpha: 1, a: a, lda: lda,
        b: b, ldb: ldb, beta: beta, c: c, ldc: ldc)
    }
  }
}
