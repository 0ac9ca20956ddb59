// Everything `Trainer.train` needs besides the data: the estimator with its hyperparameters,
// split and calibration targets. A plain struct with defaults; `Trainer.train` validates it.

import MotusModels

/// Options for the training pipeline.
public struct TrainingOptions: Codable, Equatable, Sendable {
  /// The estimator and its hyperparameters; each family's defaults are its own
  /// (`LogisticRegression.Hyperparameters`, `MLPClassifier.Hyperparameters`), where each
  /// default and its reason is written once.
  public var model: ModelChoice = .logistic(.init())
  /// Seeds the split, augmentation and the estimator (its `seed` is set from this one).
  public var seed: UInt64 = 0
  /// How a manifest's sources weigh against each other (on top of their `weight`); data
  /// without sources (a CSV file, app recordings) has one source and is not affected.
  public var sourceBalance: SourceBalance = TrainingOptions.defaultSourceBalance
  public static let defaultSourceBalance = SourceBalance.none
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
  /// See `NegativeUse`. Learnt as a class by default: on sources and placements left out of
  /// training, the negative activities learnt as one more class cut how often push-up,
  /// automotive and cycling are answered where nobody does them (`motus bench transfer`,
  /// docs/measurements.md).
  public var negatives: NegativeUse = .learnAsClass
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
