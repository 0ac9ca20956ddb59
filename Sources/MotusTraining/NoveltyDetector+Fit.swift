// Fitting a NoveltyDetector on standardised rows z [N, F]: the covariance's top-k eigenvectors
// (LAPACKE ssyevd) are the principal directions, the mean of the remaining eigenvalues is the
// residual variance, and the threshold is a quantile of the scores of rows from people the fit
// did not see.

import MotusBLAS
import MotusLinearAlgebra
import MotusModels

extension NoveltyDetector {
  /// The smallest variance kept, in standardised units: directions that carry less are
  /// numerical noise, and dividing by them would make the score explode.
  static let varianceFloor: Float = 1e-4

  /// Fits the principal subspace of `z` and takes `threshold` as given.
  ///
  /// - Parameters:
  ///   - z: `[N, F]` standardised training rows, `N >= 2`.
  ///   - componentCount: Directions kept, clamped to `1...F - 1`.
  /// - Throws: `LinearAlgebraError` when the eigen-decomposition fails.
  /// - Complexity: O(*N F*² + *F*³).
  public static func fit(_ z: Matrix, componentCount: Int, threshold: Float = .infinity) throws
    -> NoveltyDetector
  {
    let n = z.rowCount
    let f = z.columnCount
    precondition(n >= 2 && f >= 2, "need at least 2 rows and 2 features, got \(n)x\(f)")
    var mean = [Double](repeating: 0, count: f)
    for i in 0..<n { for j in 0..<f { mean[j] += Double(z.values[i * f + j]) } }
    for j in 0..<f { mean[j] /= Double(n) }
    var centred = z
    for i in 0..<n { for j in 0..<f { centred.values[i * f + j] -= Float(mean[j]) } }
    var covariance = Matrix(rowCount: f, columnCount: f)
    BLAS.gemm(transposeA: true, alpha: 1 / Float(n), a: centred, b: centred, c: &covariance)
    let (values, vectors) = try BLAS.symmetricEigen(covariance)
    let k = min(max(componentCount, 1), f - 1)
    let variances = values.prefix(k).map { max($0, varianceFloor) }
    let rest = values.dropFirst(k).reduce(0) { $0 + Double(max($1, 0)) } / Double(f - k)
    return NoveltyDetector(
      mean: mean.map(Float.init), components: Array(vectors.values.prefix(k * f)),
      variances: Array(variances), residualVariance: max(Float(rest), varianceFloor),
      threshold: threshold)
  }

  /// Scores of every row of standardised `z`.
  public func scores(_ z: Matrix) -> [Float] {
    let f = z.columnCount
    precondition(f == featureCount, "expected \(featureCount) features, got \(f)")
    return z.values.withUnsafeBufferPointer { values in
      (0..<z.rowCount).map {
        score(standardized: UnsafeBufferPointer(rebasing: values[($0 * f)..<(($0 + 1) * f)]))
      }
    }
  }

  /// The `quantile` (in [0, 1]) of `scores`, by the nearest-rank rule; +infinity when empty.
  public static func quantile(_ scores: [Float], _ quantile: Double) -> Float {
    let sorted = scores.filter { !$0.isNaN }.sorted()
    guard !sorted.isEmpty else { return .infinity }
    let rank = Int((quantile * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }
}
