// Standard output, checked: every byte a command prints (tables, reports, `-o -`, the stream's
// lines) goes through `StandardOutput.write`, so a full disk or a closed pipe is an error with
// its reason instead of a trap (Foundation's FileHandle) or a silent loss and exit 0 (stdio's
// buffered `print`). A closed pipe (EPIPE, the reader went away as `| head` does) is told
// apart so the command can end quietly, as a closed pipe conventionally ends a program.

import Foundation
import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard output, written unbuffered and checked.
///
///     try StandardOutput.print("accuracy 0.93")
///
/// SIGPIPE must be ignored (the command line does so at start) for a closed pipe to come back
/// as `StandardOutputError` rather than kill the process mid-write.
public enum StandardOutput {
  /// Writes all of `bytes`.
  ///
  /// - Throws: `StandardOutputError` with the system's reason.
  public static func write(_ bytes: UnsafeRawBufferPointer) throws {
    if let error = attempt(bytes) { throw error }
  }

  /// Writes all of `bytes`; the error, or nil when everything was written.
  public static func attempt(_ bytes: UnsafeRawBufferPointer) -> StandardOutputError? {
    writeAll(STDOUT_FILENO, bytes) ? nil : StandardOutputError(code: errno)
  }

  /// Writes all of `bytes`.
  public static func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try write($0) }
  }

  /// Writes `text` as UTF-8.
  public static func write(_ text: String) throws {
    var text = text
    try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
  }

  /// Writes `text` and `terminator` (a line end unless told).
  public static func print(_ text: String, terminator: String = "\n") throws {
    try write(text + terminator)
  }
}
