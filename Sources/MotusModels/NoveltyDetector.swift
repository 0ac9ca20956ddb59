// How far a window's features lie from the training data, so that a model can answer
// `unknown` for windows unlike anything it learnt from instead of forcing a class on them.
// F = features, k = principal components kept. Rows are standardised features z (the model's
// Standardizer). With d = z - mean, p = C d (C: [k, F], orthonormal rows, the top principal
// directions of the training rows, λ_i their variances) and the residual r = d - Cᵀ p:
//
//   score = ( Σ_i p_i² / λ_i  +  |r|² / ρ ) / F
//
// where ρ is the mean residual variance per dimension. This is the Mahalanobis distance in the
// principal subspace plus the scaled distance from it (a probabilistic-PCA density up to
// constants), divided by F so that a typical training row scores about 1.

/// A principal-subspace distance from the training rows, with the score above which a window
/// counts as far from them.
public struct NoveltyDetector: Codable, Sendable, Equatable {
  /// `F` means of the standardised training rows.
  public var mean: [Float]
  /// `k` principal directions, row-major `[k, F]`, orthonormal rows.
  public var components: [Float]
  /// `k` variances of the training rows along `components`.
  public var variances: [Float]
  /// Mean variance per dimension of what the components leave.
  public var residualVariance: Float
  /// Scores above this answer `unknown` (far from the training data).
  public var threshold: Float

  public init(
    mean: [Float], components: [Float], variances: [Float], residualVariance: Float,
    threshold: Float
  ) {
    precondition(!mean.isEmpty, "no features")
    precondition(
      components.count == variances.count * mean.count,
      "\(components.count) component values for \(variances.count) x \(mean.count)")
    precondition(variances.allSatisfy { $0 > 0 }, "variances must be > 0")
    precondition(residualVariance > 0, "residual variance must be > 0")
    self.mean = mean
    self.components = components
    self.variances = variances
    self.residualVariance = residualVariance
    self.threshold = threshold
  }

  public var featureCount: Int { mean.count }
  public var componentCount: Int { variances.count }

  /// The score of one standardised row (see the file header).
  /// - Complexity: O(*k F*); no allocation.
  public func score(standardized z: UnsafeBufferPointer<Float>) -> Float {
    let f = featureCount
    precondition(z.count == f, "expected \(f) features, got \(z.count)")
    var total: Float = 0
    for j in 0..<f {
      let d = z[j] - mean[j]
      total += d * d
    }
    var inSubspace: Float = 0
    var projected: Float = 0
    components.withUnsafeBufferPointer { c in
      for i in 0..<componentCount {
        var p: Float = 0
        let base = i * f
        for j in 0..<f { p += c[base + j] * (z[j] - mean[j]) }
        inSubspace += p * p / variances[i]
        projected += p * p
      }
    }
    let residual = max(total - projected, 0)
    let score = (inSubspace + residual / residualVariance) / Float(f)
    // A NaN or infinite feature is as far from the training data as a window can be.
    return score.isFinite ? score : .infinity
  }

  /// Whether a score is above the threshold.
  @inlinable
  public func isFar(score: Float) -> Bool { score > threshold }
}
