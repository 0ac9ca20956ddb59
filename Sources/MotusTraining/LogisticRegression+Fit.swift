// Fitting multinomial logistic regression on standardised features X [N, F], labels in 0..<K.
// Objective (per row, averaged): weighted cross-entropy + (l2Penalty / (2N))·||W||², i.e.
// scikit-learn's LogisticRegression(C = 1 / l2Penalty) divided by N (bias not penalised).

import MotusData
import MotusLinearAlgebra
import MotusModels

extension LogisticRegression {
  /// Settings for `fit`; no logic here, `fit` validates them. These defaults are the
  /// toolkit's: `ModelChoice.logistic` and `motus train` start from them. The settings both
  /// estimators have are `shared`'s, read and set here by name (`h.l2Penalty`).
  public struct Hyperparameters: Codable, Equatable, Sendable, HoldingSharedHyperparameters {
    /// L2 penalty 1, scikit-learn's `C = 1` (`C = 1 / l2Penalty`); epochs and tolerance: the
    /// solver's.
    public var shared = SharedHyperparameters(
      l2Penalty: 1, maxEpochs: Solver.lbfgs.defaultMaxEpochs,
      tolerance: Solver.lbfgs.defaultTolerance)
    public var solver: Solver = .lbfgs

    public init() {}

    /// The defaults with `solver` and its iteration count and tolerance.
    public init(solver: Solver) {
      self.solver = solver
      shared.maxEpochs = solver.defaultMaxEpochs
      shared.tolerance = solver.defaultTolerance
    }
  }

  /// Fits to standardised features.
  ///
  /// - Parameters:
  ///   - x: `[N, F]`, standardised (see `Standardizer`).
  ///   - labels: `N` indices into `classes`.
  ///   - classes: Class names, `K >= 2`.
  ///   - hyperparameters: See `Hyperparameters`; validated here.
  ///   - sampleWeights: `N` per-row loss weights (finite, `>= 0`), multiplied with the class
  ///     weights: a row of weight 2 counts as two copies of it. `nil` weighs every row 1.
  ///   - validation: Held-out rows for early stopping (Adam) and progress reports; unweighted.
  ///   - initial: L-BFGS starts from this model instead of zero (a warm start: the objective is
  ///     convex, so the optimum is the same, reached in fewer iterations). Weights `[K, F]`.
  ///     Adam ignores it.
  ///   - progress: Called once per epoch or iteration.
  /// - Returns: The fitted model (weights `[K, F]`).
  /// - Throws: `TrainingError` for mismatched sizes, bad labels, non-finite features or
  ///   hyperparameters out of range.
  public static func fit(
    _ x: Matrix, labels: [Int], classes: [String], hyperparameters: Hyperparameters = .init(),
    sampleWeights rowWeights: [Float]? = nil, validation: (x: Matrix, labels: [Int])? = nil,
    initial: LogisticRegression? = nil,
    progress: ((EpochReport) -> Void)? = nil
  ) throws -> LogisticRegression {
    let h = hyperparameters
    try NetworkFitting.validate(
      x: x, labels: labels, classCount: classes.count, settings: h.shared)
    let weights = try NetworkFitting.sampleWeights(
      h.classWeighting, labels: labels, classCount: classes.count, rowWeights: rowWeights)
    let widths = [x.columnCount, classes.count]
    let network: FeedForwardNetwork
    switch h.solver {
    case .lbfgs:
      var start = FeedForwardNetwork(widths: widths)
      if let initial {
        let w = initial.linear.weight
        precondition(
          w.rowCount == classes.count && w.columnCount == x.columnCount,
          "initial weights are [\(w.rowCount), \(w.columnCount)], need [\(classes.count), "
            + "\(x.columnCount)]")
        start.parameters = w.values + initial.linear.bias
      }
      network = NetworkFitting.lbfgs(
        network: start, x: x, labels: labels, sampleWeights: weights,
        validation: validation, settings: h.shared, progress: progress)
    case .adam:
      var generator = SplitMix64(seed: h.seed)
      network = NetworkFitting.adam(
        network: FeedForwardNetwork(glorotUniform: widths, generator: &generator), x: x,
        labels: labels, sampleWeights: weights, validation: validation, settings: h.shared,
        generator: &generator, progress: progress)
    }
    return LogisticRegression(classes: classes, linear: network.layers[0])
  }
}
