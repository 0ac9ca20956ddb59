// Everything `Trainer.train` needs besides the data: model family, hyperparameters, split and
// calibration targets. A plain struct with defaults; `Trainer.train` validates it.

import MotusModels

/// Options for the training pipeline.
public struct TrainingOptions: Codable, Equatable, Sendable {
  public enum ModelKind: String, Codable, Sendable, CaseIterable {
    case logistic, mlp
  }

  /// What training does with windows of a dataset's negative labels (`Dataset.negativeLabels`).
  public enum NegativeUse: String, Codable, Sendable, CaseIterable {
    /// Leave them out of the classifier.
    case ignore
    /// Learn them as one more class; the model answers `unknown` when it predicts it.
    case learnAsClass = "class"
  }

  public var model: ModelKind = .logistic
  /// MLP hidden widths (1 or 2 values); ignored for logistic.
  public var hiddenLayerSizes: [Int] = [64]
  /// Logistic solver (the MLP always uses Adam).
  public var solver: LogisticRegression.Solver = .lbfgs
  /// Seeds the split, initialisation and shuffles.
  public var seed: UInt64 = 0
  /// Adam epochs or L-BFGS iterations. `nil`: 1000 for L-BFGS, 200 for Adam.
  public var maxEpochs: Int? = nil
  public var learningRate: Float = 1e-3
  /// scikit-learn's `alpha` (see `FeedForwardNetwork` for the exact objective). `nil`: 1 for
  /// logistic (scikit-learn's `C = 1`); 30 for the MLP, far above scikit-learn's 1e-4 because
  /// models must carry over to people not seen in training (chosen on MotionSense validation
  /// subjects: macro-F1 0.86 at 1e-4, 0.91 at 30).
  public var l2Penalty: Float? = nil

  /// The L2 penalty used when `l2Penalty` is nil.
  public static func defaultL2Penalty(_ model: ModelKind) -> Float { model == .logistic ? 1 : 30 }
  public var batchSize: Int = 200
  /// L-BFGS: stop when max |gradient| is below it; Adam: the validation-loss improvement that
  /// resets patience. `nil`: 1e-6 for L-BFGS (on MotionSense this reaches scikit-learn's precise
  /// optimum; 1e-4 stops about 1 point of accuracy short), 1e-4 for Adam.
  public var tolerance: Float? = nil
  /// Epochs without validation improvement before stopping (20: the validation loss of a few
  /// held-out people is noisy from epoch to epoch).
  public var patience: Int = 20
  /// None by default, chosen on `motus bench transfer`: balanced weights inflate the small
  /// classes, and a small class recorded on one device (automotive, on the QROWD phone)
  /// then claims every unfamiliar motion from a new device or placement.
  public var classWeighting: ClassWeighting = .none
  /// Share of rows (whole groups) held out for early stopping, calibration and metrics.
  public var validationFraction: Double = 0.2
  /// After the validation part has chosen the epoch count (Adam) and the temperature, fit the
  /// final model again on every row (training and validation groups): more people seen, the
  /// same stopping point. Reported metrics stay those of the held-out fit.
  public var refit: Bool = true
  /// Temperature scaling on the validation part; `false` keeps temperature 1.
  public var calibrate: Bool = true
  /// Stored in the model: calibrated top probability below this reports unknown (0 = never).
  public var unknownThreshold: Float = 0
  /// Validation accuracy targets for the medium and high confidence levels.
  public var mediumConfidenceAccuracy: Double = 0.7
  public var highConfidenceAccuracy: Double = 0.9
  /// Perturbed copies of the recordings added before windowing (`train(dataset:...)` only);
  /// `nil` trains on the recordings as they are. Default `Augmentation.recommended`, chosen on
  /// `motus bench transfer`.
  public var augmentation: Augmentation? = .recommended
  /// See `NegativeUse`.
  public var negatives: NegativeUse = .ignore
  /// With negatives learnt as a class: the share of held-out people's windows of real classes
  /// that may be answered unknown because the negative classes claim them. It sets the
  /// model's `negativeThreshold` (the upper `1 - negativeRate` quantile of the negative
  /// classes' probability on those windows).
  public var negativeRate: Double = 0.02
  /// Principal directions of the model's `NoveltyDetector`; 0 fits none, and the model never
  /// answers unknown for being far from the training data.
  public var noveltyComponents: Int = 0
  /// Share of held-out people's windows the novelty detector may call far from the training
  /// data: its threshold is the upper `1 - noveltyRate` quantile of their scores.
  public var noveltyRate: Double = 0.01

  public init() {}
}
