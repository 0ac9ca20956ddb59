// What a training run measured, for the CLI summary and the model card. Metrics are on the
// validation part (held-out groups), after temperature scaling unless named "before".

/// The outcome of `Trainer.train`.
public struct TrainingReport: Sendable {
  public var trainingRowCount: Int
  public var validationRowCount: Int
  public var validationGroups: [String]
  /// One per epoch (or L-BFGS iteration).
  public var epochs: [EpochReport]
  public var temperature: Float
  public var validationLogLossBefore: Double
  public var validationLogLossAfter: Double
  /// 15-bin expected calibration error before and after temperature scaling.
  public var eceBefore: Double
  public var eceAfter: Double
  public var confusion: ConfusionMatrix
  public var accuracy: Double { confusion.accuracy }
  public var macroF1: Double { confusion.macroF1 }
  public var balancedAccuracy: Double { confusion.balancedAccuracy }
  public var dataDigest: String
  /// Epochs (or L-BFGS iterations) of the final fit on every row; `nil` without refit.
  public var refitEpochs: Int? = nil
  /// Wall-clock seconds of the fits (held-out fit plus refit), without loading, features,
  /// standardisation or calibration; and of temperature scaling, cut-offs and metrics.
  public var fitSeconds: Double = 0
  /// CPU time of the calling thread during the fits (OpenBLAS runs on it): unlike wall time,
  /// not inflated by other processes on a busy machine.
  public var fitCPUSeconds: Double = 0
  public var calibrationSeconds: Double = 0
}
