// Fitting a ReLU MLP on standardised features X [N, F], labels in 0..<K, with mini-batch Adam.
// Objective per batch of B rows: weighted mean cross-entropy + (l2Penalty / (2B))·Σ||W||², exactly
// scikit-learn's MLPClassifier `alpha` (which divides by the batch size).

import MotusData
import MotusLinearAlgebra
import MotusModels

extension MLPClassifier {
  /// Settings for `fit`; no logic here, `fit` validates them. These defaults are the
  /// toolkit's (`ModelChoice.mlp` and `motus train --model mlp` start from them); they follow
  /// scikit-learn's except the width (64 instead of 100), `l2Penalty`, `patience` and the
  /// class weighting. The settings both estimators have are `shared`'s, read and set here by
  /// name (`h.l2Penalty`).
  public struct Hyperparameters: Codable, Equatable, Sendable, HoldingSharedHyperparameters {
    /// One or two hidden widths, each `>= 1`.
    public var hiddenLayerSizes: [Int] = [64]
    /// L2 penalty 30, far above scikit-learn's 1e-4 because models must carry over to people
    /// not seen in training (chosen on MotionSense validation subjects: macro-F1 0.86 at 1e-4,
    /// 0.91 at 30); epochs and tolerance: Adam's, as for `LogisticRegression`'s Adam solver.
    public var shared = SharedHyperparameters(
      l2Penalty: 30, maxEpochs: LogisticRegression.Solver.adam.defaultMaxEpochs,
      tolerance: LogisticRegression.Solver.adam.defaultTolerance)

    public init() {}
  }

  /// Fits to standardised features; see `LogisticRegression.fit` for the parameters.
  public static func fit(
    _ x: Matrix, labels: [Int], classes: [String], hyperparameters: Hyperparameters = .init(),
    sampleWeights rowWeights: [Float]? = nil, validation: (x: Matrix, labels: [Int])? = nil,
    progress: ((EpochReport) -> Void)? = nil
  ) throws -> MLPClassifier {
    let h = hyperparameters
    guard (1...2).contains(h.hiddenLayerSizes.count), h.hiddenLayerSizes.allSatisfy({ $0 >= 1 })
    else {
      throw TrainingError.invalidHyperparameter(
        name: "hidden", value: "\(h.hiddenLayerSizes)", expected: "one or two sizes, each >= 1")
    }
    try NetworkFitting.validate(
      x: x, labels: labels, classCount: classes.count, settings: h.shared)
    let weights = try NetworkFitting.sampleWeights(
      h.classWeighting, labels: labels, classCount: classes.count, rowWeights: rowWeights)
    var generator = SplitMix64(seed: h.seed)
    let widths = [x.columnCount] + h.hiddenLayerSizes + [classes.count]
    let network = NetworkFitting.adam(
      network: FeedForwardNetwork(glorotUniform: widths, generator: &generator), x: x,
      labels: labels, sampleWeights: weights, validation: validation, settings: h.shared,
      generator: &generator, progress: progress)
    let layers = network.layers
    return MLPClassifier(
      classes: classes, hidden: Array(layers.dropLast()), output: layers[layers.count - 1])
  }
}
