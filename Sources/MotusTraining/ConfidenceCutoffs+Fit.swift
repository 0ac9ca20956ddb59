// Choosing the low/medium/high confidence cut-offs from calibrated validation probabilities
// P [N, K] and true labels.

import MotusLinearAlgebra
import MotusModels

extension ConfidenceCutoffs {
  /// The rule: sort validation rows by top-class probability, highest first. A level's cut-off is
  /// the probability of the last row of the longest such prefix whose accuracy is at least the
  /// level's target and which holds at least `minimumSupport` rows. So "high" means: on
  /// validation, predictions at least this confident were right at least `highAccuracy` of the
  /// time. A level no prefix reaches gets a cut-off above 1 (never given).
  ///
  /// - Parameters:
  ///   - probabilities: Calibrated `[N, K]`.
  ///   - labels: `N` true class indices.
  ///   - mediumAccuracy: Target for `.medium`. Default 0.7.
  ///   - highAccuracy: Target for `.high` (`>= mediumAccuracy`). Default 0.9.
  ///   - minimumSupport: Smallest prefix considered. Default 10 rows.
  /// - Returns: Cut-offs with `medium <= high`.
  public static func fit(
    probabilities: Matrix, labels: [Int], mediumAccuracy: Double = 0.7, highAccuracy: Double = 0.9,
    minimumSupport: Int = 10
  ) -> ConfidenceCutoffs {
    precondition(
      mediumAccuracy <= highAccuracy, "medium target \(mediumAccuracy) > high \(highAccuracy)")
    var rows: [(p: Float, correct: Bool)] = []
    for i in 0..<probabilities.rowCount {
      var best = 0
      for c in 1..<probabilities.columnCount where probabilities[i, c] > probabilities[i, best] {
        best = c
      }
      rows.append((probabilities[i, best], best == labels[i]))
    }
    // Highest first; ties keep row order so the result is deterministic.
    let sorted = rows.enumerated().sorted { a, b in
      a.element.p != b.element.p ? a.element.p > b.element.p : a.offset < b.offset
    }.map(\.element)
    func cutoff(_ target: Double) -> Float {
      var correct = 0
      var chosen = Float(1).nextUp
      for (n, row) in sorted.enumerated() {
        if row.correct { correct += 1 }
        let isTieWithNext = n + 1 < sorted.count && sorted[n + 1].p == row.p
        if !isTieWithNext && n + 1 >= minimumSupport && Double(correct) >= target * Double(n + 1) {
          chosen = row.p
        }
      }
      return chosen
    }
    let high = cutoff(highAccuracy)
    let medium = min(cutoff(mediumAccuracy), high)
    return ConfidenceCutoffs(medium: medium, high: high)
  }
}
