// A regular file read a block at a time, so a loader holds a few blocks rather than the
// whole file: peak memory follows what is kept from the rows, not the file's size.

import Foundation

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
  private(set) var buffer: [UInt8] = []
  private(set) var atEnd = false
  /// Bytes read so far (the file may grow while it is read, as `InputFile.read` allows).
  private(set) var bytesRead = 0

  /// Opens `path` when it is a regular file (nil otherwise: streams are read whole).
  ///
  /// - Throws: `InputFileError` as `InputFile.read` would (cannot open, too large).
  init?(path: String, limit: Int = Limits.inputFileBytes) throws {
    guard path != InputFile.standardInputPath, InputFile.kind(path) == .regularFile else {
      return nil
    }
    name = InputFile.displayName(path)
    fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw InputFileError.cannotOpen(file: name, reason: InputFile.lastError()) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      close(fd)
      throw InputFileError.cannotOpen(file: name, reason: InputFile.lastError())
    }
    if Int(info.st_size) > limit {
      close(fd)
      throw InputFileError.tooLarge(file: name, limitBytes: limit)
    }
    self.limit = limit
    size = Int(info.st_size)
  }

  deinit { close(fd) }

  /// Drops the first `used` bytes of `buffer`, then reads until it holds `minimum` bytes or
  /// the file ends.
  func refill(dropping used: Int, minimum: Int) throws {
    buffer.removeSubrange(0..<used)
    // One byte beyond the expected end, so that the end is seen in this call.
    let want = min(max(minimum - buffer.count, 0), max(size - bytesRead, 0) + 1)
    guard !atEnd, want > 0 else { return }
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: want))
    var count = old
    while count < buffer.count {
      let n = buffer.withUnsafeMutableBytes { raw in
        systemRead(fd, raw.baseAddress! + count, raw.count - count)
      }
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
    buffer.removeSubrange(count..<buffer.count)
  }
}
