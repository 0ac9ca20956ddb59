// Reads a file or standard input one line at a time as it arrives, so `motus stream` works
// behind a pipe, a FIFO or `tail -f`; gzip input is inflated as it arrives (`InputReader`),
// and a gzip file on a thread of its own (`InputReadAhead`), beside the stream's work.
// Lines are bounded by the rule every reader follows (`LineCheck`): input without line ends
// (/dev/zero, a binary file) is an error after `Limits.lineBytes`, never a buffer that grows
// to gigabytes, and more than `Limits.blankLineRun` blank lines in a row is an error too.

import Foundation
import Motus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class LineReader {
  /// Longest line accepted (`Limits.lineBytes`; tests pass less).
  let maximumLineBytes: Int
  /// Most blank lines in a row (`Limits.blankLineRun`; tests pass less).
  let blankLimit: Int
  /// Blank lines in a row just returned.
  private var blankRun = 0

  /// Text read ahead for a gzip file: a ring of this many bytes (memory the stream adds).
  static let readAheadBytes = 1 << 20

  let name: String
  private let readText: (UnsafeMutableRawPointer, Int) throws -> Int?
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)
  private var start = 0
  private var end = 0
  private var atEnd = false
  /// Lines returned so far.
  private(set) var lineCount = 0

  /// `path` `-` reads standard input; `displayName` names it in messages (default: the path).
  init(
    path: String, displayName: String? = nil, lineLimit: Int = Limits.lineBytes,
    blankLimit: Int = Limits.blankLineRun
  ) throws {
    name = displayName ?? InputFile.displayName(path)
    maximumLineBytes = lineLimit
    self.blankLimit = blankLimit
    // The one opening rule of every input (folders, disks, /proc files refused).
    let reader = try InputReader(path: path, limit: Int.max)
    // Only a file: a pipe may wait for ever, and the thread must end when the stream does.
    if reader.isRegularFile, try reader.isCompressed(),
      let readAhead = InputReadAhead(reader, capacity: Self.readAheadBytes)
    {
      readText = { try readAhead.read(into: $0, count: $1) }
    } else {
      readText = { try reader.read(into: $0, count: $1) }
    }
  }

  /// Called before each read that may wait for input: what was produced from the input so
  /// far is flushed then, so output keeps pace behind a pipe yet is written in blocks.
  var beforeRead: (() -> Void)?

  /// The next line's bytes without its line end; nil at the end of input or when a signal
  /// asked the stream to finish.
  ///
  /// - Throws: `LimitError.lineTooLong` for a line longer than `maximumLineBytes`,
  ///   `.blankLines` past `blankLimit` blank lines in a row, `ToolError` for a read error.
  func next() throws -> [UInt8]? {
    try nextLine { Array($0) }
  }

  /// Calls `body` with the next line's bytes (without its line end, valid only during the
  /// call): no copy per line. nil at the end of input or when a signal asked the stream to end.
  func nextLine<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
    while true {
      if let newline = findNewline() { return try take(upTo: newline, skipping: 1, body) }
      if atEnd {
        guard start < end else { return nil }
        return try take(upTo: end, skipping: 0, body)
      }
      // More than the limit, and a CR that may end a CRLF: the line is too long.
      if end - start > maximumLineBytes + 1 {
        throw LimitError.lineTooLong(
          file: name, line: lineCount + 1, limitBytes: maximumLineBytes,
          binary: buffer[start..<end].contains(0))
      }
      if try !fill() { return nil }
    }
  }

  /// Index of the first line feed in the unread bytes.
  private func findNewline() -> Int? {
    buffer.withUnsafeBufferPointer { b -> Int? in
      guard let base = b.baseAddress, start < end,
        let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start)
      else { return nil }
      return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// Reads more input after the unread bytes; false when a signal asked the stream to end.
  private func fill() throws -> Bool {
    // Make room: move the partial line to the front, grow only while a line needs it.
    if start > 0 {
      buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
      end -= start
      start = 0
    }
    if end == buffer.count {
      buffer += [UInt8](repeating: 0, count: min(buffer.count, maximumLineBytes + 2))
    }
    while true {
      beforeRead?()
      if Interruption.requested != nil { return false }
      let read: Int?
      do {
        read = try buffer.withUnsafeMutableBytes { raw -> Int? in
          guard let base = raw.baseAddress else { return 0 }
          return try readText(base + end, raw.count - end)
        }
      } catch InputFileError.readFailed(_, let reason) {
        throw ToolError(
          "\(name): cannot read (\(reason)).", hint: "check the file or the pipe feeding it.")
      } catch var error as CompressedInputError {
        error.file = name
        throw error
      }
      // nil: a signal interrupted the wait; look at the request again.
      guard let n = read else { continue }
      if n == 0 { atEnd = true }
      end += n
      return true
    }
  }

  private func take<R>(
    upTo lineEnd: Int, skipping: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) throws -> R {
    var stop = lineEnd
    if stop > start, buffer[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
    let first = start
    start = lineEnd + skipping
    lineCount += 1
    if stop - first > maximumLineBytes {
      throw LimitError.lineTooLong(
        file: name, line: lineCount, limitBytes: maximumLineBytes,
        binary: buffer[first..<stop].contains(0))
    }
    blankRun = stop == first ? blankRun + 1 : 0
    if blankRun > blankLimit {
      throw LimitError.blankLines(file: name, line: lineCount, limit: blankLimit)
    }
    return try buffer.withUnsafeBufferPointer { b in
      try body(UnsafeBufferPointer(rebasing: b[first..<stop]))
    }
  }
}
