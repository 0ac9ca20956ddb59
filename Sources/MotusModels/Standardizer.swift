// Per-feature standardisation z = (x - mean) / scale over an [N, F] matrix. Scale is the
// population standard deviation (ddof 0, as scikit-learn's StandardScaler); a feature with zero
// variance keeps scale 1, so it maps to 0 instead of dividing by zero.

import MotusLinearAlgebra

/// Feature means and scales learnt from training rows.
public struct Standardizer: Codable, Sendable, Equatable {
  /// `F` feature means.
  public var mean: [Float]
  /// `F` standard deviations (1 where the training variance was 0).
  public var scale: [Float]

  public init(mean: [Float], scale: [Float]) {
    precondition(mean.count == scale.count, "mean has \(mean.count) values, scale \(scale.count)")
    precondition(scale.allSatisfy { $0 > 0 }, "scales must be > 0")
    self.mean = mean
    self.scale = scale
  }

  public var featureCount: Int { mean.count }

  /// Learns mean and scale of each column of `x` (`[N, F]`, `N >= 1`), accumulating in Double.
  /// - Complexity: O(*N F*).
  public static func fit(_ x: Matrix) -> Standardizer {
    precondition(x.rowCount > 0, "cannot standardise zero rows")
    let f = x.columnCount
    var sum = [Double](repeating: 0, count: f)
    for i in 0..<x.rowCount { for j in 0..<f { sum[j] += Double(x.values[i * f + j]) } }
    let mean = sum.map { $0 / Double(x.rowCount) }
    var squares = [Double](repeating: 0, count: f)
    for i in 0..<x.rowCount {
      for j in 0..<f {
        let d = Double(x.values[i * f + j]) - mean[j]
        squares[j] += d * d
      }
    }
    let scale = squares.map { s -> Float in
      let std = Float((s / Double(x.rowCount)).squareRoot())
      return std > 0 && std.isFinite ? std : 1
    }
    return Standardizer(mean: mean.map(Float.init), scale: scale)
  }

  /// `(x - mean) / scale`, shape `[N, F]`.
  public func transform(_ x: Matrix) -> Matrix {
    var out = x
    transform(inPlace: &out)
    return out
  }

  /// `transform(x)` written over `x`: no second copy of a large table.
  public func transform(inPlace x: inout Matrix) {
    precondition(
      x.columnCount == featureCount, "expected \(featureCount) features, got \(x.columnCount)")
    let f = featureCount
    x.values.withUnsafeMutableBufferPointer { v in
      for i in 0..<(v.count / max(f, 1)) {
        for j in 0..<f { v[i * f + j] = (v[i * f + j] - mean[j]) / scale[j] }
      }
    }
  }

  /// Standardises one row in place, without allocating.
  @inlinable
  public func transform(row: UnsafeMutableBufferPointer<Float>) {
    precondition(row.count == featureCount, "expected \(featureCount) features, got \(row.count)")
    for j in 0..<row.count { row[j] = (row[j] - mean[j]) / scale[j] }
  }
}
