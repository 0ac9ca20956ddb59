// The fitted-classifier contract. N = rows, F = features, K = classes; matrices row-major Float.

import MotusLinearAlgebra

/// A fitted classifier.
public protocol Classifier: Sendable {
  /// Labels seen during fitting, in the column order of `predictProbabilities(_:)`.
  var classes: [String] { get }
  /// Number of (standardised) input features, `F`.
  var featureCount: Int { get }
  /// Class probabilities, shape `[N, classes.count]`; each row sums to 1.
  func predictProbabilities(_ x: Matrix) -> Matrix
}

/// A classifier that is a stack of `Linear` layers with ReLU between consecutive layers and a
/// softmax after the last: logistic regression (one layer) and the MLP.
public protocol FeedForwardClassifier: Classifier {
  /// The layers in application order; the last has `classes.count` outputs.
  var layers: [Linear] { get }
}

extension FeedForwardClassifier {
  public var featureCount: Int { layers[0].inputCount }

  /// Unnormalised scores, shape `[N, K]`.
  public func logits(_ x: Matrix) -> Matrix {
    precondition(
      x.columnCount == featureCount, "expected \(featureCount) features, got \(x.columnCount)")
    var h = x
    for (index, layer) in layers.enumerated() {
      h = layer(h)
      if index < layers.count - 1 {
        for i in h.values.indices where h.values[i] < 0 { h.values[i] = 0 }
      }
    }
    return h
  }

  public func predictProbabilities(_ x: Matrix) -> Matrix {
    Softmax.rows(logits(x))
  }

  /// The index of the most probable class of each row (first one on ties).
  public func predict(_ x: Matrix) -> [Int] {
    let p = logits(x)
    return (0..<p.rowCount).map { i in
      var best = 0
      for k in 1..<max(1, p.columnCount) where p[i, k] > p[i, best] { best = k }
      return best
    }
  }
}
