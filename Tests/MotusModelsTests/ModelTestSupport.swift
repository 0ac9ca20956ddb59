// Small hand-built models for the inference tests.

import MotusFeatures
import MotusLinearAlgebra
import MotusModels

enum Examples {
  static let spec = FeatureSpec(
    recipes: [.copy("userAcceleration.x")], channels: ["userAcceleration.x"], sampleRateHz: 50,
    windowLength: 128, hopLength: 64, statistics: [.mean, .std, .rms], spectral: [],
    bandEdgesHz: [])

  static let metadata = TrainingMetadata(
    dataDigest: "0123456789abcdef", seed: 7,
    settingsText: ["l2Penalty": "0.0001"],
    validationMetrics: ["accuracy": 0.75], trainingRowCount: 10, validationRowCount: 4,
    validationGroups: ["s2"], motusVersion: "0.1.0")

  /// Weights with no short binary form, so a lossy float format would show.
  static func value(_ i: Int) -> Float { Float(i % 7) * 0.3141593 - Float(i % 3) * 0.7071068 + 0.1 }

  static func linear(_ outputs: Int, _ inputs: Int, offset: Int) -> Linear {
    Linear(
      weight: Matrix(
        rowCount: outputs, columnCount: inputs,
        values: (0..<(outputs * inputs)).map { value($0 + offset) }),
      bias: (0..<outputs).map { value($0 + offset + 100) })
  }

  static let standardizer = Standardizer(mean: [0.5, -1, 2], scale: [1.5, 0.25, 3])

  static var logisticModel: TrainedModel {
    TrainedModel(
      featureSpec: spec, standardizer: standardizer,
      classifier: .logistic(
        LogisticRegression(classes: ["sit", "walk"], linear: linear(2, 3, offset: 0))),
      temperature: 1.3, confidenceCutoffs: ConfidenceCutoffs(medium: 0.6, high: 0.85),
      unknownThreshold: 0.55, metadata: metadata)
  }

  static var mlpModel: TrainedModel {
    TrainedModel(
      featureSpec: spec, standardizer: standardizer,
      classifier: .mlp(
        MLPClassifier(
          classes: ["sit", "walk", "run"],
          hidden: [linear(5, 3, offset: 1), linear(4, 5, offset: 2)],
          output: linear(3, 4, offset: 3))),
      temperature: 0.8, confidenceCutoffs: ConfidenceCutoffs(medium: 0.5, high: 0.9),
      unknownThreshold: 0, metadata: metadata)
  }

  static let inputs = Matrix(rows: [[0.1, -2, 3], [1, 1, 1], [-3, 0.5, 2.5], [0, 0, 0]])

  /// A model that can answer unknown for every reason. Identity standardiser; logits
  /// (sit, walk, other) = (4 z0, -4 z0, 4 z1), so z0 > 0 favours sit and z1 > 0 the negative
  /// class `other`. The novelty detector has mean 0, one component along z0 and unit variances
  /// everywhere, so its score is |z|² / 3 and a row is far when |z|² > 3 · 3 = 9.
  static var unknownModel: TrainedModel {
    TrainedModel(
      featureSpec: spec, standardizer: Standardizer(mean: [0, 0, 0], scale: [1, 1, 1]),
      classifier: .logistic(
        LogisticRegression(
          classes: ["sit", "walk", "other"],
          linear: Linear(
            weight: Matrix(rows: [[4, 0, 0], [-4, 0, 0], [0, 4, 0]]), bias: [0, 0, 0]))),
      temperature: 1, confidenceCutoffs: ConfidenceCutoffs(medium: 0.6, high: 0.9),
      unknownThreshold: 0.6, negativeClasses: ["other"],
      novelty: NoveltyDetector(
        mean: [0, 0, 0], components: [1, 0, 0], variances: [1], residualVariance: 1,
        threshold: 3),
      metadata: metadata)
  }
}
