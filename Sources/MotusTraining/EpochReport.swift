// Progress of a fit, one report per epoch (or L-BFGS iteration).

/// What happened in one epoch; passed to the `progress` callback of the fit functions.
public struct EpochReport: Sendable, Equatable {
  /// 1-based epoch (or L-BFGS iteration).
  public var epoch: Int
  public var maxEpochs: Int
  /// Mean training objective over the epoch (weighted cross-entropy + L2 term).
  public var trainingLoss: Double
  /// Unweighted mean cross-entropy on the validation part, when there is one.
  public var validationLoss: Double?
  public var validationAccuracy: Double?
  /// Seconds since the fit started (wall clock; never stored in a model).
  public var elapsedSeconds: Double

  public init(
    epoch: Int, maxEpochs: Int, trainingLoss: Double, validationLoss: Double? = nil,
    validationAccuracy: Double? = nil, elapsedSeconds: Double
  ) {
    self.epoch = epoch
    self.maxEpochs = maxEpochs
    self.trainingLoss = trainingLoss
    self.validationLoss = validationLoss
    self.validationAccuracy = validationAccuracy
    self.elapsedSeconds = elapsedSeconds
  }
}
