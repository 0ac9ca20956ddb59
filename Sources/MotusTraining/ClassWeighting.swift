// Per-class loss weights: each row's cross-entropy is multiplied by its class's weight.

import MotusModels

/// How rows of each class are weighted in the loss.
public enum ClassWeighting: Codable, Equatable, Sendable {
  /// Every row has weight 1.
  case none
  /// scikit-learn's `"balanced"`: `n / (k · count_c)`, with `n` rows and `k` classes present.
  case balanced
  /// The square root of `balanced`'s weights: small classes count more than their share, but
  /// less than under `balanced` (a push-up window about 6 times an everyday one, not 40).
  case balancedSquareRoot
  /// One weight per class (>= 0), in class order.
  case given([Float])
}

extension ClassWeighting {
  /// The weight of each class (`classCount` values; absent classes get 0 under `.balanced`).
  public func classWeights(labels: [Int], classCount: Int) throws -> [Float] {
    switch self {
    case .none:
      return [Float](repeating: 1, count: classCount)
    case .balanced, .balancedSquareRoot:
      var counts = [Int](repeating: 0, count: classCount)
      for y in labels { counts[y] += 1 }
      let present = counts.filter { $0 > 0 }.count
      return counts.map {
        guard $0 > 0 else { return 0 }
        let weight = Double(labels.count) / Double(present * $0)
        return Float(self == .balanced ? weight : weight.squareRoot())
      }
    case .given(let weights):
      guard weights.count == classCount else {
        throw TrainingError.classWeightCount(given: weights.count, classCount: classCount)
      }
      if let bad = weights.first(where: { !($0 >= 0) || !$0.isFinite }) {
        throw TrainingError.invalidHyperparameter(
          name: "classWeights", value: "\(bad)", expected: "finite and >= 0")
      }
      return weights
    }
  }
}
