// What reading gzip costs: one recording read plain and gzipped by the same command, each run
// its own process (so each run's peak resident memory is its own, `wait4`'s ru_maxrss),
// alternating plain and gzipped so that a busy machine slows both alike.

import Foundation
import MotusData
import MotusGzip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Times a command on a recording and on its gzip copy.
public enum InputReadBenchmark {
  /// One run of the command.
  public struct Run: Sendable {
    public var seconds: Double
    public var peakResidentBytes: Int
  }

  public struct Report: Sendable {
    public var plainBytes: Int
    public var compressedBytes: Int
    public var plain: [Run]
    public var compressed: [Run]

    public var medianSeconds: (plain: Double, compressed: Double) {
      (median(plain.map(\.seconds)), median(compressed.map(\.seconds)))
    }
    public var medianPeakResidentBytes: (plain: Double, compressed: Double) {
      (
        median(plain.map { Double($0.peakResidentBytes) }),
        median(compressed.map { Double($0.peakResidentBytes) })
      )
    }
    /// gzip over plain, of the medians (and of the file sizes).
    public var ratios: (seconds: Double, peakResidentBytes: Double, fileBytes: Double) {
      let (time, memory) = (medianSeconds, medianPeakResidentBytes)
      return (
        time.compressed / time.plain, memory.compressed / memory.plain,
        Double(compressedBytes) / Double(plainBytes)
      )
    }
  }

  /// Writes a gzip copy of `file` (zlib level 6, gzip's default) into `folder`, then runs
  /// `executable arguments(path)` `runs` times on each, standard output to /dev/null.
  ///
  /// - Throws: `InputFileError` when `file` cannot be read; `BenchmarkRunError` when a run
  ///   cannot start or fails.
  public static func run(
    file: String, folder: String, runs: Int, executable: String,
    arguments: (String) -> [String]
  ) throws -> Report {
    let text = try InputFile.read(file)
    let copy = (folder as NSString).appendingPathComponent(PathName.last(file) + ".gz")
    let compressed = Gzip.compress(text)
    guard FileManager.default.createFile(atPath: copy, contents: Data(compressed)) else {
      throw BenchmarkRunError(message: "cannot write the gzip copy \(copy)")
    }
    defer { try? FileManager.default.removeItem(atPath: copy) }
    var report = Report(
      plainBytes: text.count, compressedBytes: compressed.count, plain: [], compressed: [])
    for _ in 0..<runs {
      report.plain.append(try measure(executable, arguments(file)))
      report.compressed.append(try measure(executable, arguments(copy)))
    }
    return report
  }

  /// Runs one process to its end: wall time and peak resident memory.
  static func measure(_ executable: String, _ arguments: [String]) throws -> Run {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
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
