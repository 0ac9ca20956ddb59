// `motus bench io`: what reading a recording gzipped costs beside reading it plain.

import ArgumentParser
import Foundation
import Motus

struct BenchIO: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "io",
    abstract: "Time reading a recording plain and gzipped; print medians and peak memory.",
    discussion: """
      Writes a gzip copy of FILE (zlib level 6, as gzip) into the temporary folder, then runs \
      `motus inspect` on FILE and on the copy, alternately, each run its own process, and \
      prints the median wall time and peak resident memory of each and their ratio. The copy \
      is removed at the end. Example:
        motus bench io ../shared/datasets/motionsense/motionsense.csv --runs 5
      """)

  @Argument(
    help: ArgumentHelp("A recording (CSV, long layout or a phone app's).", valueName: "file"))
  var file: String

  @Option(parsing: .unconditional, help: "Runs of each; the median is reported.")
  var runs = 5

  func validate() throws {
    guard (1...100).contains(runs) else {
      throw ValidationError(
        "'--runs' must be in 1...100 (the median settles long before), got \(runs).")
    }
  }

  func run() throws {
    let folder = FileManager.default.temporaryDirectory.path
    let report = try InputReadBenchmark.run(
      file: file, folder: folder, runs: runs, executable: "/proc/self/exe"
    ) { ["inspect", $0] }
    let seconds = report.medianSeconds
    let memory = report.medianPeakResidentBytes
    let ratios = report.ratios
    let rows = [
      ["", "plain", "gzip", "gzip / plain"],
      [
        "file MB", String(format: "%.1f", Double(report.plainBytes) / 1e6),
        String(format: "%.1f", Double(report.compressedBytes) / 1e6),
        String(format: "%.3f", ratios.fileBytes),
      ],
      [
        "median wall s", String(format: "%.3f", seconds.plain),
        String(format: "%.3f", seconds.compressed),
        String(format: "%.2f", ratios.seconds),
      ],
      [
        "median peak RSS MB", String(format: "%.0f", memory.plain / 1e6),
        String(format: "%.0f", memory.compressed / 1e6),
        String(format: "%.2f", ratios.peakResidentBytes),
      ],
    ]
    try StandardOutput.print("motus inspect, \(runs) runs of each, one process per run")
    try StandardOutput.print(TextTable.render(rows, rightAligned: [1, 2, 3]))
  }
}
