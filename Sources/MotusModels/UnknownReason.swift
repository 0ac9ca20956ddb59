// Why a model answers `unknown` for a window instead of naming a class.

/// The reason behind an `unknown` answer, most specific first.
public enum UnknownReason: String, Codable, Sendable, CaseIterable {
  /// The window's features are far from every training window (the model's
  /// `NoveltyDetector`): a sensor, placement or activity the model has not seen.
  case farFromTrainingData = "far-from-training-data"
  /// The most probable class is one the model learnt as none of its classes (a negative
  /// label such as `other`: rowing, jumping).
  case noneOfTheClasses = "none-of-the-classes"
  /// The calibrated top probability is below the unknown threshold.
  case lowConfidence = "low-confidence"
  /// The answer would be a repetition class (push-up), but the stream counted too few
  /// repetitions lately (`motus stream --push-up-gate` with `--gate-fallback unknown`).
  case noRepetitions = "no-repetitions"
}
