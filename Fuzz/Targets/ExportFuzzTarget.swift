// `motus export`'s graph builder under fuzzing: the bytes pick a model (window, rate, channel
// recipes, statistics, spectral features and bands, vectors, classifier, novelty detector)
// within the model file's limits, and the ONNX graph is built and encoded. It must encode or
// throw ONNXExportError, never trap, and its size must grow with the window, the features and
// the weights, never with their product (a W x W/2 cosine table once asked for 16.7 GB).

import Foundation
import MotusData
import MotusExport
import MotusFeatures
import MotusLinearAlgebra
import MotusModels

extension FuzzTargets {
  /// Builds the model the bytes describe, checks it passes the model file's own validation,
  /// then exports it.
  public static func exportGraph(_ bytes: [UInt8]) {
    var input = FuzzBytes(bytes)
    guard let model = exportModel(&input),
      let encoded = try? ModelFile.encode(model),
      (try? ModelFile.decode(encoded, file: "fuzz.motus")) != nil
    else { return }
    let onnx: [UInt8]
    do {
      onnx = try ONNXExport.encode(model, producerVersion: "fuzz")
    } catch is ONNXExportError {
      return
    } catch {
      fatalError("export threw \(error), not an ONNXExportError")
    }
    let limit = exportSizeLimit(model)
    guard onnx.count <= limit else {
      fatalError(
        "window \(model.featureSpec.windowLength), \(model.featureCount) features: "
          + "\(onnx.count) bytes, over \(limit)")
    }
  }

  /// The most an export may take: the weights as floats, a few doubles per window sample and
  /// per feature, and a fixed allowance per node-making part of the spec.
  static func exportSizeLimit(_ model: TrainedModel) -> Int {
    let spec = model.featureSpec
    let layers = model.classifier.network.layers
    let weights =
      layers.reduce(0) { $0 + $1.weight.values.count + $1.bias.count }
      + 2 * model.featureCount + (model.novelty.map { $0.components.count + $0.mean.count } ?? 0)
    let parts =
      spec.recipes.count + spec.vectors.count + spec.decomposedVectors.count
      + spec.statistics.count + spec.spectral.count + layers.count
    return (64 << 10) + 8 * weights + 64 * spec.windowLength + 256 * model.featureCount
      + (16 << 10) * parts
  }

  static let exportInputGroups = ["acceleration", "gravity", "rotationRate"]

  /// The model the bytes describe, or nil when they describe no valid one.
  static func exportModel(_ input: inout FuzzBytes) -> TrainedModel? {
    guard let spec = exportSpec(&input), (try? spec.validate()) != nil else { return nil }
    let f = spec.featureNames.count
    guard f >= 1 else { return nil }
    let classes = (0..<(2 + input.below(7))).map { "c\($0)" }
    func layer(_ outputs: Int, _ inputs: Int) -> Linear {
      Linear(
        weight: Matrix(
          rowCount: outputs, columnCount: inputs,
          values: (0..<(outputs * inputs)).map { _ in input.weight() }),
        bias: (0..<outputs).map { _ in input.weight() })
    }
    let classifier: ModelClassifier
    if input.flag() {
      var widths = [f, 1 + input.below(16)]
      if input.flag() { widths.append(1 + input.below(16)) }
      let hidden = zip(widths, widths.dropFirst()).map { layer($1, $0) }
      classifier = .mlp(
        MLPClassifier(
          classes: classes, hidden: hidden,
          output: layer(classes.count, widths[widths.count - 1])))
    } else {
      classifier = .logistic(LogisticRegression(classes: classes, linear: layer(classes.count, f)))
    }
    var novelty: NoveltyDetector? = nil
    if f >= 2, input.flag() {
      let k = 1 + input.below(min(8, f - 1))
      novelty = NoveltyDetector(
        mean: (0..<f).map { _ in input.weight() },
        components: (0..<(k * f)).map { _ in input.weight() },
        variances: (0..<k).map { _ in 0.5 + abs(input.weight()) }, residualVariance: 1,
        threshold: 3)
    }
    let negative = input.flag()
    return TrainedModel(
      featureSpec: spec,
      standardizer: Standardizer(
        mean: (0..<f).map { _ in input.weight() },
        scale: (0..<f).map { _ in 0.25 + abs(input.weight()) }),
      classifier: classifier, temperature: [1, 0.5, 2][input.below(3)],
      confidenceCutoffs: ConfidenceCutoffs(medium: 0.5, high: 0.9),
      negativeClasses: negative ? [classes[classes.count - 1]] : [],
      novelty: novelty,
      metadata: TrainingMetadata(dataDigest: "0000000000000000", seed: 0, motusVersion: "fuzz"))
  }

