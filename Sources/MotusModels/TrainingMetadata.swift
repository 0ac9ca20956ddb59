// Provenance stored in a model file. No date: the same data and settings must give a
// byte-identical file.

/// How a model was trained: enough to reproduce it and to judge it.
public struct TrainingMetadata: Codable, Sendable, Equatable {
  /// FNV-1a 64-bit digest (16 hex digits) of the training table: features, labels, groups,
  /// class names (see `Trainer`).
  public var dataDigest: String
  public var seed: UInt64
  /// How the model was fitted, every default resolved, by flag-like name (`"l2Penalty":
  /// "1.0"`): the file's `hyperparameters`. Inference needs none of it; MotusTraining, which
  /// writes it, reads it typed (`settings`).
  public var settingsText: [String: String]
  /// Validation metrics by name (`"accuracy"`, `"macroF1"`, `"eceAfter"`, ...).
  public var validationMetrics: [String: Double]
  public var trainingRowCount: Int
  public var validationRowCount: Int
  /// Groups (subjects or sessions) held out for validation, sorted.
  public var validationGroups: [String]
  /// `MotusVersion.string` of the build that trained the model.
  public var motusVersion: String
  /// Set when the model was adapted from another (`motus adapt`); nil for a trained model.
  public var adaptation: AdaptationRecord? = nil

  enum CodingKeys: String, CodingKey {
    case dataDigest, seed, validationMetrics, trainingRowCount, validationRowCount
    case validationGroups, motusVersion, adaptation
    case settingsText = "hyperparameters"
  }

  public init(
    dataDigest: String, seed: UInt64, settingsText: [String: String] = [:],
    validationMetrics: [String: Double] = [:], trainingRowCount: Int = 0,
    validationRowCount: Int = 0, validationGroups: [String] = [], motusVersion: String
  ) {
    self.dataDigest = dataDigest
    self.seed = seed
    self.settingsText = settingsText
    self.validationMetrics = validationMetrics
    self.trainingRowCount = trainingRowCount
    self.validationRowCount = validationRowCount
    self.validationGroups = validationGroups
    self.motusVersion = motusVersion
  }
}
