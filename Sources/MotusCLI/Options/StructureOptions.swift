// Flags for the structure a push-up has: the push-up gate (`--push-up-gate`, off by default).
// Shared by `motus stream` and `motus bench transfer`, so a benchmark judges exactly what a
// stream with the same flags answers. The smoother's trips are TripOptions'.

import ArgumentParser
import Motus

struct StructureOptions: ParsableArguments {
  @Flag(
    help: ArgumentHelp(
      "A push-up answer needs repetitions: at least --gate-repetitions at 0.3-1.5 Hz in the "
        + "last --gate-window seconds of |acceleration|, else --gate-fallback.",
      discussion: "Example: `--push-up-gate --gate-fallback unknown`."))
  var pushUpGate = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --push-up-gate, repetitions needed (default: 2).", valueName: "n"))
  var gateRepetitions: Int?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --push-up-gate, seconds looked back for repetitions (default: 10).",
      valueName: "s"))
  var gateWindow: Double?

  @Option(
    help: ArgumentHelp(
      "With --push-up-gate, what a push-up answer without repetitions becomes: other-class "
        + "(the best other class, probabilities renormalised) or unknown (default: other-class).",
      valueName: "choice"))
  var gateFallback: String?

  func validate() throws {
    for (flag, isSet) in [
      ("--gate-repetitions", gateRepetitions != nil), ("--gate-window", gateWindow != nil),
      ("--gate-fallback", gateFallback != nil),
    ] where isSet && !pushUpGate {
      throw ValidationError.appliesOnly(flag, with: "--push-up-gate")
    }
    if let gateRepetitions, !(1...100).contains(gateRepetitions) {
      throw ValidationError("'--gate-repetitions' must be in 1...100, got \(gateRepetitions).")
    }
    if let gateWindow, !(gateWindow >= 7 && gateWindow <= 60) {
      throw ValidationError(
        "'--gate-window' must be in 7...60 s (twice the longest push-up period at least), got "
          + "\(gateWindow).")
    }
    if let gateFallback, PushUpGate.Fallback(rawValue: gateFallback) == nil {
      throw ValidationError(
        "'--gate-fallback' must be other-class or unknown, got '\(gateFallback)'.")
    }
  }

  /// The push-up gate the flags ask for (nil: off).
  var gate: PushUpGate? {
    guard pushUpGate else { return nil }
    var gate = PushUpGate()
    if let gateRepetitions { gate.minimumRepetitions = gateRepetitions }
    if let gateWindow { gate.windowSeconds = gateWindow }
    if let fallback = gateFallback.flatMap(PushUpGate.Fallback.init(rawValue:)) {
      gate.fallback = fallback
    }
    return gate
  }
}
