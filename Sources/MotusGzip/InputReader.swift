// One input read in pieces as it comes, whether it is text or gzip-compressed text: gzip is
// recognised by its first two bytes (1f 8b), never by the name, so a pipe, standard input or a
// file named anything reads the same way. Compressed input is inflated into the caller's
// buffer as it is read, never whole; the text is held to the same limit as a file's bytes, so
// a gzip bomb is an error, not an allocation. Opening goes through `InputFile.openForReading`,
// so a compressed file meets every rule a text file meets.

import CZlib
import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The text of a file, pipe or standard input, inflated when it is gzip.
public final class InputReader {
  /// The path as given (`<stdin>` for `-`), as errors name it.
  public let name: String
  /// `fstat` of the open input.
  public let info: stat
  private let descriptor: Int32
  private let limit: Int
  /// nil until the first bytes have been looked at.
  private var member: GzipMember?
  private var isSniffed = false
  /// Bytes read from the input and not yet handed out (or inflated).
  private let pending: UnsafeMutablePointer<UInt8>
  private let pendingCapacity = 1 << 16
  private var pendingStart = 0
  private var pendingEnd = 0
  private var sourceEnded = false
  private var lineFeeds = 0
  /// Bytes read from the input (compressed bytes, for gzip).
  public private(set) var sourceBytesRead = 0
  /// Bytes of text handed out.
  public private(set) var bytesRead = 0

  /// Opens `path` (`-` is standard input) by `InputFile.openForReading`'s rules.
  ///
  /// - Parameter limit: Most bytes of text accepted; more is an error, not an allocation.
  /// - Throws: `InputFileError` naming the file, with the reason.
  public init(path: String, limit: Int = Limits.inputFileBytes) throws {
    name = InputFile.displayName(path)
    (descriptor, info) = try InputFile.openForReading(path)
    self.limit = limit
    pending = .allocate(capacity: pendingCapacity)
  }

  deinit {
    member = nil
    pending.deallocate()
    if descriptor != 0 { close(descriptor) }
  }

  public var isRegularFile: Bool { info.st_mode & S_IFMT == S_IFREG }

  /// Whether the input is gzip; reads its first two bytes (waiting for them on a pipe).
  ///
  /// - Throws: `InputFileError.readFailed`.
  public func isCompressed() throws -> Bool {
    while !isSniffed { _ = try sniff() }
    return member != nil
  }

  /// The size of the text, when it can be known before reading: a text file's size; for a
  /// gzip file, the size its last member's trailer records (exact for one member under
  /// 4 GiB), never more than deflate's largest ratio allows. 0 for pipes.
  public func expectedSize() throws -> Int {
    guard isRegularFile else { return 0 }
    let size = Int(info.st_size)
    guard try isCompressed() else { return size }
    guard size >= 18 else { return 0 }
    var trailer: UInt32 = 0
    guard pread(descriptor, &trailer, 4, off_t(size - 4)) == 4 else { return 0 }
    // deflate writes at most 1032 bytes of text per byte.
    return min(Int(UInt32(littleEndian: trailer)), size * 1032)
  }

  /// Reads up to `count` bytes of text into `buffer`, as `read(2)` does.
  ///
  /// - Returns: The bytes written, 0 at the end of the input, nil when a signal interrupted
  ///   the wait for input before any arrived (call again, or stop).
  /// - Throws: `InputFileError` (a read error; text beyond the limit),
  ///   `CompressedInputError` (gzip cut short, damaged, followed by other bytes, or inflating
  ///   beyond the limit).
  public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int? {
    precondition(count > 0, "a read of \(count) bytes")
    if !isSniffed {
      guard try sniff() else { return nil }
    }
    let written: Int?
    if let member {
      written = try inflate(member, into: buffer, count: count)
    } else {
      written = try copy(into: buffer, count: count)
    }
    guard let written else { return nil }
    bytesRead += written
    if bytesRead > limit {
      if member == nil { throw InputFileError.tooLarge(file: name, limitBytes: limit) }
      throw failure(.tooLarge(limitBytes: limit))
    }
    return written
  }

  /// Looks at the first two bytes; false when a signal interrupted the wait for them.
  private func sniff() throws -> Bool {
    while pendingEnd < 2 && !sourceEnded {
      guard try readSource() else { return false }
    }
    if pendingEnd >= 2 && pending[0] == 0x1F && pending[1] == 0x8B { member = GzipMember() }
    isSniffed = true
    return true
  }

  /// Reads more of the input after the pending bytes; false when a signal interrupted it.
  private func readSource() throws -> Bool {
    if pendingStart == pendingEnd { (pendingStart, pendingEnd) = (0, 0) }
    let n = systemRead(descriptor, pending + pendingEnd, pendingCapacity - pendingEnd)
    if n < 0 {
      if errno == EINTR { return false }
      throw InputFileError.readFailed(file: name, reason: InputFile.lastError())
    }
    if n == 0 { sourceEnded = true }
    pendingEnd += n
    sourceBytesRead += n
    return true
  }

  /// Text input: the pending bytes first, then straight from the input.
  private func copy(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int? {
    if pendingStart < pendingEnd {
      let n = min(count, pendingEnd - pendingStart)
      buffer.copyMemory(from: pending + pendingStart, byteCount: n)
      pendingStart += n
      return n
    }
    if sourceEnded { return 0 }
    let n = systemRead(descriptor, buffer, count)
    if n < 0 {
      if errno == EINTR { return nil }
      throw InputFileError.readFailed(file: name, reason: InputFile.lastError())
    }
    if n == 0 { sourceEnded = true }
    sourceBytesRead += n
    return n
  }

  /// gzip input: inflates pending bytes, reading more, until some text comes out or the input
  /// ends (between members: the end; inside one: cut short).
  private func inflate(_ member: GzipMember, into buffer: UnsafeMutableRawPointer, count: Int)
    throws -> Int?
  {
    while true {
      if pendingStart == pendingEnd {
        if sourceEnded {
          if member.isOpen { throw failure(.truncated) }
          return 0
        }
        guard try readSource() else { return nil }
        continue
      }
      let step: (consumed: Int, written: Int)
      do {
        step = try member.inflate(
          UnsafeMutableBufferPointer(
            start: pending + pendingStart, count: pendingEnd - pendingStart),
          into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
      } catch GzipMember.Failure.damaged(let reason) {
        throw failure(.damaged(reason: reason))
      } catch GzipMember.Failure.trailingData {
        throw failure(.trailingData)
      }
      pendingStart += step.consumed
      if step.consumed == 0 && step.written == 0 && member.isOpen {
        // zlib always moves with input and room for output; never spin.
        throw failure(.damaged(reason: "inflate made no progress"))
      }
      guard step.written > 0 else { continue }
      countLineFeeds(UnsafeRawBufferPointer(start: buffer, count: step.written))
      return step.written
    }
  }

  /// memchr from one line feed to the next: a vector scan, where a loop over the bytes took
  /// a sixth of inflate's own time.
  private func countLineFeeds(_ text: UnsafeRawBufferPointer) {
    guard let base = text.baseAddress else { return }
    var found = 0
    var at = 0
    while at < text.count, let hit = memchr(base + at, Int32(UInt8(ascii: "\n")), text.count - at) {
      found += 1
      at = base.distance(to: UnsafeRawPointer(hit)) + 1
    }
    lineFeeds += found
  }

  private func failure(_ problem: CompressedInputError.Problem) -> CompressedInputError {
    CompressedInputError(
      file: name, problem: problem, line: lineFeeds + 1,
      compressedOffset: sourceBytesRead - (pendingEnd - pendingStart))
  }
}
