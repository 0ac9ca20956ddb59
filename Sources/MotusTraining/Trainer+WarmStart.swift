// The refit's warm start: a logistic model carried over to another standardisation.

import MotusLinearAlgebra
import MotusModels

extension Trainer {
  /// The same linear function of the raw features under another standardisation:
  /// `W·(x - m)/s + b = W'·(x - m')/s' + b'` with `W'[c, j] = W[c, j]·s'_j/s_j` and
  /// `b'_c = b_c + Σ_j W[c, j]·(m'_j - m_j)/s_j`. Warm-starts the refit on every row.
  /// - Complexity: O(*K F*).
  static func restandardized(
    _ model: LogisticRegression, from old: Standardizer, to new: Standardizer
  ) -> LogisticRegression {
    var weight = model.linear.weight
    var bias = model.linear.bias
    let f = weight.columnCount
    for c in 0..<weight.rowCount {
      var shift = Double(bias[c])
      for j in 0..<f {
        let w = Double(weight.values[c * f + j]) / Double(old.scale[j])
        shift += w * (Double(new.mean[j]) - Double(old.mean[j]))
        weight.values[c * f + j] = Float(w * Double(new.scale[j]))
      }
      bias[c] = Float(shift)
    }
    return LogisticRegression(classes: model.classes, linear: Linear(weight: weight, bias: bias))
  }
}
