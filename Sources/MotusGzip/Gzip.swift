// gzip's writing side, for tests, fuzzing and benchmarks, which need compressed copies of
// their inputs. Motus itself never writes compressed files.

import CZlib

/// gzip compression of bytes in memory.
public enum Gzip {
  /// `bytes` as one gzip member.
  ///
  /// - Parameter level: zlib's level, 1 (fastest) to 9 (smallest); 6 is gzip's default.
  public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
      deflateEnd(stream)
      stream.deinitialize(count: 1)
      stream.deallocate()
    }
    precondition(bytes.count < Int(UInt32.max), "\(bytes.count) bytes: zlib counts in 32 bits")
    let status = motus_deflate_init_gzip(stream, level)
    precondition(status == Z_OK, "deflateInit2 failed with status \(status)")
    var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(bytes.count))) + 32)
    var input = bytes
    let written = input.withUnsafeMutableBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target -> Int in
        stream.pointee.next_in = source.baseAddress
        stream.pointee.avail_in = UInt32(source.count)
        stream.pointee.next_out = target.baseAddress
        stream.pointee.avail_out = UInt32(target.count)
        let end = deflate(stream, Z_FINISH)
        precondition(end == Z_STREAM_END, "deflate stopped with status \(end)")
        return target.count - Int(stream.pointee.avail_out)
      }
    }
    output.removeSubrange(written...)
    return output
  }
}
