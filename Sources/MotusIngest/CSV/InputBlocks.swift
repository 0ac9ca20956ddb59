// A regular file read a block at a time, so a loader holds a few blocks rather than the
// whole file: peak memory follows what is kept from the rows, not the file's size. A gzip
// file is inflated on a thread of its own into a ring of one block (`InputReadAhead`), so the
// next block is inflated while this one is parsed; it costs its text and that one block.

import Foundation
import MotusData
import MotusGzip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The text of a file not yet handed out; `refill` drops what was used and reads more.
final class InputBlocks {
  let name: String
  private enum Source {
    /// Read on this thread: a text file, or gzip until its first refill.
    case direct(InputReader)
    /// gzip inflated on a thread of its own.
    case readAhead(InputReadAhead)
  }
  private var source: Source
  /// The size of the text when opened, when known: a small file is never given a large block.
  /// nil for gzip, whose text is known only by inflating it (blocks then grow by doubling).
  private let size: Int?
  /// gzip, read ahead a block: a loader gives it blocks half the size (the same memory).
  var isCompressed: Bool { size == nil }
  /// Read straight into, without clearing first (an array would be zero-filled before each
  /// read, a pass over every block on the reading thread).
  private var storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
  private var capacity = 1
  /// Bytes held, from the start of `storage`.
  private(set) var count = 0
  private(set) var atEnd = false
  /// Bytes of text read so far (the file may grow while it is read, as `InputFile.read`
  /// allows).
  private(set) var bytesRead = 0
  /// The line rule, applied to the text as it is read.
  private var lines: LineCheck

  /// Opens `path` when it is a regular file (nil otherwise: streams are read whole).
  ///
  /// - Parameter lineLimit: The longest line (`Limits.lineBytes`; tests pass less).
  /// - Throws: `InputFileError` as `InputFile.readText` would (cannot open, not data, too
  ///   large).
  init?(
    path: String, limit: Int = Limits.inputFileBytes, lineLimit: Int = Limits.lineBytes,
    blankLimit: Int = Limits.blankLineRun
  ) throws {
    guard path != InputFile.standardInputPath, InputFile.kind(path) == .regularFile else {
      return nil
    }
    let reader = try InputReader(path: path, limit: limit)
    source = .direct(reader)
    name = reader.name
    lines = LineCheck(file: reader.name, lineLimit: lineLimit, blankLimit: blankLimit)
    size = try reader.isCompressed() ? nil : Int(reader.info.st_size)
    if let size, size > limit { throw InputFileError.tooLarge(file: name, limitBytes: limit) }
  }

  deinit {
    storage.deallocate()
  }

  /// Reads the rest of a gzip file without keeping it, so that damage that garbled the text
  /// (found only by the CRC-32 at a member's end) is reported as such rather than as the bad
  /// cell it made. Nothing for a text file.
  ///
  /// - Throws: `CompressedInputError` when the rest cannot be inflated.
  func checkRest() throws {
    guard size == nil else { return }
    var scratch = [UInt8](repeating: 0, count: 1 << 16)
    try scratch.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      while try read(into: base, count: raw.count) != 0 {}
    }
  }

  /// The next text, from the read-ahead thread once one is started; nil when a signal
  /// interrupted the read.
  private func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int? {
    let n =
      switch source {
      case .direct(let reader): try reader.read(into: buffer, count: count)
      case .readAhead(let readAhead): try readAhead.read(into: buffer, count: count)
      }
    bytesRead += n ?? 0
    return n
  }

  /// For gzip: hands the reader to a thread that inflates ahead into a ring of one block, at
  /// most `readAheadBytes` (memory grows by that much), when a thread can be started.
  private func startReadingAhead(blockBytes: Int) {
    guard size == nil, case .direct(let reader) = source,
      let readAhead = InputReadAhead(
        reader, capacity: min(max(blockBytes, 1 << 16), Self.readAheadBytes))
    else { return }
    source = .readAhead(readAhead)
  }

  /// The most text read ahead. The ring overlaps inflating with parsing: it need hold only
  /// what inflating makes while one block is parsed; more (blocks grow with the cores) would
  /// hold text the parser is not ready for. At least 64 KiB: a smaller ring wakes the thread
  /// for every few bytes.
  static let readAheadBytes = 16 << 20

  /// `body` on the bytes held; they stay valid until the next `refill`.
  func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try withExtendedLifetime(self) { try body(UnsafeBufferPointer(start: storage, count: count)) }
  }

  /// Drops the first `used` bytes, then reads until `minimum` bytes are held or the file ends.
  ///
  /// - Throws: `LimitError.lineTooLong`, `.blankLines` as soon as a read passes the limit.
  func refill(dropping used: Int, minimum: Int) throws {
    precondition(used >= 0 && used <= count, "dropping \(used) of \(count) bytes")
    if used > 0 {
      memmove(storage, storage + used, count - used)
      count -= used
    }
    // One byte beyond the expected end, so that the end is seen in this call. Text of unknown
    // size is read at most 64 MiB or a doubling per call (callers call again until they have
    // what they need), so "all of the rest" never reserves the limit.
    let most = size.map { max($0 - bytesRead, 0) + 1 } ?? max(2 * capacity, 1 << 26)
    let want = min(max(minimum - count, 0), most)
    guard !atEnd, want > 0 else { return }
    startReadingAhead(blockBytes: want)
    let target = count + want
    if target > capacity {
      let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: target)
      larger.update(from: storage, count: count)
      storage.deallocate()
      (storage, capacity) = (larger, target)
    }
    while count < target {
      // nil: a signal interrupted the read; read again. At most 4 MiB a read, so that a line
      // over the limit is seen after a few megabytes of it.
      guard let n = try read(into: storage + count, count: min(target - count, 4 << 20))
      else { continue }
      if n == 0 {
        atEnd = true
        break
      }
      try lines.check(UnsafeBufferPointer(start: storage + count, count: n))
      count += n
    }
  }
}
