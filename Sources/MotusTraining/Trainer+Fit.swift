// One fit of the chosen model family on standardised rows X [N, F], labels in 0..<K: the
// held-out fit and the refit on every row share it, so both use the same hyperparameters.

import MotusLinearAlgebra
import MotusModels

extension Trainer {
  /// The resolved options of one training run: the options over the estimator's own
  /// defaults, as that estimator's `Hyperparameters`, built once.
  struct TrainingPlan {
    enum Fit {
      case logistic(LogisticRegression.Hyperparameters)
      case mlp(MLPClassifier.Hyperparameters)
    }

    var options: TrainingOptions
    /// The held-out fit's settings; the refit changes only epochs and patience.
    var fit: Fit
    var classNames: [String]

    init(options: TrainingOptions, classNames: [String]) {
      self.options = options
      self.classNames = classNames
      switch options.model {
      case .logistic:
        var h = LogisticRegression.Hyperparameters(solver: options.solver)
        h.adopt(options)
        fit = .logistic(h)
      case .mlp:
        var h = MLPClassifier.Hyperparameters()
        h.hiddenLayerSizes = options.hiddenLayerSizes
        h.adopt(options)
        fit = .mlp(h)
      }
    }

    /// The settings both families share, of the held-out fit.
    var shared: any SharedHyperparameters {
      switch fit {
      case .logistic(let h): h
      case .mlp(let h): h
      }
    }

    /// L-BFGS runs to a tolerance without early stopping; the refit warm-starts it.
    var usesLBFGS: Bool {
      if case .logistic(let h) = fit { return h.solver == .lbfgs }
      return false
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
      switch fit {
      case .logistic(let h):
        return .logistic(
          try LogisticRegression.fit(
            x, labels: labels, classes: classNames,
            hyperparameters: h.limited(to: maxEpochs, earlyStopping: earlyStopping),
            sampleWeights: sampleWeights, validation: validation, initial: initial,
            progress: progress))
      case .mlp(let h):
        return .mlp(
          try MLPClassifier.fit(
            x, labels: labels, classes: classNames,
            hyperparameters: h.limited(to: maxEpochs, earlyStopping: earlyStopping),
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
