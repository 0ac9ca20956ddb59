// CRC-32 as zlib computes it (the polynomial of gzip, PNG and Parquet's page checksums), for
// readers outside this module, which alone imports zlib.

import CZlib

/// zlib's `crc32` over a run of bytes.
public enum CRC32 {
  /// The CRC-32 of `bytes` (0 for none), as zlib, Python's `zlib.crc32` and Java's
  /// `java.util.zip.CRC32` give it.
  public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer { buffer in
      var crc = crc32(0, nil, 0)
      var start = buffer.baseAddress
      var remaining = buffer.count
      // zlib takes a 32-bit length: a longer run goes in pieces.
      while let pointer = start, remaining > 0 {
        let piece = min(remaining, 1 << 30)
        crc = crc32(crc, pointer, uInt(piece))
        start = pointer + piece
        remaining -= piece
      }
      return UInt32(truncatingIfNeeded: crc)
    }
  }
}
