// Fitting multinomial logistic regression on standardised features X [N, F], labels in 0..<K.
// Objective (per row, averaged): weighted cross-entropy + (l2Penalty / (2N))·||W||², i.e.
// scikit-learn's LogisticRegression(C = 1 / l2Penalty) divided by N (bias not penalised).

import MotusData
import MotusLinearAlgebra
import MotusModels

extension LogisticRegression {
  /// Settings for `fit`; no logic here, `fit` validates them. These defaults are the
  /// toolkit's: `ModelChoice.logistic` and `motus train` start from them.
  public struct Hyperparameters: Codable, Equatable, Sendable {
    /// L2 strength (scikit-learn's `alpha`; `C = 1 / l2Penalty`). Must be `>= 0`. Default 1,
    /// scikit-learn's `C = 1`.
    public var l2Penalty: Float = 1
    public var solver: Solver = .lbfgs
    /// Epochs (Adam) or iterations (L-BFGS). Must be `>= 1`. Default: the solver's.
    public var maxEpochs: Int = Solver.lbfgs.defaultMaxEpochs
    /// Adam step size. Must be `> 0`.
    public var learningRate: Float = 1e-3
    /// Adam mini-batch rows. Must be `>= 1`.
    public var batchSize: Int = 200
    /// Adam: minimum loss improvement that resets patience. L-BFGS: max |gradient| to stop.
    /// Default: the solver's.
    public var tolerance: Float = Solver.lbfgs.defaultTolerance
    /// Adam: epochs without improvement before stopping. Must be `>= 1`. Default 20: the
    /// validation loss of a few held-out people is noisy from epoch to epoch.
    public var patience: Int = 20
    /// Balanced by default, chosen on `motus bench transfer` over every class: with vehicles,
    /// bikes and push-ups from several sources each, weighting the small classes up lifted the
    /// mean recall of every class on every held-out source from 0.654 to 0.679 (vehicles and
    /// push-ups most; MotionSense's still and walking people lost 0.05). With one source per
    /// small class (automotive on the QROWD phone alone) it had done the opposite.
    public var classWeighting: ClassWeighting = .balanced
    /// Seeds the Adam shuffles (L-BFGS starts from zero and is deterministic anyway).
    public var seed: UInt64 = 0

    public init() {}

    /// The defaults with `solver` and its iteration count and tolerance.
    public init(solver: Solver) {
      self.solver = solver
      maxEpochs = solver.defaultMaxEpochs
      tolerance = solver.defaultTolerance
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
    try NetworkFitting.validate(x: x, labels: labels, classCount: classes.count, settings: h)
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
        validation: validation, settings: h, progress: progress)
    case .adam:
      var generator = SplitMix64(seed: h.seed)
      network = NetworkFitting.adam(
        network: FeedForwardNetwork(glorotUniform: widths, generator: &generator), x: x,
        labels: labels, sampleWeights: weights, validation: validation, settings: h,
        generator: &generator, progress: progress)
    }
    return LogisticRegression(classes: classes, linear: network.layers[0])
  }
}
