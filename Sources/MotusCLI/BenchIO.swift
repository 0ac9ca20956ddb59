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
      Writes a gzip copy of FILE (zlib level 6, as gzip) into a folder of its own in the \
      temporary folder (TMPDIR), then times, alternately on FILE and on the copy, each run \
      its own process: `motus inspect`, `motus features` (to a scratch file) and, with \
      --model, `motus stream MODEL --format csv` (to /dev/null). Prints each command's median \
      wall time and peak resident memory, plain and gzip, their ratios against the target \
      (gzip within 1.5x of the plain time, the same peak memory), the time inflating the copy \
      alone takes (the floor of any command reading it) and the load average, which slows \
      both alike. FILE must be a regular file (it is read once per run; not a pipe, a device \
      or -) within the input size limit, and the copy stops, with an error, before it would \
      leave less than 1% of the temporary folder's disk (at most 64 MiB) free. The folder is \
      removed at the end, on an error, and on Ctrl-C or SIGTERM, which also end the running \
      child. Example:
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
    // A signal kills the running child; the scratch folder goes as the benchmark unwinds.
    Interruption.stopBenchmarkOnSignal()
    let report: InputReadBenchmark.Report
    do {
      report = try InputReadBenchmark.run(
        file: file, folder: Self.temporaryFolder(), runs: runs, executable: "/proc/self/exe",
        program: "motus", commands: commands)
    } catch let stop as BenchmarkInterrupted {
      Interruption.die(of: stop.signal)
    }
    // No child and no scratch folder left: a signal now acts as for every command.
    Interruption.removeTemporaryFilesOnSignal()
    if let number = BenchmarkInterruption.requested { Interruption.die(of: number) }
    try StandardOutput.print(summary(report))
  }

  /// TMPDIR, or /tmp, without a trailing slash.
  private static func temporaryFolder() -> String {
    let path = FileManager.default.temporaryDirectory.path
    return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
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
