// Probabilistic metrics on class probabilities P [N, K] and true labels (N values).

import Foundation
import MotusLinearAlgebra

public enum Metrics {
  /// Mean `-ln p[label]`, with `p` clipped to at least 1e-15 (as scikit-learn's log_loss).
  public static func logLoss(probabilities: Matrix, labels: [Int]) -> Double {
    precondition(
      probabilities.rowCount == labels.count,
      "\(probabilities.rowCount) rows, \(labels.count) labels")
    guard !labels.isEmpty else { return .nan }
    var total = 0.0
    for (i, y) in labels.enumerated() {
      total -= Foundation.log(max(1e-15, Double(probabilities[i, y])))
    }
    return total / Double(labels.count)
  }

  /// Expected calibration error (Guo et al. 2017): rows binned by top-class probability into
  /// `binCount` equal-width bins `(m-1)/M < p <= m/M`;
  /// `ECE = Σ_bins (n_b / N)·|accuracy_b - mean confidence_b|`.
  public static func expectedCalibrationError(
    probabilities: Matrix, labels: [Int], binCount: Int = 15
  ) -> Double {
    precondition(
      probabilities.rowCount == labels.count,
      "\(probabilities.rowCount) rows, \(labels.count) labels")
    precondition(binCount >= 1, "binCount must be >= 1, got \(binCount)")
    guard !labels.isEmpty else { return .nan }
    var count = [Int](repeating: 0, count: binCount)
    var correct = [Int](repeating: 0, count: binCount)
    var confidence = [Double](repeating: 0, count: binCount)
    for (i, y) in labels.enumerated() {
      var best = 0
      for c in 1..<probabilities.columnCount where probabilities[i, c] > probabilities[i, best] {
        best = c
      }
      let p = Double(probabilities[i, best])
      let bin = min(binCount - 1, max(0, Int((p * Double(binCount)).rounded(.up)) - 1))
      count[bin] += 1
      confidence[bin] += p
      if best == y { correct[bin] += 1 }
    }
    var ece = 0.0
    for b in 0..<binCount where count[b] > 0 {
      ece += abs(Double(correct[b]) - confidence[b]) / Double(labels.count)
    }
    return ece
  }

  /// Index of the largest value in each row (first on ties).
  public static func argmax(_ probabilities: Matrix) -> [Int] {
    (0..<probabilities.rowCount).map { i in
      var best = 0
      for c in 1..<max(1, probabilities.columnCount)
      where probabilities[i, c] > probabilities[i, best] {
        best = c
      }
      return best
    }
  }
}
