// Flags of the smoother's trips (`--trips`, on by default with --smoothing hmm). Shared by the
// commands that smooth (stream, evaluate, serve, through SmoothingOptions) and by bench
// transfer, so a benchmark judges what a stream with the same flags answers.

import ArgumentParser
import Motus

struct TripOptions: ParsableArguments {
  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "With --smoothing hmm the smoother knows trips (the default): stationary right after "
        + "automotive is a stop, answered automotive until it lasts (--trip-stop-half-life), "
        + "and entering automotive needs sustained evidence (--trip-entry-factor).",
      discussion:
        "It halves how often automotive is answered where nobody travels and costs vehicles in "
        + "town traffic (docs/measurements.md); --no-trips turns it off. A model without "
        + "automotive and stationary classes is not affected."))
  var trips: Bool?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The half-life of a stop on a trip, seconds (default: 120).", valueName: "s"))
  var tripStopHalfLife: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The switch probability into automotive as a fraction of the usual, in (0, 1] (default: "
        + "0.2).", valueName: "f"))
  var tripEntryFactor: Float?

  func validate() throws {
    for (flag, isSet) in [
      ("--trip-stop-half-life", tripStopHalfLife != nil),
      ("--trip-entry-factor", tripEntryFactor != nil),
    ] where isSet && trips == false {
      throw ValidationError(
        "'\(flag)' sets the trips that --no-trips turns off: it would be ignored. Drop one.")
    }
    if let tripStopHalfLife, !(tripStopHalfLife > 0 && tripStopHalfLife <= 3600) {
      throw ValidationError(
        "'--trip-stop-half-life' must be in (0, 3600] s, got \(tripStopHalfLife).")
    }
    if let tripEntryFactor, !(tripEntryFactor > 0 && tripEntryFactor <= 1) {
      throw ValidationError("'--trip-entry-factor' must be in (0, 1], got \(tripEntryFactor).")
    }
  }

  /// A trip flag given on the command line, named for an error (nil: none given).
  var givenFlag: String? {
    if trips == true { return "--trips" }
    if tripStopHalfLife != nil { return "--trip-stop-half-life" }
    if tripEntryFactor != nil { return "--trip-entry-factor" }
    return nil
  }

  /// The trip rule the flags ask for: the default one unless --no-trips.
  var rule: TripRule? {
    guard trips != false else { return nil }
    var rule = TripRule()
    if let tripStopHalfLife { rule.stopHalfLifeSeconds = tripStopHalfLife }
    if let tripEntryFactor { rule.entryFactor = tripEntryFactor }
    return rule
  }
}
