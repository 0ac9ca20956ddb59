// A trained model adapted to someone's own labelled windows, in pure Swift (an app can do it
// on the phone; `motus adapt` runs this same code). Only the last layer moves, and of it only
// the rows (weights and bias) of the classes the windows show: they are refitted on the new
// windows, each class shown weighted equally, with a penalty towards the original weights
// (PenalisedSoftmaxFit). A class the windows do not show keeps its row, so its logit is the
// same on any window (moving it too only ever pushed it down, and cost it more recall on the
// model's own data: docs/measurements.md). The feature spec, standardiser, temperature, cut-offs and thresholds stay
// as they were: everything that reads the model reads the adapted one unchanged, and a few
// minutes are too few to set a calibration on.

import Foundation
import MotusData
import MotusLinearAlgebra
import MotusModels

/// Adapts a model to labelled windows of a person or a placement.
///
///     let windows = try AdaptationWindows(dataset: myMinutes, model: model)
///     let mine = try ModelAdapter.adapt(model, to: windows)
public enum ModelAdapter {
  public struct Settings: Sendable, Equatable {
    /// λ, the pull towards the original last layer (larger keeps it closer).
    public var penalty: Double = 0.01
    /// Fewest windows of a class the data shows (a class it does not show needs none).
    public var minimumWindowsPerClass = 8
    /// Cap on L-BFGS iterations; the fit normally stops earlier at `tolerance`.
    public var maxIterations = 500
    /// Stop when no gradient entry exceeds this.
    public var tolerance = 1e-6

    public init() {}

    /// The settings by flag-like name, as the model file records them.
    public var recorded: [String: String] {
      [
        "penalty": String(penalty), "minimumWindowsPerClass": String(minimumWindowsPerClass),
        "maxIterations": String(maxIterations), "tolerance": String(tolerance),
        "layer": "last", "classWeighting": "balanced", "unshownClasses": "kept",
      ]
    }
  }

  /// `model` with its last layer refitted on `windows`, every class kept, and an
  /// `AdaptationRecord` in its metadata.
  ///
  /// - Throws: `AdaptationError.specMismatch` when the windows were made with another spec,
  ///   `.unknownLabels` for a label that is not a class of the model, `.noWindows`, and
  ///   `.tooFewWindows` for a class with fewer than `settings.minimumWindowsPerClass`.
  /// - Complexity: O(iterations · N · D · K) for N windows, D inputs of the last layer and K
  ///   classes.
  public static func adapt(
    _ model: TrainedModel, to windows: AdaptationWindows, settings: Settings = Settings()
  ) throws -> TrainedModel {
    let labels = try checked(windows, model: model, settings: settings)
    let inputs = lastLayerInputs(model, features: windows.features)
    let output = model.classifier.network.layers.last!
    let classes = model.classes
    // Each class shown weighs the same in total, however many minutes it has.
    var counts = [Int](repeating: 0, count: classes.count)
    for label in labels { counts[label] += 1 }
    let shown = Double(counts.filter { $0 > 0 }.count)
    let fit = PenalisedSoftmaxFit(
      inputs: inputs, labels: labels,
      sampleWeights: labels.map { 1 / (shown * Double(counts[$0])) },
      start: (output.weight.values + output.bias).map(Double.init),
      penalty: settings.penalty, classCount: classes.count, movable: counts.map { $0 > 0 })
    let solution = fit.minimise(
      maxIterations: settings.maxIterations, tolerance: settings.tolerance)
    let weightCount = output.weight.values.count
    let layer = Linear(
      weight: Matrix(
        rowCount: output.outputCount, columnCount: output.inputCount,
        values: solution.theta[0..<weightCount].map { Float($0) }),
      bias: solution.theta[weightCount...].map { Float($0) })
    var adapted = model
    switch model.classifier {
    case .logistic:
      adapted.classifier = .logistic(LogisticRegression(classes: classes, linear: layer))
    case .mlp(let mlp):
      adapted.classifier = .mlp(MLPClassifier(classes: classes, hidden: mlp.hidden, output: layer))
    }
    if let scores = model.noveltyScores(windows.features), let novelty = model.novelty {
      // The new windows are the model's own data now: never far from it.
      adapted.novelty!.threshold = max(novelty.threshold, scores.max() ?? novelty.threshold)
    }
    var recorded = settings.recorded
    recorded["iterations"] = String(solution.iterations)
    adapted.metadata.adaptation = AdaptationRecord(
      baseModelDigest: try digest(ModelFile.encode(model)),
      baseDataDigest: model.metadata.dataDigest, dataDigest: digest(windows),
      windowsPerClass: Dictionary(
        uniqueKeysWithValues: classes.indices.filter { counts[$0] > 0 }.map {
          (classes[$0], counts[$0])
        }),
      settings: recorded)
    return adapted
  }

  /// Each window's class index, once the windows are found fit to adapt on.
  private static func checked(
    _ windows: AdaptationWindows, model: TrainedModel, settings: Settings
  ) throws -> [Int] {
    guard windows.spec == model.featureSpec else {
      let names = windows.spec.featureNames
      let reason =
        names == model.featureSpec.featureNames
        ? "the same features, another window, hop, rate or channel recipe"
        : "\(names.count) features, the model reads \(model.featureSpec.featureNames.count)"
      throw AdaptationError.specMismatch(reason: reason)
    }
    let index = Dictionary(uniqueKeysWithValues: model.classes.enumerated().map { ($1, $0) })
    let unknown = Set(windows.labels).filter { index[$0] == nil }
    guard unknown.isEmpty else {
      throw AdaptationError.unknownLabels(labels: unknown.sorted(), classes: model.classes)
    }
    guard windows.count > 0 else {
      throw AdaptationError.noWindows(windowSeconds: model.featureSpec.windowSeconds)
    }
    for (label, count) in windows.countsByLabel.sorted(by: { $0.key < $1.key })
    where count < settings.minimumWindowsPerClass {
      throw AdaptationError.tooFewWindows(
        label: label, count: count, minimum: settings.minimumWindowsPerClass)
    }
    return windows.labels.map { index[$0]! }
  }

  /// What the last layer reads: the standardised features, through the hidden layers (ReLU)
  /// of an MLP.
  static func lastLayerInputs(_ model: TrainedModel, features: Matrix) -> Matrix {
    var h = model.standardizer.transform(features)
    for layer in model.classifier.network.layers.dropLast() {
      h = layer(h)
      for i in h.values.indices where h.values[i] < 0 { h.values[i] = 0 }
    }
    return h
  }

  /// FNV-1a 64-bit (MotusData's `FNV1a64`), 16 hex digits.
  static func digest(_ bytes: some Sequence<UInt8>) -> String {
    var hash = FNV1a64()
    hash.combine(bytes: bytes)
    return hash.hex
  }

  /// The digest of the windows' feature bits and labels.
  static func digest(_ windows: AdaptationWindows) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(windows.features.values.count * 4)
    for value in windows.features.values {
      withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
    for label in windows.labels { bytes += Array(label.utf8) + [0] }
    return digest(bytes)
  }
}
