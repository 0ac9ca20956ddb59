// `--gap-factor` and `--min-gap`: where a pause in the timestamps ends a recording. Loading and
// `motus stream` read them alike, so a file is cut at the same places by both (`GapRule`).

import ArgumentParser
import Motus

struct GapOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "A time step longer than this many typical sample periods ends a recording (in "
        + "`motus stream`, restarts the window).", discussion: "Example: `--gap-factor 5`.",
      valueName: "factor"))
  var gapFactor: Double = GapRule().gapFactor

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Time steps up to this many seconds never end a recording; jitter they leave is "
        + "resampled away.", discussion: "Example: `--min-gap 0.5`.", valueName: "seconds"))
  var minGap: Double = GapRule.defaultMinimumGapSeconds

  var gapRule: GapRule { GapRule(gapFactor: gapFactor, minimumGapSeconds: minGap) }

  func validate() throws {
    guard gapFactor > 1 && gapFactor.isFinite else {
      throw ValidationError("'--gap-factor' must be a finite number > 1, got \(gapFactor).")
    }
    guard minGap >= 0 && minGap.isFinite else {
      throw ValidationError("'--min-gap' must be 0 or more seconds, got \(minGap).")
    }
  }
}
