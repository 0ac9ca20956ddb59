// The push-up gate of a stream: a push-up set is
// a run of repetitions, so an answer of the repetition class needs repetitions. Its own
// `RepetitionCounter`, at push-up cadence, reads the model's magnitude channel at every sample
// whatever the answer (O(1) per sample: it only keeps the history), and when a window's answer
// is the class it is asked how many repetitions the last few seconds hold; too few and the
// answer falls back to the best other class (probabilities renormalised without the class) or
// to unknown. The repetition stage's own counting (sets confirmed by answers) is unchanged; it
// sees the gated answers.

import MotusFeatures

/// Settings of the push-up gate (`StreamConfiguration.pushUpGate`).
public struct PushUpGate: Sendable, Equatable {
  /// What a vetoed answer becomes.
  public enum Fallback: String, Sendable, CaseIterable {
    /// The most probable other class, the probabilities renormalised without the gated class
    /// (the unknown rules then apply as usual).
    case otherClass = "other-class"
    /// Unknown, reason `no-repetitions`.
    case unknown
  }

  /// Repetitions the last `windowSeconds` must hold. Default 2.
  public var minimumRepetitions = 2
  /// How far back repetitions are looked for, s. Default 10 (at least twice the longest
  /// period, which the counter's history needs anyway).
  public var windowSeconds: Double = 10
  /// Plausible repetition rates, Hz. Default 0.3...1.5.
  public var cadenceHz: ClosedRange<Double> = 0.3...1.5
  public var fallback = Fallback.otherClass

  public init() {}
}

extension PushUpGate: CustomStringConvertible {
  public var description: String {
    "push-up gate \(minimumRepetitions) repetitions in \(windowSeconds) s at "
      + "\(cadenceHz.lowerBound)-\(cadenceHz.upperBound) Hz, else \(fallback.rawValue)"
  }
}

/// Vetoes answers of the repetition class without repetitions. Not thread-safe: one per stream.
final class RepetitionGate {
  /// The gated class (the configuration's `repetitionClass`) and the channel counted on.
  let classIndex: Int
  let channel: Int
  let settings: PushUpGate
  /// `settings.windowSeconds` in samples at the model's rate.
  let windowSamples: Int
  private var counter: RepetitionCounter

  /// nil when the gate is off, or the model lacks the repetition class.
  init?(spec: FeatureSpec, classes: [String], configuration: StreamConfiguration) {
    let names = spec.recipes.map(\.name)
    guard let settings = configuration.pushUpGate,
      let classIndex = configuration.repetitionClass.flatMap({ classes.firstIndex(of: $0) }),
      let channel = MagnitudeChannel.index(among: names) ?? (names.isEmpty ? nil : 0)
    else { return nil }
    precondition(
      settings.cadenceHz.lowerBound > 0 && settings.windowSeconds > 0,
      "the push-up gate needs positive rates and window, got \(settings)")
    self.classIndex = classIndex
    self.channel = channel
    self.settings = settings
    windowSamples = max(2, Int((settings.windowSeconds * spec.sampleRateHz).rounded()))
    counter = RepetitionCounter(
      sampleRateHz: spec.sampleRateHz,
      periodRangeSeconds: (1 / settings.cadenceHz.upperBound)...(1 / settings.cadenceHz.lowerBound),
      historySeconds: settings.windowSeconds)
  }

  /// One sample at the model's rate (model channel order).
  func take(_ values: UnsafeBufferPointer<Float>) {
    _ = counter.append(values[channel], counting: false)
  }

  /// Whether the latest window may be answered as the class: enough repetitions lately.
  func allows() -> Bool {
    counter.repetitions(inLast: windowSamples) >= settings.minimumRepetitions
  }

  /// After a gap: the signal before it is forgotten.
  func restart() { counter.reset() }
}
