// The settings both estimators' `Hyperparameters` have, named once so that one fitting loop,
// the training pipeline and the command line's flags serve both.

import MotusModels

/// What the `Hyperparameters` of both estimators share, so the fitting loops, the training
/// pipeline and the command line's flags treat them alike.
public protocol SharedHyperparameters: Sendable {
  var l2Penalty: Float { get set }
  var maxEpochs: Int { get set }
  var learningRate: Float { get set }
  var batchSize: Int { get set }
  var tolerance: Float { get set }
  var patience: Int { get set }
  var classWeighting: ClassWeighting { get set }
  var seed: UInt64 { get set }
}

extension SharedHyperparameters {
  /// These settings for at most `maxEpochs`; without early stopping the patience exceeds
  /// the epoch count, so it never triggers (the first epoch always improves).
  func limited(to maxEpochs: Int, earlyStopping: Bool) -> Self {
    var limited = self
    limited.maxEpochs = maxEpochs
    if !earlyStopping { limited.patience = maxEpochs + 1 }
    return limited
  }
}

extension LogisticRegression.Hyperparameters: SharedHyperparameters {}
extension MLPClassifier.Hyperparameters: SharedHyperparameters {}
