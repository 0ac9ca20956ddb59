// The choices a fit is made with that a model file records (`TrainingSettings`): the model
// family, the logistic solver, class weighting, augmentation and the use of negative classes.
// Defined here so the record is typed; fitting itself lives in MotusTraining.

import MotusData

/// Which classifier is fitted.
public enum ModelFamily: String, Codable, Sendable, CaseIterable {
  /// Multinomial logistic regression (`LogisticRegression`).
  case logistic
  /// A ReLU multilayer perceptron (`MLPClassifier`).
  case mlp
}

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

/// How rows of each class are weighted in the loss.
public enum ClassWeighting: Codable, Equatable, Sendable {
  /// Every row has weight 1.
  case none
  /// scikit-learn's `"balanced"`: `n / (k · count_c)`, with `n` rows and `k` classes present.
  case balanced
  /// One weight per class (>= 0), in class order.
  case given([Float])
}

/// How the windows of a manifest's sources are weighed against each other in the loss, on top of
/// each source's own `weight`.
public enum SourceBalance: String, Codable, Sendable, CaseIterable {
  /// Every window weighs its source's weight.
  case none
  /// A source of `n` windows weighs `1 / √n` a window (scaled so the mean window weighs 1):
  /// its total grows as `√n`, so a one-minute source is heard beside a five-hour one without
  /// its few windows counting as much as all of the other's.
  case inverseSquareRoot = "inverse-sqrt"
}

/// How many perturbed copies of each training recording to add, and how they differ.
public struct Augmentation: Codable, Sendable, Equatable {
  /// Perturbed copies per recording, added beside the original. 0 = no augmentation.
  public var copies: Int
  public var perturbation: DevicePerturbation

  public init(copies: Int, perturbation: DevicePerturbation) {
    self.copies = copies
    self.perturbation = perturbation
  }
}

/// What training does with windows of a dataset's negative labels (`Dataset.negativeLabels`).
public enum NegativeUse: String, Codable, Sendable, CaseIterable {
  /// Leave them out of the classifier.
  case ignore
  /// Learn them as one more class; the model answers `unknown` when it predicts it.
  case learnAsClass = "class"
}
