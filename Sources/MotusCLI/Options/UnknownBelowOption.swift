// `--unknown-below P`, the top probability below which the answer is 'unknown': declared and
// checked once for every command that takes it, while each says what it does with it (`Use`).

import ArgumentParser

/// What a command does with `--unknown-below`: its help, and the spellings it accepts.
protocol UnknownBelowUse {
  static var names: NameSpecification { get }
  static var help: ArgumentHelp { get }
}

extension UnknownBelowUse {
  static var names: NameSpecification { [.customLong("unknown-below")] }
}

struct UnknownBelowOption<Use: UnknownBelowUse>: ParsableArguments {
  @Option(name: Use.names, parsing: .unconditional, help: Use.help)
  var unknownBelow: Float?

  func validate() throws {
    if let unknownBelow, !(unknownBelow >= 0 && unknownBelow < 1) {
      throw ValidationError("'--unknown-below' must be in [0, 1), got \(unknownBelow).")
    }
  }
}
