// Per class, the mean and standard deviation of what the last layer reads (standardised
// features for logistic regression, the last hidden layer for an MLP) over the training
// windows: 2·K·D floats. Adapting draws stand-in windows from them for the classes the new
// windows do not show, so the refitted rows keep those classes' regions (ModelAdapter).

/// Class-conditional mean and standard deviation of the last layer's inputs.
public struct ClassStatistics: Codable, Sendable, Equatable {
  /// `[K][D]`, in `classes` order.
  public var mean: [[Float]]
  /// `[K][D]`, each ≥ 0.
  public var standardDeviation: [[Float]]

  public init(mean: [[Float]], standardDeviation: [[Float]]) {
    self.mean = mean
    self.standardDeviation = standardDeviation
  }

  /// Whether the statistics fit `classCount` classes of `inputCount` inputs, all finite.
  public func fits(classCount: Int, inputCount: Int) -> Bool {
    mean.count == classCount && standardDeviation.count == classCount
      && mean.allSatisfy { $0.count == inputCount && $0.allSatisfy(\.isFinite) }
      && standardDeviation.allSatisfy {
        $0.count == inputCount && $0.allSatisfy { $0.isFinite && $0 >= 0 }
      }
  }
}
