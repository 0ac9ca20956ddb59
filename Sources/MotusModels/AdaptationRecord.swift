// What a model file says about its adaptation to someone's own recordings (`motus adapt`):
// absent from files that were only trained, so those keep their bytes.

/// How a model was adapted from another: the model it started from, the windows it saw and
/// the settings of the fit.
public struct AdaptationRecord: Codable, Sendable, Equatable {
  /// FNV-1a 64-bit digest (16 hex digits) of the original model file's bytes.
  public var baseModelDigest: String
  /// The original model's training-table digest (`TrainingMetadata.dataDigest`).
  public var baseDataDigest: String
  /// FNV-1a 64-bit digest of the adaptation windows: features and labels.
  public var dataDigest: String
  /// Windows per class the adaptation saw; classes it did not see are absent.
  public var windowsPerClass: [String: Int]
  /// The settings of the fit by flag-like name (`"penalty": "0.01"`).
  public var settings: [String: String]

  public init(
    baseModelDigest: String, baseDataDigest: String, dataDigest: String,
    windowsPerClass: [String: Int], settings: [String: String]
  ) {
    self.baseModelDigest = baseModelDigest
    self.baseDataDigest = baseDataDigest
    self.dataDigest = dataDigest
    self.windowsPerClass = windowsPerClass
    self.settings = settings
  }
}