  /// Window, rate, recipes and features from the bytes (not yet validated).
  static func exportSpec(_ input: inout FuzzBytes) -> FeatureSpec? {
    let window = 1 + input.below(FeatureSpec.maximumWindowLength)
    let hop = 1 + input.below(window)
    let rate = [15, 50, 100, 0.5, 1, 20, 400, 10_000][input.below(8)]
    // Copies of whole three-axis groups (so vectors can use them), then derived channels.
    let groups = exportInputGroups.filter { _ in input.flag() }
    var recipes = groups.flatMap { g in ["x", "y", "z"].map { ChannelRecipe.copy("\(g).\($0)") } }
    let raw = exportInputGroups.flatMap { g in ["x", "y", "z"].map { "\(g).\($0)" } }
    for i in 0..<input.below(5) {
      let operation = [ChannelRecipe.Operation.copy, .sum, .magnitude][input.below(3)]
      let count = operation == .copy ? 1 : 1 + input.below(4)
      recipes.append(
        ChannelRecipe(
          name: "d\(i)", operation: operation,
          inputs: (0..<count).map { _ in raw[input.below(raw.count)] },
          scale: [1, -1, 0.5, 9.81][input.below(4)]))
    }
    guard !recipes.isEmpty else { return nil }
    let axes = groups.map { g in ["x", "y", "z"].map { "\(g).\($0)" } }
    let statistics = Statistic.allCases.filter { _ in input.flag() }
    let spectral = SpectralFeature.allCases.filter { _ in input.flag() }
    // Mostly a few bands; now and then hundreds (the band table grew as window x bands). Not
    // thousands: 65,536 feature names, formatted by every check, outlast the fuzzer's 10 s.
    let edgeByte = input.below(256)
    let edgeCount = edgeByte < 240 ? edgeByte % 14 : 50 * (edgeByte - 239)
    let nyquist = rate / 2
    let edges = (0..<edgeCount).map { nyquist * Double($0) / Double(max(edgeCount - 1, 1)) }
    return FeatureSpec(
      recipes: recipes, channels: recipes.map(\.name).filter { _ in input.flag() },
      vectors: axes.filter { _ in input.flag() },
      gravity: groups.contains("gravity") && input.flag()
        ? ["gravity.x", "gravity.y", "gravity.z"] : nil,
      sampleRateHz: rate, windowLength: window, hopLength: hop, statistics: statistics,
      spectral: spectral, bandEdgesHz: edges, logPowerFloor: [1e-4, 1e-2, 1][input.below(3)],
      decomposedVectors: axes.filter { _ in input.flag() })
  }
}

/// The fuzz input read a little at a time; past its end every read gives zeros.
struct FuzzBytes {
  private let bytes: [UInt8]
  private var position = 0
  private var bits: UInt8 = 0
  private var bitsLeft = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func byte() -> UInt8 {
    defer { position += 1 }
    return position < bytes.count ? bytes[position] : 0
  }

  /// A number in 0..<bound (two bytes when the bound needs them).
  mutating func below(_ bound: Int) -> Int {
    precondition(bound > 0, "bound \(bound)")
    let value = bound <= 256 ? Int(byte()) : Int(byte()) << 8 | Int(byte())
    return value % bound
  }

  /// One bit, eight to a byte.
  mutating func flag() -> Bool {
    if bitsLeft == 0 {
      bits = byte()
      bitsLeft = 8
    }
    defer {
      bits >>= 1
      bitsLeft -= 1
    }
    return bits & 1 == 1
  }

  /// A small weight in [-8, 8).
  mutating func weight() -> Float { Float(Int8(bitPattern: byte())) / 16 }
}
