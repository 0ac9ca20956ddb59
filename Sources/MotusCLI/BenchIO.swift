// `motus bench io`: what reading a recording gzipped costs beside reading it plain, command by
// command.

import ArgumentParser
import Foundation
import Motus

struct BenchIO: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "io",
    abstract: "Time commands on a recording plain and gzipped; print medians and peak memory.",
    discussion: """
      Writes a gzip copy of FILE (zlib level 6, as gzip) into the temporary folder, then \
      times, alternately on FILE and on the copy, each run its own process: `motus inspect`, \
      `motus features` (to a scratch file) and, with --model, `motus stream MODEL --format \
      csv` (to /dev/null). Prints each command's median wall time and peak resident memory, \
      plain and gzip, their ratios against the target (gzip within 1.5x of the plain time, \
      the same peak memory), the time inflating the copy alone takes (the floor of any \
      command reading it) and the load average, which slows both alike. The copy is removed \
      at the end. Example:
        motus bench io ../shared/datasets/motionsense/motionsense.csv --runs 5 \\
          --model models/motionsense-device-motion.motus
      """)

  @Argument(
    help: ArgumentHelp("A recording (CSV, long layout or a phone app's).", valueName: "file"))
  var file: String

  @Option(parsing: .unconditional, help: "Runs of each; the median is reported.")
  var runs = 5

  @Option(
    help: ArgumentHelp(
      "A model whose input channels FILE has, to time `motus stream` too.", valueName: "file"))
  var model: String?

  func validate() throws {
    guard (1...100).contains(runs) else {
      throw ValidationError(
        "'--runs' must be in 1...100 (the median settles long before), got \(runs).")
    }
  }

  /// gzip's time over plain's that the target allows.
  static let timeTarget = 1.5

  func run() throws {
    var commands = [
      InputReadBenchmark.Command(name: "inspect") { input, _ in ["inspect", input] },
      InputReadBenchmark.Command(name: "features") { input, output in
        ["features", input, "-o", output]
      },
    ]
    if let model {
      commands.append(
        InputReadBenchmark.Command(name: "stream") { input, _ in
          ["stream", model, input, "--format", "csv"]
        })
    }
    let report = try InputReadBenchmark.run(
      file: file, folder: FileManager.default.temporaryDirectory.path, runs: runs,
      executable: "/proc/self/exe", commands: commands)
    try StandardOutput.print(summary(report))
  }

  private func summary(_ report: InputReadBenchmark.Report) -> String {
    func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    var rows = [
      [
        "command", "plain s", "gzip s", "time gzip/plain", "<= \(f(Self.timeTarget, 1))x",
        "plain MB", "gzip MB", "memory gzip/plain",
      ]
    ]
    for command in report.commands {
      let (time, memory, ratios) =
        (command.medianSeconds, command.medianPeakResidentBytes, command.ratios)
      rows.append([
        command.name, f(time.plain, 3), f(time.compressed, 3), f(ratios.seconds, 2),
        ratios.seconds <= Self.timeTarget ? "yes" : "no", f(memory.plain / 1e6, 0),
        f(memory.compressed / 1e6, 0), f(ratios.peakResidentBytes, 2),
      ])
    }
    let inspect = report.commands.first { $0.name == "inspect" }?.medianSeconds.plain
    let cores = ProcessInfo.processInfo.activeProcessorCount
    return """
      \(file): \(f(Double(report.plainBytes) / 1e6, 1)) MB; its gzip copy \
      \(f(Double(report.compressedBytes) / 1e6, 1)) MB (\(f(report.fileBytesRatio, 3)))
      \(runs) runs of each, plain and gzip alternately, one process per run; medians
      \(cores) cores, load average \(f(report.loadAverage.before, 2)) before, \
      \(f(report.loadAverage.after, 2)) after (other work slows plain and gzip alike)
      target: gzip within \(f(Self.timeTarget, 1))x of the plain time, the same peak memory

      """ + TextTable.render(rows, rightAligned: [1, 2, 3, 5, 6, 7]) + """

        inflating the copy alone (zlib, one thread): \(f(report.medianInflateSeconds, 3)) s\
        \(inspect.map { ", \(f(report.medianInflateSeconds / $0, 2))x plain inspect" } ?? "") \
        (gzip reads inflate on a thread beside the parse: a command takes at least this long)

        """
  }
}
