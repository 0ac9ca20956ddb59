// Multi-layer perceptron: h1 = relu(x·W1ᵀ + b1), [h2 = relu(h1·W2ᵀ + b2)], p = softmax(h·Woᵀ + bo).
// F = features, H1/H2 = hidden sizes, K = classes; each weight is stored [out, in].

import MotusLinearAlgebra

/// A fitted MLP with one or two ReLU hidden layers and a softmax output.
public struct MLPClassifier: FeedForwardClassifier, Equatable {
  public var classes: [String]
  /// Hidden layers in order (1 or 2); `hidden[0].weight` is `[H1, F]`.
  public var hidden: [Linear]
  /// Output layer; weight `[K, H_last]`.
  public var output: Linear

  public init(classes: [String], hidden: [Linear], output: Linear) {
    precondition(!hidden.isEmpty, "an MLP needs at least one hidden layer")
    let all = hidden + [output]
    for i in 1..<all.count {
      precondition(
        all[i].inputCount == all[i - 1].outputCount,
        "layer \(i) takes \(all[i].inputCount) inputs, layer \(i - 1) gives "
          + "\(all[i - 1].outputCount)"
      )
    }
    precondition(
      output.outputCount == classes.count,
      "\(classes.count) classes but the output layer has \(output.outputCount) outputs")
    self.classes = classes
    self.hidden = hidden
    self.output = output
  }

  public var hiddenLayerSizes: [Int] { hidden.map(\.outputCount) }
  public var layers: [Linear] { hidden + [output] }
}
