// One fit of the chosen model family on standardised rows X [N, F], labels in 0..<K: the
// held-out fit and the refit on every row share it, so both use the same hyperparameters.

import MotusLinearAlgebra
import MotusModels

extension Trainer {
  /// The resolved options of one training run (defaults filled in).
  struct TrainingPlan {
    var options: TrainingOptions
    var l2Penalty: Float
    var tolerance: Float
    /// Adam epochs or L-BFGS iterations of the held-out fit, at most.
    var maxEpochs: Int
    var classNames: [String]

    /// L-BFGS runs to a tolerance without early stopping; the refit warm-starts it.
    var usesLBFGS: Bool { options.model == .logistic && options.solver == .lbfgs }

    /// Fills in what `options` leaves to the model family: L-BFGS gets a tighter tolerance
    /// and more iterations than Adam gets epochs.
    init(options: TrainingOptions, classNames: [String]) {
      let usesLBFGS = options.model == .logistic && options.solver == .lbfgs
      self.options = options
      self.l2Penalty = options.l2Penalty ?? TrainingOptions.defaultL2Penalty(options.model)
      self.tolerance = options.tolerance ?? (usesLBFGS ? 1e-6 : 1e-4)
      self.maxEpochs = options.maxEpochs ?? (usesLBFGS ? 1000 : 200)
      self.classNames = classNames
    }

    /// Fits a classifier.
    ///
    /// - Parameters:
    ///   - sampleWeights: Per-row loss weights of `x`, or `nil` for all 1.
    ///   - maxEpochs: Adam epochs or L-BFGS iterations at most.
    ///   - earlyStopping: `false` runs Adam for exactly `maxEpochs` epochs (a refit);
    ///     L-BFGS always stops at `tolerance`.
    ///   - initial: A logistic model to warm-start L-BFGS from (same standardisation as `x`).
    func run(
      _ x: Matrix, labels: [Int], sampleWeights: [Float]?,
      validation: (x: Matrix, labels: [Int])?, maxEpochs: Int,
      earlyStopping: Bool, initial: LogisticRegression? = nil,
      progress: ((EpochReport) -> Void)?
    ) throws -> ModelClassifier {
      // A patience above the epoch count never triggers: the first epoch always improves.
      let patience = earlyStopping ? options.patience : maxEpochs + 1
      switch options.model {
      case .logistic:
        var h = LogisticRegression.Hyperparameters()
        h.l2Penalty = l2Penalty
        h.solver = options.solver
        h.maxEpochs = maxEpochs
        h.learningRate = options.learningRate
        h.batchSize = options.batchSize
        h.tolerance = tolerance
        h.patience = patience
        h.classWeighting = options.classWeighting
        h.seed = options.seed
        return .logistic(
          try LogisticRegression.fit(
            x, labels: labels, classes: classNames, hyperparameters: h,
            sampleWeights: sampleWeights, validation: validation, initial: initial,
            progress: progress))
      case .mlp:
        var h = MLPClassifier.Hyperparameters()
        h.hiddenLayerSizes = options.hiddenLayerSizes
        h.l2Penalty = l2Penalty
        h.maxEpochs = maxEpochs
        h.learningRate = options.learningRate
        h.batchSize = options.batchSize
        h.tolerance = tolerance
        h.patience = patience
        h.classWeighting = options.classWeighting
        h.seed = options.seed
        return .mlp(
          try MLPClassifier.fit(
            x, labels: labels, classes: classNames, hyperparameters: h,
            sampleWeights: sampleWeights, validation: validation, progress: progress))
      }
    }
  }

  /// The same linear function of the raw features under another standardisation:
  /// `W·(x - m)/s + b = W'·(x - m')/s' + b'` with `W'[c, j] = W[c, j]·s'_j/s_j` and
  /// `b'_c = b_c + Σ_j W[c, j]·(m'_j - m_j)/s_j`. Warm-starts the refit on every row.
  /// - Complexity: O(*K F*).
  static func restandardized(
    _ model: LogisticRegression, from old: Standardizer, to new: Standardizer
  ) -> LogisticRegression {
    var weight = model.linear.weight
    var bias = model.linear.bias
    let f = weight.columnCount
    for c in 0..<weight.rowCount {
      var shift = Double(bias[c])
      for j in 0..<f {
        let w = Double(weight.values[c * f + j]) / Double(old.scale[j])
        shift += w * (Double(new.mean[j]) - Double(old.mean[j]))
        weight.values[c * f + j] = Float(w * Double(new.scale[j]))
      }
      bias[c] = Float(shift)
    }
    return LogisticRegression(classes: model.classes, linear: Linear(weight: weight, bias: bias))
  }
}
