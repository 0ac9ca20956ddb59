// Synthetic (generated, not measured) labelled data for the training tests.

import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels
import MotusTraining

enum Synthetic {
  static let spec = FeatureSpec(
    recipes: [.copy("synthetic")], channels: ["synthetic"], sampleRateHz: 50, windowLength: 64,
    hopLength: 32, statistics: [.mean, .std, .min, .max], spectral: [], bandEdgesHz: [])

  /// `family`'s estimator with its defaults, `solver` (logistic), `hidden` widths (MLP; nil:
  /// the default) and at most `maxEpochs`.
  static func model(
    _ family: ModelFamily, solver: LogisticRegression.Solver = .lbfgs, hidden: [Int]? = nil,
    maxEpochs: Int
  ) -> ModelChoice {
    var choice: ModelChoice
    switch family {
    case .logistic: choice = .logistic(.init(solver: solver))
    case .mlp:
      var h = MLPClassifier.Hyperparameters()
      if let hidden { h.hiddenLayerSizes = hidden }
      choice = .mlp(h)
    }
    choice.shared.maxEpochs = maxEpochs
    return choice
  }

  /// The model file `Trainer.train` writes for three overlapping blobs (seed 8) under `options`.
  static func modelBytes(_ options: TrainingOptions) throws -> [UInt8] {
    let data = blobs(separation: 3, noise: 1.5, seed: 8)
    let (model, _) = try Trainer.train(
      features: data.x, labels: data.labels, groups: data.groups, classNames: ["a", "b", "c"],
      spec: spec, options: options)
    return [UInt8](try ModelFile.encode(model))
  }

  /// `classCount` Gaussian blobs in `featureCount` dimensions, centres `separation` apart,
  /// `rowsPerGroup` rows per class in each of `groupCount` groups.
  static func blobs(
    classCount: Int = 3, featureCount: Int = 4, groupCount: Int = 6, rowsPerGroup: Int = 20,
    separation: Float = 4, noise: Float = 1, seed: UInt64 = 1
  ) -> (x: Matrix, labels: [Int], groups: [String]) {
    var generator = SplitMix64(seed: seed)
    var values: [Float] = []
    var labels: [Int] = []
    var groups: [String] = []
    for g in 0..<groupCount {
      for c in 0..<classCount {
        for _ in 0..<rowsPerGroup {
          for f in 0..<featureCount {
            let centre: Float = f % classCount == c ? separation : 0
            values.append(centre + noise * gaussian(&generator) + Float(f) * 10)
          }
          labels.append(c)
          groups.append("subject\(g)")
        }
      }
    }
    return (
      Matrix(rowCount: labels.count, columnCount: featureCount, values: values), labels, groups
    )
  }

  /// Standard normal by Box-Muller.
  static func gaussian(_ generator: inout SplitMix64) -> Float {
    let u1 = max(Float.leastNormalMagnitude, generator.nextUnitFloat())
    let u2 = generator.nextUnitFloat()
    return (-2 * logf(u1)).squareRoot() * cosf(2 * .pi * u2)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
