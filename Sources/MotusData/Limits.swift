// Bounds on rates, values, sizes and memory that every command applies, so a typo or a
// hostile file gets an error that names the limit and its reason instead of a trap, a hang or
// an allocation the machine cannot make.

import Foundation

/// The bounds input values and sizes must keep.
public enum Limits {
  /// Sample rates (Hz) data may be read, resampled, modelled or streamed at. Inertial sensors
  /// sample between about 1 Hz and a few kHz; outside this range a rate nearly always comes
  /// from timestamps in the wrong unit (milliseconds read as seconds).
  public static let sampleRateHz: ClosedRange<Double> = 0.1...10_000

  /// Largest factor between the input and output rate of a resampling, either way. The
  /// anti-alias filter's length and the samples made grow with it.
  public static let resamplingFactor: Double = 1000

  /// Largest magnitude of a channel value, in the channel's unit. Sensor channels (g, m/s²,
  /// rad/s, µT, hPa) stay far below it; this keeps every window feature (powers up to the
  /// fourth, summed over a window) finite in 32-bit floats.
  public static let channelMagnitude: Double = 1e7

  /// Largest magnitude of a feature cell in a window table read back for training. Features
  /// of channel values within `channelMagnitude` (means, spreads, band powers of squared
  /// values) stay far below it, and its square (a feature's variance when training
  /// standardises it) is still finite in 32-bit floats; beyond it a cell is damage or a unit
  /// error (1e30), not a feature.
  public static let featureMagnitude: Double = 1e18

  /// Largest magnitude of a timestamp, in seconds (Unix time reaches it in the year 2286).
  /// Milliseconds or nanoseconds read as seconds exceed it.
  public static let timeMagnitude: Double = 1e10

  /// Bytes a whole input file (CSV, manifest, model) may have before it is read: the share of
  /// memory a load can use.
  public static var inputFileBytes: Int { Int(min(memoryBytes, Double(Int.max / 2))) }

  /// Longest line (bytes before its line end) any reader of text accepts: a CSV row of a few
  /// hundred channels is a few kilobytes. Checked as the text is read (`LineCheck`), so one
  /// huge line (a gzip bomb, a binary file) is an error after a megabyte, not an allocation.
  public static let lineBytes = 1 << 20

  /// Most blank lines in a row any reader of text accepts: more is an error (`LineCheck`), so
  /// a gzip file of line feeds ends at once rather than after minutes.
  public static let blankLineRun = 1 << 16

  /// Memory a command may plan to use: three quarters of the machine's physical memory.
  public static var memoryBytes: Double { Double(ProcessInfo.processInfo.physicalMemory) * 0.75 }

  /// - Throws: `LimitError.sampleRate` unless `hz` is within `sampleRateHz`.
  public static func checkSampleRate(_ hz: Double, what: String) throws {
    guard sampleRateHz.contains(hz) else { throw LimitError.sampleRate(what: what, hz: hz) }
  }

  /// Checks a sample rate given by a flag (`--sample-rate`, `--input-rate`): every command
  /// bounds it by one rule, in one message.
  ///
  /// - Throws: `LimitError.flagSampleRate` unless `hz` is within `sampleRateHz`.
  public static func checkSampleRate(_ hz: Double, flag: String) throws {
    guard sampleRateHz.contains(hz) else { throw LimitError.flagSampleRate(flag: flag, hz: hz) }
  }

  /// Checks both rates and their ratio before a resampler is made.
  ///
  /// - Throws: `LimitError.sampleRate`, `.resamplingFactor`.
  public static func checkResampling(fromHz: Double, toHz: Double, what: String) throws {
    try checkSampleRate(fromHz, what: what)
    try checkSampleRate(toHz, what: what)
    guard max(fromHz / toHz, toHz / fromHz) <= resamplingFactor else {
      throw LimitError.resamplingFactor(what: what, fromHz: fromHz, toHz: toHz)
    }
  }

