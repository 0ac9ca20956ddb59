// A stream's settings that do not come from the model, each read by one stage: the classifier
// (`WindowClassifier`), the repetition stage (`RepetitionStage`) or the step stage (`StepStage`).

import MotusData

/// Settings of a stream that do not come from the model.
public struct StreamConfiguration: Sendable {
  // The classifier stage.

  /// Rate of the incoming samples, Hz. `nil`: assume the model's rate.
  public var inputRateHz: Double?
  public var smoothing: Smoothing = .none
  /// A pause that restarts the window: longer than `gapFactor` input sample periods and than
  /// `minimumGapSeconds`, the rule loading splits sessions by, so a jittery clock is bridged
  /// here as it is in `motus evaluate`.
  public var gapRule = GapRule()
  /// Resample even when the input rate matches the model's (within 1 %).
  public var alwaysResample = false
  /// Overrides the model's unknown threshold: a prediction whose top probability is below
  /// it is reported as unknown (nil: the model's own).
  public var unknownThreshold: Float?

  // The repetition stage (with `predictionsToConfirmSet`, below).

  /// The class whose repetitions are counted (nil: none).
  public var repetitionClass: String? = "push-up"

  // The step stage.

  /// Count steps and measure cadence on the model's magnitude channel (`StepCounter`), in
  /// every activity, as a phone's pedometer does; segments then carry their steps.
  public var countsSteps = false
  public var stepSettings = StepCounter.Settings()
  /// Step length for the distance estimate (nothing set: no distance).
  public var stride = StrideModel()

  // The repetition stage, continued.

  /// Consecutive predictions of the repetition class that confirm a set. Counting then
  /// starts from the set's first window, so nothing is lost; a single stray window of
  /// the class counts nothing.
  public var predictionsToConfirmSet = 3

  // Structure of the motion.

  /// A push-up answer needs repetitions (`RepetitionGate`); nil: off (the default: it also
  /// silences real push-ups from a wrist or an ankle, which barely move in |acceleration|).
  /// Read by the classifier stage, with `repetitionClass` as the gated class.
  public var pushUpGate: PushUpGate?
  /// The hidden Markov smoother knows trips (`TripRule`); nil: off. On by default: it halves
  /// how often automotive is answered where nobody travels, at a cost to vehicles in town
  /// traffic (docs/measurements.md). Ignored by the other smoothings and by a model without
  /// both classes of the rule.
  public var trips: TripRule? = TripRule()
  /// Per-class evidence the hidden Markov smoother asks (`ClassEvidence`): by default entering
  /// push-up takes sustained evidence, as a set lasts. Ignored by the other smoothings.
  public var evidence = ClassEvidence.standard

  public init() {}

  /// The switch probability of `--smoothing hmm` unless set: an expected stay of 20 hops.
  public static let defaultSwitchProbability: Float = 0.05
  /// The weight of the newest prediction of `--smoothing ema` unless set: each window and
  /// the average of those before it count alike.
  public static let defaultExponentialAlpha: Float = 0.5
}
