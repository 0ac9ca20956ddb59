// Multinomial logistic regression: p = softmax(x·Wᵀ + b). F = features, K = classes;
// the weight is stored [K, F].

import MotusLinearAlgebra

/// A fitted multinomial logistic regression (fitting lives in MotusTraining).
public struct LogisticRegression: FeedForwardClassifier, Equatable {
  public var classes: [String]
  /// The single layer: weight `[classCount, featureCount]`, bias `classCount` values.
  public var linear: Linear

  public init(classes: [String], linear: Linear) {
    precondition(
      linear.outputCount == classes.count,
      "\(classes.count) classes but the layer has \(linear.outputCount) outputs")
    self.classes = classes
    self.linear = linear
  }

  public var layers: [Linear] { [linear] }
}
