// How a long benchmark runs and reports, the same for each that trains per held-out group:
// jobs at once, the format, and a JSON copy written atomically.

import ArgumentParser
import Foundation

struct BenchReportOptions: ParsableArguments {
  enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

  @Option(
    parsing: .unconditional,
    help: "Jobs run at once, one core each (default: every core); results do not depend on it.")
  var parallelism = min(64, ProcessInfo.processInfo.activeProcessorCount)

  @Option(help: "Output format.")
  var format: Format = .table

  @Option(
    name: [.short, .long],
    help: ArgumentHelp("Also write the JSON report to this file (atomically).", valueName: "file"))
  var output: String?

  func validate() throws {
    guard (1...64).contains(parallelism) else {
      throw ValidationError("'--parallelism' must be in 1...64, got \(parallelism).")
    }
  }
}
