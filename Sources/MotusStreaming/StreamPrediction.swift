// What the stream answers for one window: the classifier stage's answer, with the step stage's
// running totals when steps are counted.

import MotusModels

/// One classified window of a stream.
public struct StreamPrediction: Sendable, Equatable {
  /// Time of the window's first and last sample, in the input's clock (seconds).
  public var windowStart: Double
  public var windowEnd: Double
  /// Index into the model's classes of the most probable class (after smoothing).
  public var classIndex: Int
  public var probability: Float
  public var confidence: ConfidenceLevel
  /// Why the stream answers unknown for this window; nil when it names the class.
  public var unknownReason: UnknownReason?
  /// The window's novelty score (see `NoveltyDetector`); nil when the model has none.
  public var noveltyScore: Float?
  /// Smoothed probability of each class, in `model.classes` order: those the answer was decided
  /// from. Shares the engine's buffer, so carrying it allocates nothing per prediction; a
  /// consumer that keeps a prediction past the next one makes the engine copy (copy on write).
  public var probabilities: [Float]
  /// With `countsSteps`: whole steps since the stream started, the cadence (steps/min, 0 when
  /// not stepping) and the estimated distance in metres (when a `StrideModel` is set).
  public var steps: Int? = nil
  public var cadence: Double? = nil
  public var distanceMeters: Double? = nil

  /// Whether the stream answers unknown instead of the class.
  public var isUnknown: Bool { unknownReason != nil }
}
