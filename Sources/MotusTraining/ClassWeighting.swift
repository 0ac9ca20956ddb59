// Per-class loss weights: each row's cross-entropy is multiplied by its class's weight.

import Foundation
import MotusModels

/// How rows of each class are weighted in the loss.
public enum ClassWeighting: Codable, Equatable, Sendable {
  /// Every row has weight 1.
  case none
  /// scikit-learn's `"balanced"`: `n / (k · count_c)`, with `n` rows and `k` classes present.
  case balanced
  /// `balanced`'s weights raised to a power in (0, 1]: small classes count more than their
  /// share, but less than under `balanced` (at 0.5, the square root, a push-up window weighs
  /// about 6 times an everyday one, not 40).
  case balancedPower(Double)
  /// One weight per class (>= 0), in class order.
  case given([Float])
}

extension ClassWeighting {
  /// Whether `balancedPower(power)` has weights: a power in (0, 1] (0 would weigh every class
  /// alike, above 1 past balance).
  public static func isValidPower(_ power: Double) -> Bool { power > 0 && power <= 1 }

  /// The weight of each class (`classCount` values; absent classes get 0 under `.balanced`).
  public func classWeights(labels: [Int], classCount: Int) throws -> [Float] {
    switch self {
    case .none:
      return [Float](repeating: 1, count: classCount)
    case .balancedPower(let power) where !Self.isValidPower(power):
      throw TrainingError.invalidHyperparameter(
        name: "classWeights", value: "balanced^\(power)", expected: "a power in (0, 1]")
    case .balanced, .balancedPower:
      var counts = [Int](repeating: 0, count: classCount)
      for y in labels { counts[y] += 1 }
      let present = counts.filter { $0 > 0 }.count
      return counts.map {
        guard $0 > 0 else { return 0 }
        let weight = Double(labels.count) / Double(present * $0)
        guard case .balancedPower(let power) = self else { return Float(weight) }
        // The square root exactly, so models trained as `sqrt-balanced` retrain unchanged.
        return Float(power == 0.5 ? weight.squareRoot() : Foundation.pow(weight, power))
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
