// Standard error, checked: every warning, note, progress line and error message goes through
// `StandardError.write`, never through Foundation's FileHandle (which traps when a write fails:
// `2>/dev/full`, or `2>&1 | head` once head has gone) nor stdio's unchecked buffer. Standard
// error only ever carries words about the work, never the work itself, so a write that fails
// is dropped and the work goes on: a full disk (`2>/dev/full`) loses the words and changes
// nothing else; a closed pipe (the reader went away) is remembered, so the command, once its
// outputs are finished, can end as a closed pipe ends a program (`MotusCommand.main`: SIGPIPE).

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard error, written unbuffered, each message in one write, checked.
///
///     StandardError.write("warning: 3 rows skipped\n")
///
/// SIGPIPE must be ignored (the command line does so at start) for a closed pipe to come back
/// as a failed write rather than kill the process mid-work.
public enum StandardError {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var closedPipe = false
  nonisolated(unsafe) private static var dropped = 0

  /// Writes all of `text` (UTF-8); when the write fails, the rest of `text` is dropped.
  public static func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  /// Writes all of `bytes`; when the write fails, the rest is dropped.
  public static func write(_ bytes: UnsafeRawBufferPointer) {
    lock.lock()
    defer { lock.unlock() }
    guard closedPipe || !writeAll(STDERR_FILENO, bytes) else { return }
    if errno == EPIPE { closedPipe = true }
    dropped += 1
  }

  /// Whether a write found the pipe closed (EPIPE): nobody reads standard error any more.
  public static var readerWentAway: Bool {
    lock.lock()
    defer { lock.unlock() }
    return closedPipe
  }

  /// How many messages were dropped, whole or in part, since the start.
  public static var droppedMessages: Int {
    lock.lock()
    defer { lock.unlock() }
    return dropped
  }
}
