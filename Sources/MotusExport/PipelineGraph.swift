// Builds the ONNX graph of one model, stage by stage; shapes in comments use N (batch),
// W (window), R (raw columns), C (channels with per-channel features), B (spectrum bins
// W/2 + 1), P (features per channel), F (features), K (classes).

import Foundation
import MotusData
import MotusFeatures
import MotusModels

struct PipelineGraph {
  let model: TrainedModel
  let spec: FeatureSpec
  let g = ONNXGraph()
  let n: Int

  init(model: TrainedModel) throws {
    self.model = model
    self.spec = model.featureSpec
    self.n = spec.windowLength
    guard n >= 2 else {
      throw ONNXExportError.unsupportedFeature(
        spec.featureNames.first ?? "window", reason: "a window of \(n) sample has no spectrum")
    }
    // The graph sees one window; a context's summaries need the windows before it.
    if let context = spec.context {
      throw ONNXExportError.unsupportedContext(
        context.featureNames.first ?? "context", windowCount: context.windowCount)
    }
  }

  func build() -> ONNXGraph {
    let inputs = ONNXExport.inputColumns(of: model)
    g.inputs = [ONNXValueInfo(name: "window", type: .float, shape: [nil, n, inputs.count])]
    let channels = recipeChannels(rawColumns: inputs)
    let features = featureVector(channels)  // [N, F] double
    let featuresFloat = g.add("Cast", [features], [.int("to", 1)], name: "features")
    let standardized = g.add(
      "Div",
      [
        g.add(
          "Sub", [featuresFloat, g.constant(model.standardizer.mean, shape: [model.featureCount])]),
        g.constant(model.standardizer.scale, shape: [model.featureCount]),
      ])
    let logits = network(standardized)
    let scaled = g.add("Div", [logits, g.constant([model.temperature], shape: [])])
    g.add("Softmax", [scaled], [.int("axis", -1)], name: "probabilities")
    g.outputs = [
      ONNXValueInfo(name: "probabilities", type: .float, shape: [nil, model.classes.count]),
      ONNXValueInfo(name: "features", type: .float, shape: [nil, model.featureCount]),
    ]
    if let novelty = model.novelty {
      noveltyScore(standardized, novelty)
      g.outputs.append(ONNXValueInfo(name: "novelty", type: .float, shape: [nil, 1]))
    }
    return g
  }

  // MARK: - Channels

  /// Every recipe's output, [N, W] double, by name. Computed in float as `ChannelPlan` does.
  private func recipeChannels(rawColumns: [String]) -> [String: String] {
    var value: [String: String] = [:]
    for (r, name) in rawColumns.enumerated() {
      value[name] = g.add("Gather", ["window", g.constant([r], shape: [])], [.int("axis", 2)])
    }
    var outputs: [String: String] = [:]
    for recipe in spec.recipes {
      let operands = recipe.inputs.map { value[$0]! }
      var result: String
      switch recipe.operation {
      case .copy:
        result = operands[0]
      case .sum:
        result = operands.dropFirst().reduce(operands[0]) { g.add("Add", [$0, $1]) }
      case .magnitude:
        let squares = operands.map { g.add("Mul", [$0, $0]) }
        result = g.add("Sqrt", [squares.dropFirst().reduce(squares[0]) { g.add("Add", [$0, $1]) }])
      }
      if recipe.scale != 1 {
        result = g.add("Mul", [result, g.constant([recipe.scale], shape: [])])
      }
      value[recipe.name] = result
      outputs[recipe.name] = g.add("Cast", [result], [.int("to", 11)])
    }
    return outputs
  }

  // MARK: - Feature vector

  /// [N, F] double in `spec.featureNames` order.
  private func featureVector(_ channel: [String: String]) -> String {
    var perChannel = spec.channels.map { channel[$0]! }
    for axes in spec.decomposedVectors {
      let reference = spec.gravity.map { axes != $0 ? $0 : axes } ?? axes
      let split = decomposed(axes.map { channel[$0]! }, reference: reference.map { channel[$0]! })
      perChannel += [split.vertical, split.horizontal]
    }
    let perChannelCount = featuresPerChannel * perChannel.count
    let leading = featuresPerChannel * spec.channels.count
    var parts: [String] = []
    var perChannelRows: String? = nil
    if !perChannel.isEmpty {
      let stacked = g.add("Concat", perChannel.map { unsqueeze($0, axis: 1) }, [.int("axis", 1)])
      let values = channelFeatures(stacked)  // [N, C, P]
      perChannelRows = g.add("Reshape", [values, g.int64s([-1, perChannelCount])])
    }
    if let rows = perChannelRows, leading > 0 { parts.append(slice(rows, 0, leading, axis: 1)) }
    for axes in spec.vectors { parts.append(vectorFeatures(axes, channel)) }
    if let rows = perChannelRows, leading < perChannelCount {
      parts.append(slice(rows, leading, perChannelCount, axis: 1))
    }
    return parts.count == 1 ? parts[0] : g.add("Concat", parts, [.int("axis", 1)])
  }

