// A trained model adapted to someone's own labelled windows, in pure Swift (an app can do it
// on the phone; `motus adapt` runs this same code). Only the last layer moves, and of it only
// the rows (weights and bias) of the classes the windows show: they are refitted on the new
// windows, each class shown weighted equally, with a penalty towards the original weights
// (PenalisedSoftmaxFit). A class the windows do not show keeps its row, so its logit is the
// same on any window (moving it too only ever pushed it down, and cost it more recall on the
// model's own data: docs/measurements.md); seeded stand-ins drawn from the model's class
// statistics hold those classes' regions against the shown rows. The feature spec,
// standardiser, temperature, cut-offs and thresholds stay as they were: everything that reads
// the model reads the adapted one unchanged, and a few minutes are too few to calibrate on.

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
    /// Stand-in windows drawn per class the data does not show, from the model's class
    /// statistics (none without them).
    public var rehearsalWindowsPerClass = 200
    /// The weight of all unshown classes' stand-ins together, against 1 for the windows shown.
    /// 0.5 by measurement: it cuts what the unshown classes lose by 59-71 % for at most 0.05
    /// of push-up recall (docs/measurements.md); 1 costs push-up more.
    public var rehearsalWeight = 0.5

    public init() {}

    /// The settings by flag-like name, as the model file records them.
    public var recorded: [String: String] {
      [
        "penalty": String(penalty), "minimumWindowsPerClass": String(minimumWindowsPerClass),
        "maxIterations": String(maxIterations), "tolerance": String(tolerance),
        "layer": "last", "classWeighting": "balanced", "unshownClasses": "kept",
        "rehearsalWindowsPerClass": String(rehearsalWindowsPerClass),
        "rehearsalWeight": String(rehearsalWeight),
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
    let inputs = model.lastLayerInputs(windows.features)
    let output = model.classifier.network.layers.last!
    let classes = model.classes
    // Each class shown weighs the same in total, however many minutes it has.
    var counts = [Int](repeating: 0, count: classes.count)
    for label in labels { counts[label] += 1 }
    let (allInputs, allLabels, weights) = withStandIns(
      model, inputs: inputs, labels: labels, counts: counts, settings: settings)
    let fit = PenalisedSoftmaxFit(
      inputs: allInputs, labels: allLabels, sampleWeights: weights,
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
    recorded["standInWindows"] = String(allLabels.count - labels.count)
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

  /// The windows' last-layer inputs and labels, each shown class weighing 1/shown in total,
  /// followed by stand-ins for the classes not shown when the model has statistics: they hold
  /// those classes' regions against the shown rows (which nothing in the new windows does),
  /// all of them together weighing `rehearsalWeight`.
  static func withStandIns(
    _ model: TrainedModel, inputs: Matrix, labels: [Int], counts: [Int], settings: Settings
  ) -> (inputs: Matrix, labels: [Int], weights: [Double]) {
    let shown = Double(counts.filter { $0 > 0 }.count)
    let weights = labels.map { 1 / (shown * Double(counts[$0])) }
    guard let statistics = model.classStatistics else { return (inputs, labels, weights) }
    // A class training had no windows of has no spread (its statistics are zeros): nothing to
    // hold, and stand-ins at the origin would hand it a region it never had.
    let unshown = counts.indices.filter {
      counts[$0] == 0 && statistics.standardDeviation[$0].contains { $0 > 0 }
    }
    guard !unshown.isEmpty,
      settings.rehearsalWindowsPerClass > 0, settings.rehearsalWeight > 0
    else { return (inputs, labels, weights) }
    let standIns = standIns(
      statistics, classes: unshown, perClass: settings.rehearsalWindowsPerClass,
      nonNegative: model.classifier.kind == "mlp")
    let each = settings.rehearsalWeight / Double(unshown.count * settings.rehearsalWindowsPerClass)
    var all = inputs
    all.appendRows(standIns.inputs)
    return (
      all, labels + standIns.labels,
      weights + Array(repeating: each, count: standIns.labels.count)
    )
  }

  /// `perClass` last-layer inputs for each of `classes`, drawn from N(mean, sd²) per input with
  /// the draw clipped to ±4 sd (a fixed seed: the same model and windows adapt the same way);
  /// clipped at 0 where the inputs are ReLU outputs.
  static func standIns(
    _ statistics: ClassStatistics, classes: [Int], perClass: Int, nonNegative: Bool
  ) -> (inputs: Matrix, labels: [Int]) {
    let d = statistics.mean.first?.count ?? 0
    var generator = SplitMix64(seed: 0x5EED_AD4A_7000_0001)
    var values: [Float] = []
    values.reserveCapacity(classes.count * perClass * d)
    var labels: [Int] = []
    for c in classes {
      for _ in 0..<perClass {
        for j in 0..<d {
          let z = min(max(generator.gaussian(), -4), 4)
          let v = Double(statistics.mean[c][j]) + Double(statistics.standardDeviation[c][j]) * z
          values.append(Float(nonNegative ? max(v, 0) : v))
        }
        labels.append(c)
      }
    }
    return (Matrix(rowCount: labels.count, columnCount: d, values: values), labels)
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
