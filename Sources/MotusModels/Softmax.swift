// Temperature-scaled softmax over the K logits of one row (or each row of an [N, K] matrix):
// p_k = exp(z_k / T) / Σ_j exp(z_j / T), computed after subtracting the row maximum.

import Foundation
import MotusLinearAlgebra

/// Numerically stable softmax.
public enum Softmax {
  /// Replaces `row` (K logits) by its softmax at `temperature` (> 0; 1 leaves logits unscaled).
  /// - Complexity: O(*K*), no allocation.
  @inlinable
  public static func apply(_ row: UnsafeMutableBufferPointer<Float>, temperature: Float = 1) {
    precondition(temperature > 0, "temperature must be > 0, got \(temperature)")
    guard !row.isEmpty else { return }
    var maxLogit = row[0]
    for z in row where z > maxLogit { maxLogit = z }
    var sum: Float = 0
    for k in row.indices {
      let e = Foundation.exp((row[k] - maxLogit) / temperature)
      row[k] = e
      sum += e
    }
    for k in row.indices { row[k] /= sum }
  }

  /// Softmax of each row of `logits` (`[N, K]`), shape `[N, K]`; each row sums to 1.
  public static func rows(_ logits: Matrix, temperature: Float = 1) -> Matrix {
    var out = logits
    let k = logits.columnCount
    out.values.withUnsafeMutableBufferPointer { v in
      for i in 0..<logits.rowCount {
        apply(
          UnsafeMutableBufferPointer(rebasing: v[(i * k)..<((i + 1) * k)]), temperature: temperature
        )
      }
    }
    return out
  }
}
