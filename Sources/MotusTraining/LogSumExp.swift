// Log-sum-exp over the K logits of one row, and the cross-entropy it gives: the single
// implementation behind every training objective, validation loss and temperature fit.
//
//   m = max_c z_c,   S = Σ_c exp(z_c − m),   log Σ_c exp(z_c) = m + log S
//   cross-entropy(z, y) = −log softmax(z)[y] = log Σ_c exp(z_c) − z_y
//
// Subtracting m keeps every term in (0, 1] (the largest is exactly 1), so nothing overflows and
// the loss stays exact when p_y underflows to 0.

import Foundation

/// `log Σ_c exp(z_c)` of one row of K logits, split as `maximum + logSum`.
///
///     let lse = LogSumExp(count: 3) { [Float(1), 2, 3][$0] }
///     lse.crossEntropy(labelLogit: 3)  // -log softmax([1, 2, 3])[2] ≈ 0.408
///
/// Each difference `z_c − m` is taken in `Scalar` (Float for network logits) and only then
/// widened to Double for `exp`; the terms are summed in Double in the order c = 0, 1, ….
/// Trained models depend on this exact rounding, bit for bit.
public struct LogSumExp<Scalar: BinaryFloatingPoint> {
  /// `m = max_c z_c` (the first of equal maxima).
  public let maximum: Scalar
  /// `S = Σ_c exp(z_c − m)`, at least 1.
  public let sum: Double
  /// `log S`: `log Σ_c exp(z_c) = m + logSum`.
  public let logSum: Double

  /// - Parameters:
  ///   - count: K ≥ 1.
  ///   - exponentials: When given, receives `exp(z_c − m)` at `[c]` for `c < count` (softmax
  ///     numerators, for a gradient).
  ///   - logit: `z_c` for `c` in `0..<count`; the caller indexes, so any layout will do.
  /// - Complexity: O(*K*), no allocation.
  @inlinable
  public init(
    count: Int, exponentials: UnsafeMutablePointer<Double>? = nil, logit: (Int) -> Scalar
  ) {
    precondition(count >= 1, "log-sum-exp of \(count) logits")
    var maximum = logit(0)
    for c in 1..<count {
      let z = logit(c)
      if z > maximum { maximum = z }
    }
    var sum = 0.0
    for c in 0..<count {
      let e = Foundation.exp(Double(logit(c) - maximum))
      exponentials?[c] = e
      sum += e
    }
    self.maximum = maximum
    self.sum = sum
    self.logSum = Foundation.log(sum)
  }

  /// Where the label's logit leaves the log-sum-exp. Both give `log Σ_c exp(z_c) − z_y` but
  /// round differently; each caller keeps the one its results were recorded with.
  public enum LabelTerm: Sendable {
    /// `logSum − (z_y − m)`, the difference in `Scalar`: training objectives and losses.
    case shifted
    /// `(logSum + m) − z_y` in Double: temperature fitting, whose logits are Double already.
    case unshifted
  }

  /// Cross-entropy `−log softmax(z)[y] = log Σ_c exp(z_c) − z_y`, given `z_y`.
  @inlinable
  public func crossEntropy(labelLogit: Scalar, _ labelTerm: LabelTerm = .shifted) -> Double {
    switch labelTerm {
    case .shifted: return logSum - Double(labelLogit - maximum)
    case .unshifted: return logSum + Double(maximum) - Double(labelLogit)
    }
  }
}
