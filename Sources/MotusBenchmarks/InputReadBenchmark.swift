// What reading gzip costs: one recording read plain and gzipped by the same commands, each run
// its own process (so each run's peak resident memory is its own, `wait4`'s ru_maxrss),
// alternating plain and gzipped so that a busy machine slows both alike; beside them, the time
// inflating alone takes, the floor of any command that reads the copy.

import Foundation
import MotusData
import MotusGzip
import MotusIngest

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

  /// Writes a gzip copy of `file` into a folder of its own made in `folder` (zlib level 6, gzip's default, in members of
  /// 16 MiB as pigz writes them, so this process never holds the file), then `runs` times:
  /// inflates the copy alone, and runs `executable` with each command's arguments on the file
  /// and on the copy, alternately, standard output to /dev/null, the scratch output
  /// removed after each run and the folder at the end.
  ///
  /// - Throws: `InputFileError` when `file` cannot be read; `BenchmarkRunError` when a run
  ///   cannot start or fails.
  public static func run(
    file: String, folder: String, runs: Int, executable: String, commands: [Command]
  ) throws -> Report {
    // A folder of its own: the copy and the scratch output never take the name of a file
    // already there (a `FILE.gz` beside a FILE in the temporary folder stays untouched).
    var template = Array(
      (folder as NSString).appendingPathComponent("motus-bench-io-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw BenchmarkRunError(
        message: "cannot make a scratch folder in \(folder): \(InputFile.describe(errno))")
    }
    let scratch = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let copy = (scratch as NSString).appendingPathComponent(PathName.last(file) + ".gz")
    // A CSV name, which every command writing a table accepts.
    let output = (scratch as NSString).appendingPathComponent("out.csv")
    let (plainBytes, compressedBytes) = try writeCompressedCopy(of: file, to: copy)
    var report = Report(
      plainBytes: plainBytes, compressedBytes: compressedBytes,
      commands: commands.map { CommandReport(name: $0.name) }, inflateSeconds: [],
      loadAverage: (loadAverage(), 0))
    for _ in 0..<runs {
      report.inflateSeconds.append(try inflateAlone(copy))
      for (i, command) in commands.enumerated() {
        for (input, compressed) in [(file, false), (copy, true)] {
          defer { try? FileManager.default.removeItem(atPath: output) }
          let run = try measure(executable, command.arguments(input, output))
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

  /// Seconds to read the text of `path` through `InputReader` into a 1 MiB buffer.
  private static func inflateAlone(_ path: String) throws -> Double {
    let reader = try InputReader(path: path)
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    let start = DispatchTime.now().uptimeNanoseconds
    try buffer.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      while try reader.read(into: base, count: raw.count) != 0 {}
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  private static func loadAverage() -> Double {
    var loads = [Double](repeating: .nan, count: 1)
    return getloadavg(&loads, 1) == 1 ? loads[0] : .nan
  }

  /// The gzip copy, member by member; the sizes of the text and of the copy.
  private static func writeCompressedCopy(of file: String, to copy: String) throws -> (Int, Int) {
    let reader = try InputReader(path: file)
    guard FileManager.default.createFile(atPath: copy, contents: nil),
      let output = FileHandle(forWritingAtPath: copy)
    else { throw BenchmarkRunError(message: "cannot write the gzip copy \(copy)") }
    defer { try? output.close() }
    var chunk = [UInt8](repeating: 0, count: 16 << 20)
    var written = 0
    while true {
      var filled = 0
      while filled < chunk.count {
        let n = try chunk.withUnsafeMutableBytes { raw -> Int? in
          guard let base = raw.baseAddress else { return 0 }
          return try reader.read(into: base + filled, count: raw.count - filled)
        }
        guard let n else { continue }
        if n == 0 { break }
        filled += n
      }
      if filled == 0 { break }
      let member = Gzip.compress(Array(chunk[..<filled]))
      try output.write(contentsOf: member)
      written += member.count
    }
    return (reader.bytesRead, written)
  }

  /// Runs one process to its end: wall time and peak resident memory.
  static func measure(_ executable: String, _ arguments: [String]) throws -> Run {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Output and progress to /dev/null: a failure says to run the command alone.
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // posix_spawn shares this process's memory until the child's exec, and exec records that
    // memory's peak as the child's: reset this process's peak to its present size first
    // (Linux's clear_refs; where it cannot be written, the figure may count this process).
    if let refs = fopen("/proc/self/clear_refs", "w") {
      fputs("5", refs)
      fclose(refs)
    }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw BenchmarkRunError(message: "cannot start \(executable): \(InputFile.describe(spawned))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else {
        throw BenchmarkRunError(message: "waiting for \(executable): \(InputFile.lastError())")
      }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    // Exited with 0: the low byte (signal) and the exit code are both zero.
    guard status == 0 else {
      throw BenchmarkRunError(
        message: "`\(([executable] + arguments).joined(separator: " "))` failed (status "
          + "\(status)); run it alone to see why")
    }
    // ru_maxrss is in kilobytes on Linux.
    return Run(seconds: seconds, peakResidentBytes: Int(usage.ru_maxrss) * 1024)
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
