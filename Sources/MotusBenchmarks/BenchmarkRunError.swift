// What a benchmark that runs child processes (`InputReadBenchmark`) says when it cannot go on:
// a child that failed, named as the user would type it, its exit status or signal in words and
// a hint; a temporary folder too full for the copy, with its path and the way around (TMPDIR);
// an input it cannot read many times over.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A benchmark run that could not start or did not succeed.
public struct BenchmarkRunError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }

  public init(message: String) { self.message = message }

  /// `command` (as typed, `motus inspect FILE`) ended with `status`, a `wait` status; `note`
  /// follows the command.
  public static func childFailed(command: String, note: String = "", status: Int32)
    -> BenchmarkRunError
  {
    let signal = status & 0x7F
    guard signal != 0 else {
      let code = (status >> 8) & 0xFF
      return BenchmarkRunError(
        message: "`\(command)`\(note) failed with exit status \(code). HINT: run it alone to see "
          + "its error (each timed run's output and errors go to /dev/null).")
    }
    let hint: String
    switch signal {
    case SIGKILL:
      hint =
        "the system may have run out of memory and stopped it (`dmesg` says so); run it "
        + "alone to see."
    case SIGILL, SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGTRAP:
      hint = "motus crashed: run it alone, and report the command with what it prints."
    default:
      hint = "something outside motus sent the signal; run it alone to see."
    }
    return BenchmarkRunError(
      message: "`\(command)`\(note) was killed by signal \(signal) (\(signalName(signal))). HINT: "
        + hint)
  }

  /// The temporary folder cannot take the next `needBytes` of the gzip copy of `file`.
  public static func temporaryFolderFull(
    folder: String, file: String, needBytes: Int, freeBytes: Int
  ) -> BenchmarkRunError {
    func megabytes(_ bytes: Int) -> String { "\((bytes + 999_999) / 1_000_000) MB" }
    return BenchmarkRunError(
      message: "the temporary folder \(folder) is full: the gzip copy of \(file) needs "
        + "\(megabytes(needBytes)) more, and \(megabytes(freeBytes)) is free; the copy was "
        + "removed. HINT: free space there, or point TMPDIR at a folder with room: "
        + "TMPDIR=/path/to/folder motus bench io \(file).")
  }

  /// `file` is a pipe, a device or standard input, which cannot be read once per run.
  public static func notARegularFile(_ file: String) -> BenchmarkRunError {
    BenchmarkRunError(
      message: "\(file): cannot time reads of it (it is not a regular file: a pipe, a device "
        + "or standard input, which give their bytes once, or never end). HINT: save the "
        + "recording to a file first (`cat ... > recording.csv`) and pass that file.")
  }

  /// SIGKILL, SIGSEGV...; `signal N` for a number without a name here.
  static func signalName(_ number: Int32) -> String {
    let names: [Int32: String] = [
      SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL, a trap",
      SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
      SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGTERM: "SIGTERM",
      SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
    ]
    return names[number] ?? "signal \(number)"
  }
}

/// A benchmark stopped by a signal (`BenchmarkInterruption`); its children are reaped and its
/// scratch files removed by the time this is thrown.
public struct BenchmarkInterrupted: Error, Equatable {
  public var signal: Int32
}
