// The gravity angle, the classifier's layers and the novelty score, as the model computes them
// (float after the features, as Standardizer, Linear and NoveltyDetector do).

import MotusLinearAlgebra
import MotusModels

extension PipelineGraph {
  /// Mean over samples of acos(v . g / (|v| |g|)), skipping zero vectors: [N, 1].
  func meanAngle(_ v: [String], _ gravity: [String]) -> String {
    let vv = sumOfProducts(v, v), gg = sumOfProducts(gravity, gravity)
    let valid = g.add("And", [positive(vv), positive(gg)])
    let norms = g.add("Sqrt", [g.add("Where", [valid, g.add("Mul", [vv, gg]), g.scalar(1)])])
    let cosine = g.add("Div", [sumOfProducts(v, gravity), norms])
    let clipped = g.add("Max", [g.add("Min", [cosine, g.scalar(1)]), g.scalar(-1)])
    // ONNX Runtime implements Acos for float only: about 1e-7 rad off the double angle.
    let arccos = g.add(
      "Cast", [g.add("Acos", [g.add("Cast", [clipped], [.int("to", 1)])])], [.int("to", 11)])
    let angle = g.add("Where", [valid, arccos, g.scalar(0)])
    let sum = g.add("ReduceSum", [angle, g.int64s([1])], [.int("keepdims", 1)])
    let count = g.add(
      "ReduceSum", [g.add("Cast", [valid], [.int("to", 11)]), g.int64s([1])], [.int("keepdims", 1)])
    let mean = g.add("Div", [sum, g.add("Max", [count, g.scalar(1)])])
    return g.add("Where", [positive(count), mean, g.scalar(0)])
  }

  /// Logits [N, K] of standardised features [N, F]: Gemm per layer, Relu between layers.
  func network(_ x: String) -> String {
    let layers = model.classifier.network.layers
    var h = x
    for (index, layer) in layers.enumerated() {
      let weight = g.constant(layer.weight.values, shape: [layer.outputCount, layer.inputCount])
      let bias = g.constant(layer.bias, shape: [layer.outputCount])
      h = g.add("Gemm", [h, weight, bias], [.int("transB", 1)])
      if index < layers.count - 1 { h = g.add("Relu", [h]) }
    }
    return h
  }

  /// NoveltyDetector.score of standardised features z [N, F]: [N, 1], named `novelty`.
  func noveltyScore(_ z: String, _ novelty: NoveltyDetector) {
    let f = novelty.featureCount
    let k = novelty.variances.count
    let d = g.add("Sub", [z, g.constant(novelty.mean, shape: [f])])
    let keep = [.int("keepdims", 1)] as [ONNXAttribute]
    let total = g.add("ReduceSum", [g.add("Mul", [d, d]), g.int64s([1])], keep)
    let p = g.add(
      "Gemm", [d, g.constant(novelty.components, shape: [k, f])], [.int("transB", 1)])  // [N, k]
    let p2 = g.add("Mul", [p, p])
    let inSubspace = g.add(
      "ReduceSum", [g.add("Div", [p2, g.constant(novelty.variances, shape: [k])]), g.int64s([1])],
      keep)
    let projected = g.add("ReduceSum", [p2, g.int64s([1])], keep)
    let residual = g.add(
      "Max", [g.add("Sub", [total, projected]), g.constant([Float(0)], shape: [])])
    let scaledResidual = g.add(
      "Div", [residual, g.constant([novelty.residualVariance], shape: [])])
    g.add(
      "Div", [g.add("Add", [inSubspace, scaledResidual]), g.constant([Float(f)], shape: [])],
      name: "novelty")
  }
}
