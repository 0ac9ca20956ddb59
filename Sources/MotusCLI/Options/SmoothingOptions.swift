// Flags that smooth class probabilities over time: `--smoothing`, `--alpha`,
// `--switch-probability`, and the hidden Markov smoother's trips and class evidence. Shared by stream, evaluate
// and serve, so an evaluation can score exactly what a stream with the same flags answers.

import ArgumentParser
import Motus

struct SmoothingOptions: ParsableArguments {
  enum Choice: String, ExpressibleByArgument, CaseIterable {
    case none, ema, hmm
  }

  @Option(
    help: ArgumentHelp(
      "Smoothing of probabilities: none, ema (exponential average), hmm (a hidden Markov "
        + "filter with a class-switch probability).",
      discussion: "Example: `--smoothing hmm --switch-probability 0.02`."))
  var smoothing: Choice = .none

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Weight of the newest prediction for --smoothing ema, in (0, 1] (default: "
        + "\(StreamConfiguration.defaultExponentialAlpha)).",
      discussion: "Example: `--smoothing ema --alpha 0.3`.", valueName: "a"))
  var alpha: WrittenFloat?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Class-switch probability for --smoothing hmm, in (0, 1) (default: "
        + "\(StreamConfiguration.defaultSwitchProbability)).",
      discussion: "Example: `--smoothing hmm --switch-probability 0.02` (fewer switches).",
      valueName: "p"))
  var switchProbability: WrittenFloat?

  @OptionGroup var tripOptions: TripOptions
  @OptionGroup var evidenceOptions: EvidenceOptions

  func validate() throws {
    if let flag = tripOptions.givenFlag ?? evidenceOptions.givenFlag, smoothing != .hmm {
      throw ValidationError.appliesOnly(flag, with: "--smoothing hmm")
    }
    if let alpha {
      guard alpha.value > 0 && alpha.value <= 1 else {
        throw ValidationError("'--alpha' must be in (0, 1], got \(alpha).")
      }
      guard smoothing == .ema else {
        throw ValidationError.appliesOnly("--alpha", with: "--smoothing ema")
      }
    }
    if let switchProbability {
      guard switchProbability.value > 0 && switchProbability.value < 1 else {
        throw ValidationError(
          "'--switch-probability' must be in (0, 1), got \(switchProbability).")
      }
      guard smoothing == .hmm else {
        throw ValidationError.appliesOnly("--switch-probability", with: "--smoothing hmm")
      }
    }
  }

  /// The trips of the hidden Markov smoother (nil with another smoothing or --no-trips).
  var trips: TripRule? { smoothing == .hmm ? tripOptions.rule : nil }

  /// The class evidence of the hidden Markov smoother.
  var evidence: ClassEvidence { get throws { try evidenceOptions.evidence } }

  var value: Smoothing {
    switch smoothing {
    case .none: .none
    case .ema:
      .exponential(alpha: alpha?.value ?? StreamConfiguration.defaultExponentialAlpha)
    case .hmm:
      .hiddenMarkov(
        switchProbability: switchProbability?.value
          ?? StreamConfiguration.defaultSwitchProbability)
    }
  }
}

/// A Float flag that keeps the text it was given, so a message quotes `1e-300` as written
/// rather than the 0 a 32-bit float makes of it.
struct WrittenFloat: ExpressibleByArgument, CustomStringConvertible {
  let value: Float
  let text: String

  init?(argument: String) {
    guard let number = Double(argument) else { return nil }
    text = argument
    value = Float(number)
  }

  /// As written, with the Float it reads as when that differs in kind (0, infinity).
  var description: String {
    guard let number = Double(text), (value == 0) != (number == 0) || value.isInfinite
    else { return text }
    return "\(text) (\(value) as a 32-bit float)"
  }
}
