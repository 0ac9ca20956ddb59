// Single-row inference for streaming: F raw features -> K calibrated probabilities with buffers
// allocated once in init (no allocation per prediction).

import MotusLinearAlgebra

/// Runs a `TrainedModel` on one feature row at a time, reusing its own scratch buffers.
///
///     var predictor = model.makePredictor()
///     let p = features.withUnsafeBufferPointer { predictor.predict(features: $0) }
///     print(predictor.probabilities)   // K values, in model.classes order
public struct Predictor: Sendable {
  public let model: TrainedModel
  private let layers: [Linear]
  // Cached: `model.classes` goes through an existential and would allocate per call.
  private let classCount: Int
  private var front: [Float]
  private var back: [Float]
  /// Per class, whether it is one of the model's negative classes.
  public let isNegativeClass: [Bool]
  /// Probabilities of the last `predict` call, `classes.count` values.
  public private(set) var probabilities: [Float]
  /// The last row's `NoveltyDetector` score; nil when the model has no detector.
  public private(set) var noveltyScore: Float?

  public init(model: TrainedModel) {
    self.model = model
    self.layers = model.classifier.network.layers
    self.classCount = model.classes.count
    let width = max(model.featureCount, layers.map(\.outputCount).max() ?? 0)
    self.front = [Float](repeating: 0, count: width)
    self.back = [Float](repeating: 0, count: width)
    self.probabilities = [Float](repeating: 0, count: model.classes.count)
    let negatives = Set(model.negativeClasses)
    self.isNegativeClass = model.classes.map(negatives.contains)
  }

  /// Classifies one row of `F` raw features.
  /// - Complexity: O(Σ layer inputCount·outputCount); no allocation.
  public mutating func predict(features: UnsafeBufferPointer<Float>) -> Prediction {
    let f = model.featureCount
    precondition(features.count == f, "expected \(f) features, got \(features.count)")
    let layerCount = layers.count
    front.withUnsafeMutableBufferPointer { a in
      back.withUnsafeMutableBufferPointer { b in
        for j in 0..<f { a[j] = features[j] }
        model.standardizer.transform(row: UnsafeMutableBufferPointer(rebasing: a[0..<f]))
        if let novelty = model.novelty {
          noveltyScore = novelty.score(standardized: UnsafeBufferPointer(rebasing: a[0..<f]))
        }
        var input = a
        var output = b
        for (index, layer) in layers.enumerated() {
          layer.apply(row: UnsafeBufferPointer(input), into: output)
          if index < layerCount - 1 {
            for o in 0..<layer.outputCount where output[o] < 0 { output[o] = 0 }
          }
          swap(&input, &output)
        }
        let k = classCount
        Softmax.apply(
          UnsafeMutableBufferPointer(rebasing: input[0..<k]), temperature: model.temperature)
        probabilities.withUnsafeMutableBufferPointer { p in
          for c in 0..<k { p[c] = input[c] }
        }
      }
    }
    return probabilities.withUnsafeBufferPointer { p in
      isNegativeClass.withUnsafeBufferPointer {
        model.answer(probabilities: p, isNegativeClass: $0, noveltyScore: noveltyScore)
      }
    }
  }
}

extension TrainedModel {
  public func makePredictor() -> Predictor { Predictor(model: self) }
}
