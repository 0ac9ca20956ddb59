// What reading gzip costs: one recording read plain and gzipped by the same commands, each run
// its own process (so each run's peak resident memory is its own, `wait4`'s ru_maxrss),
// alternating plain and gzipped so that a busy machine slows both alike; beside them, the time
// inflating alone takes, the floor of any command that reads the copy.

import Foundation
import MotusData
import MotusGzip
import MotusIngest
import MotusOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Times commands on a recording and on its gzip copy.
public enum InputReadBenchmark {
  /// One run of a command.
  public struct Run: Sendable {
    public var seconds: Double
    public var peakResidentBytes: Int
  }

  /// A command to time: its name, and its arguments for an input and a scratch output path.
  public struct Command: Sendable {
    public var name: String
    public var arguments: @Sendable (_ input: String, _ output: String) -> [String]

    public init(
      name: String, arguments: @escaping @Sendable (_ input: String, _ output: String) -> [String]
    ) {
      self.name = name
      self.arguments = arguments
    }
  }

  /// One command's runs on the plain file and on the gzip copy.
  public struct CommandReport: Sendable {
    public var name: String
    public var plain: [Run] = []
    public var compressed: [Run] = []

    public var medianSeconds: (plain: Double, compressed: Double) {
      (median(plain.map(\.seconds)), median(compressed.map(\.seconds)))
    }
    public var medianPeakResidentBytes: (plain: Double, compressed: Double) {
      (
        median(plain.map { Double($0.peakResidentBytes) }),
        median(compressed.map { Double($0.peakResidentBytes) })
      )
    }
    /// gzip over plain, of the medians.
    public var ratios: (seconds: Double, peakResidentBytes: Double) {
      let (time, memory) = (medianSeconds, medianPeakResidentBytes)
      return (time.compressed / time.plain, memory.compressed / memory.plain)
    }
  }

  public struct Report: Sendable {
    public var plainBytes: Int
    public var compressedBytes: Int
    public var commands: [CommandReport]
    /// Inflating the copy alone (zlib and line counting, this process, one thread), per run:
    /// the least a command reading it can take when it does nothing else.
    public var inflateSeconds: [Double]
    /// The 1-minute load average before the first run and after the last.
    public var loadAverage: (before: Double, after: Double)

    public var medianInflateSeconds: Double { median(inflateSeconds) }
    public var fileBytesRatio: Double { Double(compressedBytes) / Double(plainBytes) }
  }

  /// Writes a gzip copy of `file` into a folder of its own made in `folder` (zlib level 6,
  /// gzip's default, in members of 16 MiB as pigz writes them, so this process never holds the
  /// file), then `runs` times: inflates the copy alone, and runs `executable` with each
  /// command's arguments on the file and on the copy, alternately, standard output to
  /// /dev/null, the scratch output removed after each run. The folder is removed on every
  /// exit, a signal's (`BenchmarkInterruption`) included.
  ///
  /// `file` must be a regular file (it is read once per run) of at most
  /// `Limits.inputFileBytes` of text; the copy leaves part of the folder's disk free
  /// (`reserveBytes(totalBytes:)`). `program` is the name errors give the executable (`motus`).
  ///
  /// - Throws: `InputFileError` when `file` cannot be read or is too large;
  ///   `BenchmarkRunError` when it is not a regular file, the folder is full, or a run cannot
  ///   start or fails; `BenchmarkInterrupted` when a signal stopped it.
  public static func run(
    file: String, folder: String, runs: Int, executable: String, program: String = "motus",
    commands: [Command]
  ) throws -> Report {
    // Refused before opening: opening a FIFO waits for a writer.
    guard InputFile.kind(file) != .stream else { throw BenchmarkRunError.notARegularFile(file) }
    let reader = try InputReader(path: file, limit: Limits.inputFileBytes)
    guard reader.isRegularFile else { throw BenchmarkRunError.notARegularFile(file) }
    let fileIsGzip = try reader.isCompressed()
    if !fileIsGzip && Int(reader.info.st_size) > Limits.inputFileBytes {
      throw InputFileError.tooLarge(file: file, limitBytes: Limits.inputFileBytes)
    }
    let scratch = try makeScratchFolder(in: folder, for: file)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let copy = (scratch as NSString).appendingPathComponent(PathName.last(file) + ".gz")
    // A CSV name, which every command writing a table accepts.
    let output = (scratch as NSString).appendingPathComponent("out.csv")
    let (plainBytes, compressedBytes) = try writeCompressedCopy(
      of: reader, named: file, to: copy, folder: folder)
    var report = Report(
      plainBytes: plainBytes, compressedBytes: compressedBytes,
      commands: commands.map { CommandReport(name: $0.name) }, inflateSeconds: [],
      loadAverage: (loadAverage(), 0))
    for _ in 0..<runs {
      report.inflateSeconds.append(try inflateAlone(copy))
      for (i, command) in commands.enumerated() {
        for (input, compressed) in [(file, false), (copy, true)] {
          defer { try? FileManager.default.removeItem(atPath: output) }
          let arguments = command.arguments(input, output)
          // As the user would type it: the copy as `gzip -k` names it, the output as out.csv.
          let shown = shellWords(
            [program] + arguments.map { $0 == copy ? file + ".gz" : $0 == output ? "out.csv" : $0 })
          let note = compressed ? " (on the gzip copy of \(file), as `gzip -k` makes it)" : ""
          let run = try measure(executable, arguments, shownAs: shown, note: note)
          if compressed {
            report.commands[i].compressed.append(run)
          } else {
            report.commands[i].plain.append(run)
          }
        }
      }
    }
    report.loadAverage.after = loadAverage()
    return report
  }

  /// A folder of its own in `folder`: the copy and the scratch output never take the name of a
  /// file already there (a `FILE.gz` beside a FILE in the temporary folder stays untouched).
  private static func makeScratchFolder(in folder: String, for file: String) throws -> String {
    var template = Array(
      (folder as NSString).appendingPathComponent("motus-bench-io-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      let code = errno
      if code == ENOSPC || code == EDQUOT {
        throw BenchmarkRunError.temporaryFolderFull(
          folder: folder, file: file, needBytes: 1, freeBytes: 0)
      }
      throw BenchmarkRunError(
        message: "cannot make a scratch folder in \(folder): \(InputFile.describe(code)). "
          + "HINT: point TMPDIR at a folder you can write to.")
    }
    return String(cString: made)
  }

  /// Seconds to read the text of `path` through `InputReader` into a 1 MiB buffer.
  private static func inflateAlone(_ path: String) throws -> Double {
    let reader = try InputReader(path: path)
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    let start = DispatchTime.now().uptimeNanoseconds
    try buffer.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      while try reader.read(into: base, count: raw.count) != 0 {
        try BenchmarkInterruption.checkpoint()
      }
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  private static func loadAverage() -> Double {
    var loads = [Double](repeating: .nan, count: 1)
    return getloadavg(&loads, 1) == 1 ? loads[0] : .nan
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
