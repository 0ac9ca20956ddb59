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
  ///
  /// Sums in eight SIMD lanes (the hot loop of streaming inference), so the result can
  /// differ from `callAsFunction` in the last bits of a Float.
  @inlinable
  public func apply(
    row input: UnsafeBufferPointer<Float>, into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(input.count >= inputCount && output.count >= outputCount, "buffers too short")
    let n = inputCount
    let vectorEnd = n - n % 8
    weight.values.withUnsafeBufferPointer { w in
      guard let wBase = w.baseAddress, let xBase = input.baseAddress else { return }
      let x = UnsafeRawPointer(xBase)
      for o in 0..<outputCount {
        let row = UnsafeRawPointer(wBase + o * n)
        var lanes = SIMD8<Float>()
        var i = 0
        while i < vectorEnd {
          let a = row.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
          let b = x.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
          // Not addProduct: baseline x86-64 has no FMA, and a fused multiply-add becomes a
          // library call per lane.
          lanes += a * b
          i += 8
        }
        var sum = lanes.sum()
        while i < n {
          sum += wBase[o * n + i] * xBase[i]
          i += 1
        }
        output[o] = sum + bias[o]
      }
    }
  }
}
