// One fit of the chosen estimator on standardised rows X [N, F], labels in 0..<K: the
// held-out fit and the refit on every row share it, so both use the same hyperparameters.

import MotusLinearAlgebra
import MotusModels

extension ModelChoice {
  /// L-BFGS runs to a tolerance without early stopping; the refit warm-starts it.
  var usesLBFGS: Bool { solver == .lbfgs }

  /// Fits a classifier with these hyperparameters.
  ///
  /// - Parameters:
  ///   - sampleWeights: Per-row loss weights of `x`, or `nil` for all 1.
  ///   - maxEpochs: Adam epochs or L-BFGS iterations at most.
  ///   - earlyStopping: `false` runs Adam for exactly `maxEpochs` epochs (a refit);
  ///     L-BFGS always stops at `tolerance`.
  ///   - initial: A logistic model to warm-start L-BFGS from (same standardisation as `x`).
  func fit(
    _ x: Matrix, labels: [Int], classes: [String], sampleWeights: [Float]?,
    validation: (x: Matrix, labels: [Int])?, maxEpochs: Int,
    earlyStopping: Bool, initial: LogisticRegression? = nil,
    progress: ((EpochReport) -> Void)?
  ) throws -> ModelClassifier {
    switch self {
    case .logistic(var h):
      h.shared = h.shared.limited(to: maxEpochs, earlyStopping: earlyStopping)
      return .logistic(
        try LogisticRegression.fit(
          x, labels: labels, classes: classes, hyperparameters: h,
          sampleWeights: sampleWeights, validation: validation, initial: initial,
          progress: progress))
    case .mlp(var h):
      h.shared = h.shared.limited(to: maxEpochs, earlyStopping: earlyStopping)
      return .mlp(
        try MLPClassifier.fit(
          x, labels: labels, classes: classes, hyperparameters: h,
          sampleWeights: sampleWeights, validation: validation, progress: progress))
    }
  }
}
