// Confusion counts for K classes: rows = true class, columns = predicted class.

/// Counts of (truth, prediction) pairs and the metrics derived from them.
public struct ConfusionMatrix: Sendable, Equatable {
  public let classCount: Int
  /// `counts[truth][predicted]`.
  public private(set) var counts: [[Int]]

  public init(truth: [Int], predicted: [Int], classCount: Int) {
    precondition(
      truth.count == predicted.count, "\(truth.count) labels, \(predicted.count) predictions")
    self.classCount = classCount
    counts = Array(repeating: Array(repeating: 0, count: classCount), count: classCount)
    for (t, p) in zip(truth, predicted) {
      precondition(
        (0..<classCount).contains(t) && (0..<classCount).contains(p), "label \(t)/\(p) out of range"
      )
      counts[t][p] += 1
    }
  }

  public var total: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }
  /// Rows whose true class is `c`.
  public func support(_ c: Int) -> Int { counts[c].reduce(0, +) }
  public func predictedCount(_ c: Int) -> Int { counts.reduce(0) { $0 + $1[c] } }

  /// Fraction of rows predicted correctly (NaN with no rows).
  public var accuracy: Double {
    let correct = (0..<classCount).reduce(0) { $0 + counts[$1][$1] }
    return Double(correct) / Double(total)
  }

  /// `tp / predicted`; 0 when the class was never predicted (scikit-learn's zero_division=0).
  public func precision(_ c: Int) -> Double {
    let predicted = predictedCount(c)
    return predicted == 0 ? 0 : Double(counts[c][c]) / Double(predicted)
  }

  /// `tp / support`; 0 when the class never occurs.
  public func recall(_ c: Int) -> Double {
    let s = support(c)
    return s == 0 ? 0 : Double(counts[c][c]) / Double(s)
  }

  /// Harmonic mean of precision and recall; 0 when both are 0.
  public func f1(_ c: Int) -> Double {
    let p = precision(c)
    let r = recall(c)
    return p + r == 0 ? 0 : 2 * p * r / (p + r)
  }

  /// Classes that occur in the truth or the predictions (scikit-learn's default label set).
  public var observedClasses: [Int] {
    (0..<classCount).filter { support($0) > 0 || predictedCount($0) > 0 }
  }

  /// Unweighted mean F1 over `observedClasses`.
  public var macroF1: Double {
    let classes = observedClasses
    return classes.reduce(0) { $0 + f1($1) } / Double(classes.count)
  }

  /// Mean recall over classes present in the truth (scikit-learn's balanced_accuracy_score).
  public var balancedAccuracy: Double {
    let present = (0..<classCount).filter { support($0) > 0 }
    return present.reduce(0) { $0 + recall($1) } / Double(present.count)
  }
}
