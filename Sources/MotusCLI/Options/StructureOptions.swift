// Flags for the structure a motion has: the push-up gate (`--push-up-gate`) and the
// smoother's trips (`--trips`). Shared by `motus stream` and `motus bench transfer`, so a
// benchmark judges exactly what a stream with the same flags answers. Both are off by default.

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

  @Flag(
    help: ArgumentHelp(
      "With --smoothing hmm (bench transfer: its streamed rows), the smoother knows trips: "
        + "stationary right after automotive is a "
        + "stop, answered automotive until it lasts (--trip-stop-half-life), and entering "
        + "automotive needs sustained evidence (--trip-entry-factor).",
      discussion: "Example: `--smoothing hmm --trips`."))
  var trips = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --trips, the half-life of a stop on a trip, seconds (default: 120).",
      valueName: "s"))
  var tripStopHalfLife: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --trips, the switch probability into automotive as a fraction of the usual, in "
        + "(0, 1] (default: 0.2).", valueName: "f"))
  var tripEntryFactor: Float?

  func validate() throws {
    for (flag, isSet) in [
      ("--gate-repetitions", gateRepetitions != nil), ("--gate-window", gateWindow != nil),
      ("--gate-fallback", gateFallback != nil),
    ] where isSet && !pushUpGate {
      throw ValidationError.appliesOnly(flag, with: "--push-up-gate")
    }
    for (flag, isSet) in [
      ("--trip-stop-half-life", tripStopHalfLife != nil),
      ("--trip-entry-factor", tripEntryFactor != nil),
    ] where isSet && !trips {
      throw ValidationError.appliesOnly(flag, with: "--trips")
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
    if let tripStopHalfLife, !(tripStopHalfLife > 0 && tripStopHalfLife <= 3600) {
      throw ValidationError(
        "'--trip-stop-half-life' must be in (0, 3600] s, got \(tripStopHalfLife).")
    }
    if let tripEntryFactor, !(tripEntryFactor > 0 && tripEntryFactor <= 1) {
      throw ValidationError("'--trip-entry-factor' must be in (0, 1], got \(tripEntryFactor).")
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

  /// The trip rule the flags ask for (nil: off).
  var tripRule: TripRule? {
    guard trips else { return nil }
    var rule = TripRule()
    if let tripStopHalfLife { rule.stopHalfLifeSeconds = tripStopHalfLife }
    if let tripEntryFactor { rule.entryFactor = tripEntryFactor }
    return rule
  }
}
