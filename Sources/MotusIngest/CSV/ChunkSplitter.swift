import Foundation
import MotusData

enum ChunkSplitter {
  /// Chunk size: large enough that the per-chunk work is negligible, small enough that a
  /// batch of chunks in flight stays a small part of a large file. Tests lower it to cut
  /// small files into many chunks (they run one at a time).
  nonisolated(unsafe) static var chunkBytes = 8 << 20

  /// Cuts `start..<count` just after line feeds into pieces of about `chunkBytes`; one
  /// piece when a quote may hide a line end inside a field.
  static func split(
    _ base: UnsafePointer<UInt8>, start: Int, count: Int, firstLine: Int,
    chunkBytes: Int = chunkBytes
  ) -> [Range<Int>] {
    let length = count - start
    guard length > 2 * chunkBytes,
      memchr(base + start, Int32(UInt8(ascii: "\"")), length) == nil
    else { return [start..<count] }
    var pieces: [Range<Int>] = []
    var from = start
    while count - from > chunkBytes + chunkBytes / 2 {
      let probe = from + chunkBytes
      guard let hit = memchr(base + probe, Int32(UInt8(ascii: "\n")), count - probe) else { break }
      let cut = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
      pieces.append(from..<cut)
      from = cut
    }
    pieces.append(from..<count)
    return pieces
  }

  /// Line ends in `range` as the scanner counts them: LF, CRLF and a lone CR.
  static func lineEnds(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Int {
    var ends = 0
    var p = range.lowerBound
    while p < range.upperBound,
      let hit = memchr(base + p, Int32(UInt8(ascii: "\n")), range.upperBound - p)
    {
      ends += 1
      p = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
    }
    guard memchr(base + range.lowerBound, 0x0D, range.count) != nil else { return ends }
    for i in range where base[i] == 0x0D {
      if i + 1 >= range.upperBound || base[i + 1] != UInt8(ascii: "\n") { ends += 1 }
    }
    return ends
  }
}
