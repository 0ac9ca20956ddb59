// A regular file read a block at a time, so a loader holds a few blocks rather than the
// whole file: peak memory follows what is kept from the rows, not the file's size.

import Foundation
import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of a file not yet handed out; `refill` drops what was used and reads more.
final class InputBlocks {
  let name: String
  private let fd: Int32
  private let limit: Int
  /// The size when opened: a small file is never given a large block.
  private let size: Int
  /// Read straight into, without clearing first (an array would be zero-filled before each
  /// read, a pass over every block on the reading thread).
  private var storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
  private var capacity = 1
  /// Bytes held, from the start of `storage`.
  private(set) var count = 0
  private(set) var atEnd = false
  /// Bytes read so far (the file may grow while it is read, as `InputFile.read` allows).
  private(set) var bytesRead = 0

  /// Opens `path` when it is a regular file (nil otherwise: streams are read whole).
  ///
  /// - Throws: `InputFileError` as `InputFile.read` would (cannot open, not data, too large).
  init?(path: String, limit: Int = Limits.inputFileBytes) throws {
    guard path != InputFile.standardInputPath, InputFile.kind(path) == .regularFile else {
      return nil
    }
    name = InputFile.displayName(path)
    let info: stat
    (fd, info) = try InputFile.openForReading(path)
    if Int(info.st_size) > limit {
      close(fd)
      throw InputFileError.tooLarge(file: name, limitBytes: limit)
    }
    self.limit = limit
    size = Int(info.st_size)
  }

  deinit {
    storage.deallocate()
    close(fd)
  }

  /// `body` on the bytes held; they stay valid until the next `refill`.
  func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try withExtendedLifetime(self) { try body(UnsafeBufferPointer(start: storage, count: count)) }
  }

  /// Drops the first `used` bytes, then reads until `minimum` bytes are held or the file ends.
  func refill(dropping used: Int, minimum: Int) throws {
    precondition(used >= 0 && used <= count, "dropping \(used) of \(count) bytes")
    if used > 0 {
      memmove(storage, storage + used, count - used)
      count -= used
    }
    // One byte beyond the expected end, so that the end is seen in this call.
    let want = min(max(minimum - count, 0), max(size - bytesRead, 0) + 1)
    guard !atEnd, want > 0 else { return }
    let target = count + want
    if target > capacity {
      let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: target)
      larger.update(from: storage, count: count)
      storage.deallocate()
      (storage, capacity) = (larger, target)
    }
    while count < target {
      let n = systemRead(fd, storage + count, target - count)
      if n < 0 && errno == EINTR { continue }
      if n < 0 {
        throw InputFileError.readFailed(file: name, reason: InputFile.lastError())
      }
      if n == 0 {
        atEnd = true
        break
      }
      count += n
      bytesRead += n
      if bytesRead > limit { throw InputFileError.tooLarge(file: name, limitBytes: limit) }
    }
  }
}
