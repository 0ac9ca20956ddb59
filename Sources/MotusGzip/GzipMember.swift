// zlib's inflate over gzip members one after another: a file that `cat a.gz b.gz` or pigz
// made reads as the concatenation of its members' texts. The z_stream lives at a fixed
// address (zlib keeps a pointer back to it and checks it on every call).

import CZlib

/// One inflate stream, reset at each member's start.
final class GzipMember {
  private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
  /// Inside a member: its header begun, its trailer not yet read.
  private(set) var isOpen = false
  /// Members read to their end.
  private(set) var finishedCount = 0
  /// Text bytes the open member has given.
  private var produced = 0

  enum Failure: Error {
    case damaged(String)
    /// A later "member" that does not start as gzip: data appended after the last one.
    case trailingData
  }

  init() {
    stream.initialize(to: z_stream())
    let status = motus_inflate_init_gzip(stream)
    // Fails only without memory for zlib's state (a few kilobytes).
    precondition(status == Z_OK, "inflateInit2 failed with status \(status)")
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Inflates `input` into `output` as far as either goes.
  ///
  /// - Returns: Bytes of `input` consumed and of `output` written.
  /// - Throws: `Failure` for data zlib cannot inflate.
  func inflate(
    _ input: UnsafeMutableBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer
  ) throws -> (consumed: Int, written: Int) {
    guard let inputBase = input.baseAddress, let outputBase = output.baseAddress else {
      return (0, 0)
    }
    if !isOpen {
      if finishedCount > 0 { inflateReset(stream) }
      isOpen = true
      produced = 0
    }
    // zlib counts in 32 bits.
    let inputCount = min(input.count, Int(UInt32.max))
    let outputCount = min(output.count, Int(UInt32.max))
    stream.pointee.next_in = inputBase
    stream.pointee.avail_in = UInt32(inputCount)
    stream.pointee.next_out = outputBase.assumingMemoryBound(to: UInt8.self)
    stream.pointee.avail_out = UInt32(outputCount)
    let status = CZlib.inflate(stream, Z_NO_FLUSH)
    let consumed = inputCount - Int(stream.pointee.avail_in)
    let written = outputCount - Int(stream.pointee.avail_out)
    produced += written
    switch status {
    case Z_OK, Z_BUF_ERROR:
      break
    case Z_STREAM_END:
      isOpen = false
      finishedCount += 1
    default:
      let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
      if finishedCount > 0 && produced == 0 && reason == "incorrect header check" {
        throw Failure.trailingData
      }
      throw Failure.damaged(reason)
    }
    return (consumed, written)
  }
}