  /// Refuses a planned allocation of `bytes` (an estimate, computed in Double so it cannot
  /// overflow) larger than `memoryBytes`.
  ///
  /// - Throws: `LimitError.memory` naming what needs it and what to do instead.
  public static func checkMemory(_ bytes: Double, for what: String, hint: String) throws {
    guard bytes <= memoryBytes else {
      throw LimitError.memory(what: what, bytes: bytes, availableBytes: memoryBytes, hint: hint)
    }
  }
}

/// A value or a planned size outside `Limits`, with the limit, its reason and a hint.
public enum LimitError: Error, Equatable, CustomStringConvertible {
  /// `what` names the rate (`--sample-rate`, `session 'walk' (walk.csv)`, `model file m.motus`).
  case sampleRate(what: String, hz: Double)
  /// `flag` (`--sample-rate`, `--input-rate`) gives a rate outside `Limits.sampleRateHz`.
  case flagSampleRate(flag: String, hz: Double)
  case resamplingFactor(what: String, fromHz: Double, toHz: Double)
  case memory(what: String, bytes: Double, availableBytes: Double, hint: String)
  /// Line `line` of `file` is longer than `limitBytes` (`binary`: it holds NUL bytes).
  case lineTooLong(file: String, line: Int, limitBytes: Int, binary: Bool)
  /// Line `line` of `file` is the one past `limit` blank lines in a row.
  case blankLines(file: String, line: Int, limit: Int)

  public var description: String {
    let rates = Limits.sampleRateHz
    let range = "\(format(rates.lowerBound))...\(format(rates.upperBound))"
    switch self {
    case .sampleRate(let what, let hz):
      return "\(what): a sample rate of \(format(hz)) Hz is outside \(range) Hz, the rates "
        + "inertial sensors record at. HINT: timestamps must be in seconds (divide "
        + "milliseconds by 1000), and rates are given in Hz."
    case .flagSampleRate(let flag, let hz):
      return "'\(flag)' must be within \(rates.lowerBound)...\(rates.upperBound) Hz, the rates "
        + "inertial sensors record at (higher ones only multiply memory and time), got \(hz)."
    case .resamplingFactor(let what, let from, let to):
      return "\(what): resampling from \(format(from)) Hz to \(format(to)) Hz changes the rate "
        + "by more than \(format(Limits.resamplingFactor)) times, which would make or drop "
        + "nearly every sample. HINT: check that the timestamps are in seconds and that the "
        + "data suits the model's rate."
    case .memory(let what, let bytes, let available, let hint):
      return "\(what) needs about \(Self.bytes(bytes)), more than the \(Self.bytes(available)) "
        + "a command may use on this machine (three quarters of its memory). HINT: \(hint)"
    case .lineTooLong(let file, let line, let limit, let binary):
      return "\(file):\(line): the line is longer than \(Self.size(limit)), the longest line "
        + "any input may have"
        + (binary ? ", and holds NUL bytes: the input is not CSV text." : ".")
        + " HINT: pass CSV text with one row per line (a row of a few hundred channels is a "
        + "few kilobytes); a file compressed other than with gzip must be decompressed first."
    case .blankLines(let file, let line, let limit):
      return "\(file):\(line): more than \(limit) blank lines in a row, more than any input "
        + "may have. HINT: remove the blank lines (or pass the right file): a recording has "
        + "one row per line."
    }
  }

  private func format(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
    return "\(x)"
  }

  /// `1 MiB (1048576 bytes)`, or bytes alone below 1 KiB.
  private static func size(_ b: Int) -> String {
    if b >= 1 << 20, b % (1 << 20) == 0 { return "\(b >> 20) MiB (\(b) bytes)" }
    if b >= 1 << 10, b % (1 << 10) == 0 { return "\(b >> 10) KiB (\(b) bytes)" }
    return "\(b) bytes"
  }

  package static func bytes(_ b: Double) -> String {
    if b >= 1e12 { return String(format: "%.1f TB", b / 1e12) }
    if b >= 1e9 { return String(format: "%.1f GB", b / 1e9) }
    return String(format: "%.0f MB", b / 1e6)
  }
}