  /// P: statistics, then spectral features with per-band ones expanded.
  var featuresPerChannel: Int {
    spec.statistics.count
      + spec.spectral.reduce(0) { $0 + ($1.isPerBand ? max(spec.bandEdgesHz.count - 1, 0) : 1) }
  }

  private func hasGravityAngle(_ axes: [String]) -> Bool {
    guard let gravity = spec.gravity else { return false }
    return axes != gravity
  }

  /// The vertical and horizontal parts, rounded to float as FeatureExtractor stores them.
  private func decomposed(_ v: [String], reference: [String]) -> (
    vertical: String, horizontal: String
  ) {
    let sums = reference.map { g.add("ReduceSum", [$0, g.int64s([1])], [.int("keepdims", 1)]) }
    let norm = g.add("Sqrt", [sumOfProducts(sums, sums)])
    let hasDirection = g.add("Greater", [norm, g.scalar(0)])
    let unit = sums.map { g.add("Where", [hasDirection, g.add("Div", [$0, norm]), g.scalar(0)]) }
    let vertical = sumOfProducts(v, unit)
    let rest = g.add("Sub", [sumOfProducts(v, v), g.add("Mul", [vertical, vertical])])
    let horizontal = g.add("Sqrt", [g.add("Max", [rest, g.scalar(0)])])
    return (roundedToFloat(vertical), roundedToFloat(horizontal))
  }

  /// Correlations xy, xz, yz and, when the spec has gravity, the mean angle to it: [N, 3 or 4].
  private func vectorFeatures(_ axes: [String], _ channel: [String: String]) -> String {
    let v = axes.map { channel[$0]! }
    let centred = v.map { g.add("Sub", [$0, g.add("ReduceMean", [$0], [.ints("axes", [1])])]) }
    func sum(_ a: String, _ b: String) -> String {
      g.add("ReduceSum", [g.add("Mul", [a, b]), g.int64s([1])], [.int("keepdims", 1)])
    }
    let xx = sum(centred[0], centred[0]), yy = sum(centred[1], centred[1])
    let zz = sum(centred[2], centred[2])
    func r(_ c: String, _ a: String, _ b: String) -> String {
      let valid = g.add("And", [positive(a), positive(b)])
      return g.add(
        "Where", [valid, g.add("Div", [c, g.add("Sqrt", [g.add("Mul", [a, b])])]), g.scalar(0)])
    }
    var columns = [
      r(sum(centred[0], centred[1]), xx, yy), r(sum(centred[0], centred[2]), xx, zz),
      r(sum(centred[1], centred[2]), yy, zz),
    ]
    if hasGravityAngle(axes), let gravity = spec.gravity {
      columns.append(meanAngle(v, gravity.map { channel[$0]! }))
    }
    return g.add("Concat", columns, [.int("axis", 1)])
  }

  // MARK: - Helpers

  func unsqueeze(_ x: String, axis: Int) -> String {
    g.add("Unsqueeze", [x, g.int64s([axis])])
  }

  func slice(_ x: String, _ start: Int, _ end: Int, axis: Int) -> String {
    g.add("Slice", [x, g.int64s([start]), g.int64s([end]), g.int64s([axis])])
  }

  func positive(_ x: String) -> String { g.add("Greater", [x, g.scalar(0)]) }

  func sumOfProducts(_ a: [String], _ b: [String]) -> String {
    let products = zip(a, b).map { g.add("Mul", [$0, $1]) }
    return products.dropFirst().reduce(products[0]) { g.add("Add", [$0, $1]) }
  }

  func roundedToFloat(_ x: String) -> String {
    g.add("Cast", [g.add("Cast", [x], [.int("to", 1)])], [.int("to", 11)])
  }
}
