// Flags that smooth class probabilities over time: `--smoothing`, `--alpha`,
// `--switch-probability`. Shared by stream and evaluate, so an evaluation can score exactly
// what a stream with the same flags answers.

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

  static let defaultAlpha: Float = 0.5

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Weight of the newest prediction for --smoothing ema, in (0, 1] (default: "
        + "\(defaultAlpha)).",
      discussion: "Example: `--smoothing ema --alpha 0.3`.", valueName: "a"))
  var alpha: Float?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Class-switch probability for --smoothing hmm, in (0, 1) (default: "
        + "\(StreamConfiguration.defaultSwitchProbability)).",
      discussion: "Example: `--smoothing hmm --switch-probability 0.02` (fewer switches).",
      valueName: "p"))
  var switchProbability: Float?

  func validate() throws {
    if let alpha {
      guard alpha > 0 && alpha <= 1 else {
        throw ValidationError("'--alpha' must be in (0, 1], got \(alpha).")
      }
      guard smoothing == .ema else {
        throw ValidationError.appliesOnly("--alpha", with: "--smoothing ema")
      }
    }
    if let switchProbability {
      guard switchProbability > 0 && switchProbability < 1 else {
        throw ValidationError(
          "'--switch-probability' must be in (0, 1), got \(switchProbability).")
      }
      guard smoothing == .hmm else {
        throw ValidationError.appliesOnly("--switch-probability", with: "--smoothing hmm")
      }
    }
  }

  var value: Smoothing {
    switch smoothing {
    case .none: .none
    case .ema: .exponential(alpha: alpha ?? Self.defaultAlpha)
    case .hmm:
      .hiddenMarkov(
        switchProbability: switchProbability ?? StreamConfiguration.defaultSwitchProbability)
    }
  }
}
