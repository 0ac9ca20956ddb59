// How the rows of an input CSV are read: which column holds the time, and whether raw
// acceleration is in Android sign. Shared by the data commands (through `DataOptions`) and
// `stream`, so a stream reads a file as training read it.

import ArgumentParser

struct InputColumnOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Column holding the sample time in seconds.", discussion: "Example: `--time-column t`.",
      valueName: "name"))
  var timeColumn = "timestamp"

  @Flag(
    help: ArgumentHelp(
      "Negate raw acceleration.* columns (Android sign to Core Motion sign).",
      discussion: "Only raw acceleration columns are negated; acceleration derived from "
        + "gravity + userAcceleration (a file without acceleration columns) is already in Core "
        + "Motion sign. Magnitudes such as |acceleration| are computed from the adapted axes."))
  var negateAcceleration = false

  func validate() throws {
    if timeColumn.isEmpty { throw ValidationError("'--time-column' must not be empty.") }
  }
}
