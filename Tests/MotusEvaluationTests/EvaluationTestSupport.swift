// A hand-built model and dataset whose evaluation can be worked out on paper.
//
// One channel `x` at 10 Hz, windows of 4 samples, hop 4; the only feature is the window mean m.
// The standardiser is the identity; logistic logits are (low, high) = (-2m, 2m), so
// P(high) = 1 / (1 + e^(-4m)) and the prediction is `high` exactly when m > 0.

import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels

enum HandMade {
  static let spec = FeatureSpec(
    recipes: [.copy("x")], channels: ["x"], sampleRateHz: 10, windowLength: 4, hopLength: 4,
    statistics: [.mean], spectral: [], bandEdgesHz: [])

  /// Classes `low`, `high` and `idle` (idle never wins: logit -10).
  static var model: TrainedModel {
    TrainedModel(
      featureSpec: spec, standardizer: Standardizer(mean: [0], scale: [1]),
      classifier: .logistic(
        LogisticRegression(
          classes: ["low", "high", "idle"],
          linear: Linear(weight: Matrix(rows: [[-2], [2], [0]]), bias: [0, 0, -10]))),
      temperature: 1, confidenceCutoffs: ConfidenceCutoffs(medium: 0.6, high: 0.9),
      metadata: TrainingMetadata(dataDigest: "0000000000000000", seed: 0, motusVersion: "test"))
  }

  /// A recording whose windows have the given means and labels (4 constant samples each).
  static func recording(
    session: String, subject: String, means: [Float], labels: [Int32]
  ) -> Recording {
    var values: [Float] = []
    var sampleLabels: [Int32] = []
    for (m, l) in zip(means, labels) {
      values += [m, m, m, m]
      sampleLabels += [l, l, l, l]
    }
    return Recording(
      session: session, subject: subject, source: "hand-made",
      timestamps: values.indices.map { Double($0) / 10 }, columns: [values],
      labelIndices: sampleLabels, sampleRateHz: 10)
  }

  /// Labels: 0 = high, 1 = low (the dataset's own order, unlike the model's).
  /// Subject a: (1, high) right, (-1, low) right, (0.5, low) wrong.
  /// Subject b: (2, high) right, (-0.25, high) wrong.
  /// Subject c: 2 samples only, shorter than one window (skipped).
  static var dataset: Dataset {
    Dataset(
      channels: ["x"], labels: ["high", "low"],
      recordings: [
        recording(session: "a1", subject: "a", means: [1, -1, 0.5], labels: [0, 1, 1]),
        recording(session: "b1", subject: "b", means: [2, -0.25], labels: [0, 0]),
        Recording(
          session: "c1", subject: "c", source: "hand-made", timestamps: [0, 0.1],
          columns: [[1, 1]], labelIndices: [0, 0], sampleRateHz: 10),
      ])
  }
}
