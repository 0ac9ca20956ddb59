// `--min-purity`, for every command that windows labelled data (features, train, evaluate).

import ArgumentParser

struct PurityOptions: ParsableArguments {
  @Option(
    name: .customLong("min-purity"),
    parsing: .unconditional,
    help: ArgumentHelp(
      "Drop windows whose majority label covers less than this fraction (0...1).",
      valueName: "fraction"))
  var minimumPurity: Float = 0

  func validate() throws {
    guard (0...1).contains(minimumPurity) else {
      throw ValidationError("'--min-purity' must be in 0...1, got \(minimumPurity).")
    }
  }
}
