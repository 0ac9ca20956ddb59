// The settings both estimators' `Hyperparameters` have, declared once with how a model file
// records them: adding one is a field and an entry in `recorded` here, and a flag in
// `motus train`. The fitting loops, the training pipeline and the command line read them here.

import MotusModels

/// What the `Hyperparameters` of both estimators share. Each family sets its own defaults
/// for the penalty, the epoch count and the tolerance (see their `Hyperparameters`).
public struct SharedHyperparameters: Codable, Equatable, Sendable {
  /// L2 strength (scikit-learn's `alpha`). Must be `>= 0`.
  public var l2Penalty: Float
  /// Epochs (Adam) or iterations (L-BFGS). Must be `>= 1`.
  public var maxEpochs: Int
  /// Adam step size. Must be `> 0`.
  public var learningRate: Float = 1e-3
  /// Adam mini-batch rows. Must be `>= 1`.
  public var batchSize: Int = 200
  /// Adam: minimum loss improvement that resets patience. L-BFGS: max |gradient| to stop.
  public var tolerance: Float
  /// Adam: epochs without improvement before stopping. Must be `>= 1`. Default 20: the
  /// validation loss of a few held-out people is noisy from epoch to epoch.
  public var patience: Int = 20
  /// Balanced weights to the power 0.9 by default. Weighting the small classes up lifted the
  /// mean recall on every held-out source (0.654 to 0.679, balanced against none); the power
  /// then cut the false alarms that full balance brings (a push-up window weighs about 28
  /// everyday ones, not 40): push-up answered where nobody does push-ups on 2.9 % of a
  /// held-out source's windows, not 4.3 %, for 0.015 mean recall (docs/measurements.md).
  public var classWeighting: ClassWeighting = .balancedPower(0.9)
  /// Seeds the initialisation and the Adam shuffles. Not in `recorded`: a model file keeps
  /// the training seed as `TrainingMetadata.seed`.
  public var seed: UInt64 = 0

  public init(l2Penalty: Float, maxEpochs: Int, tolerance: Float) {
    self.l2Penalty = l2Penalty
    self.maxEpochs = maxEpochs
    self.tolerance = tolerance
  }

  /// These settings for at most `maxEpochs`; without early stopping the patience exceeds
  /// the epoch count, so it never triggers (the first epoch always improves).
  func limited(to maxEpochs: Int, earlyStopping: Bool) -> Self {
    var limited = self
    limited.maxEpochs = maxEpochs
    if !earlyStopping { limited.patience = maxEpochs + 1 }
    return limited
  }

  /// Every field a model file records (`TrainingSettings`), by the key the file uses, with the
  /// `motus train` flag that sets it. A field missing here is neither recorded nor read back.
  public static let recorded: [Hyperparameter] = [
    Hyperparameter("l2Penalty", \.l2Penalty, flag: "--l2"),
    Hyperparameter("maxEpochs", \.maxEpochs, flag: "--epochs"),
    Hyperparameter("tolerance", \.tolerance, flag: "--tolerance"),
    Hyperparameter("learningRate", \.learningRate, flag: "--learning-rate", adamOnly: true),
    Hyperparameter("batchSize", \.batchSize, flag: "--batch-size", adamOnly: true),
    Hyperparameter("patience", \.patience, flag: "--patience", adamOnly: true),
    Hyperparameter(
      "classWeighting", \.classWeighting, flag: "--class-weights", write: ClassWeighting.write,
      read: ClassWeighting.read),
  ]
}

/// One recorded entry of `SharedHyperparameters`: the model file's key, the flag that sets
/// it, and how its value is written as text and read back.
public struct Hyperparameter: Sendable {
  /// The model file's key (`l2Penalty`).
  public let key: String
  /// The `motus train` flag that sets it (`--l2`).
  public let flag: String
  /// Recorded only for a fit by Adam (the MLP, or logistic regression with the Adam solver).
  public let adamOnly: Bool
  let path: PartialKeyPath<SharedHyperparameters> & Sendable
  let format: @Sendable (SharedHyperparameters) -> String
  /// Sets the field from its text; false when the text is not a value.
  let parse: @Sendable (inout SharedHyperparameters, String) -> Bool

  init<Value>(
    _ key: String, _ path: WritableKeyPath<SharedHyperparameters, Value> & Sendable,
    flag: String, adamOnly: Bool = false, write: @escaping @Sendable (Value) -> String,
    read: @escaping @Sendable (String) -> Value?
  ) {
    (self.key, self.flag, self.adamOnly, self.path) = (key, flag, adamOnly, path)
    format = { write($0[keyPath: path]) }
    parse = { settings, text in
      guard let value = read(text) else { return false }
      settings[keyPath: path] = value
      return true
    }
  }

  init<Value: LosslessStringConvertible & Sendable>(
    _ key: String, _ path: WritableKeyPath<SharedHyperparameters, Value> & Sendable,
    flag: String, adamOnly: Bool = false
  ) {
    self.init(
      key, path, flag: flag, adamOnly: adamOnly, write: { "\($0)" }, read: { Value($0) })
  }

  /// Whether a model fitted by `model` records this entry.
  func isRecorded(for model: ModelChoice) -> Bool { !adamOnly || model.usesAdam }
}

extension ClassWeighting {
  /// `none`, `balanced`, `sqrt-balanced`, `balanced^p`, or the weights comma-separated: a model
  /// file's form, and the flag's.
  @Sendable public static func write(_ weighting: ClassWeighting) -> String {
    switch weighting {
    case .none: return "none"
    case .balanced: return "balanced"
    case .balancedPower(0.5): return "sqrt-balanced"
    case .balancedPower(let power): return "balanced^\(power)"
    case .given(let weights): return weights.map { "\($0)" }.joined(separator: ",")
    }
  }

  /// The form `write` gives; nil for anything else.
  @Sendable public static func read(_ text: String) -> ClassWeighting? {
    switch text {
    case "none": return ClassWeighting.none
    case "balanced": return .balanced
    case "sqrt-balanced": return .balancedPower(0.5)
    default:
      if text.hasPrefix("balanced^") {
        return Double(text.dropFirst("balanced^".count)).map { .balancedPower($0) }
      }
      return TrainingSettings.numbers(text).map { .given($0) }
    }
  }
}

/// An estimator's `Hyperparameters`, which hold the shared ones and read and set them as if
/// they were fields of their own (`h.l2Penalty`).
@dynamicMemberLookup
public protocol HoldingSharedHyperparameters {
  var shared: SharedHyperparameters { get set }
}

extension HoldingSharedHyperparameters {
  public subscript<Value>(dynamicMember path: WritableKeyPath<SharedHyperparameters, Value>)
    -> Value
  {
    get { shared[keyPath: path] }
    set { shared[keyPath: path] = newValue }
  }
}
