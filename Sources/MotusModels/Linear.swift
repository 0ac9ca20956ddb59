// An affine layer y = x·Wᵀ + b. I = inputCount, O = outputCount, N = rows.
// Storage: weight is [O, I] row-major (as MLX and llm.c), bias has O values.

import MotusLinearAlgebra

/// An affine map from `inputCount` to `outputCount` values.
public struct Linear: Sendable, Equatable {
  /// Weight, stored `[outputCount, inputCount]`: row `o` holds the weights into output `o`.
  public var weight: Matrix
  /// Bias, `outputCount` values.
  public var bias: [Float]

  public var inputCount: Int { weight.columnCount }
  public var outputCount: Int { weight.rowCount }

  public init(weight: Matrix, bias: [Float]) {
    precondition(
      bias.count == weight.rowCount,
      "bias has \(bias.count) values, weight is [\(weight.rowCount), \(weight.columnCount)]")
    self.weight = weight
    self.bias = bias
  }

  /// `x·Wᵀ + b` for `x` of shape `[N, inputCount]`; returns `[N, outputCount]`.
  /// - Complexity: O(*N I O*) with the naive kernel.
  public func callAsFunction(_ x: Matrix) -> Matrix {
    precondition(x.columnCount == inputCount, "expected \(inputCount) inputs, got \(x.columnCount)")
    var y = ReferenceKernels.matmul(x, weight, transposeB: true)
    y.addRowVector(bias)
    return y
  }

  /// One row: `output[o] = Σ_i input[i]·W[o, i] + b[o]`, without allocating.
  @inlinable
  public func apply(
    row input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(input.count >= inputCount && output.count >= outputCount, "buffers too short")
    let n = inputCount
    weight.values.withUnsafeBufferPointer { w in
      for o in 0..<outputCount {
        var sum: Float = 0
        for i in 0..<n { sum += w[o * n + i] * input[i] }
        output[o] = sum + bias[o]
      }
    }
  }
}
