// How logistic regression searches for its optimum, with each solver's iteration count and
// tolerance: the defaults `LogisticRegression.Hyperparameters` takes.

import MotusModels

extension LogisticRegression {
  /// How the optimum is searched for.
  public enum Solver: String, Codable, Sendable, CaseIterable {
    /// Full-batch L-BFGS: a precise optimum, comparable with scikit-learn's `lbfgs`.
    case lbfgs
    /// Mini-batch Adam with early stopping on the validation part.
    case adam

    /// Iterations (L-BFGS, 1000) or epochs (Adam, 200) at most.
    public var defaultMaxEpochs: Int { self == .lbfgs ? 1000 : 200 }
    /// L-BFGS 1e-4 on max |gradient|: on `motus bench transfer` it gives the figures 1e-6 gives
    /// (every group's recalls within 0.01) in a third of the iterations, and MotionSense's held-
    /// out people within 0.001 macro-F1 (1e-6 reaches scikit-learn's precise optimum, which
    /// `--tolerance 1e-6` still asks for). Adam 1e-4 on the loss.
    public var defaultTolerance: Float { 1e-4 }
  }
}
