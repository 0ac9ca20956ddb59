// Raw Snappy decompression (the block format of github.com/google/snappy, format_description.txt),
// which Parquet's SNAPPY codec uses for each page: a varint length, then literals and copies of
// earlier output. Every length and offset is checked, and the output must be exactly the length
// the page declares, so a hostile page cannot write past its buffer or grow without bound.

/// Decompresses raw Snappy blocks.
enum Snappy {
  /// Why a block is not valid Snappy.
  struct Failure: Error {
    var reason: String
  }

  /// Most output bytes one input byte can make: a 3-byte copy makes at most 64.
  static let expansionLimit = 22

  /// The `expectedCount` bytes `input` decompresses to.
  ///
  /// - Throws: `Failure` when the block's own length is not `expectedCount`, or a literal or
  ///   copy runs past the input or the output, or a copy reaches before the output's start.
  static func decompress(_ input: ArraySlice<UInt8>, expectedCount: Int) throws -> [UInt8] {
    var block = Block(input)
    let declared = try block.declaredLength()
    guard declared == expectedCount else {
      throw Failure(
        reason: "the snappy block holds \(declared) bytes where the page declares \(expectedCount)")
    }
    guard expectedCount <= input.count * expansionLimit else {
      throw Failure(reason: "\(expectedCount) bytes cannot come from \(input.count) snappy bytes")
    }
    var output = [UInt8]()
    output.reserveCapacity(expectedCount)
    while !block.atEnd {
      let tag = try block.next()
      if tag & 3 == 0 {
        try block.literal(tag: tag, into: &output, limit: expectedCount)
      } else {
        try block.copy(tag: tag, into: &output, limit: expectedCount)
      }
    }
    guard output.count == expectedCount else {
      throw Failure(
        reason: "the snappy block makes \(output.count) bytes where it declares \(expectedCount)")
    }
    return output
  }

  /// The compressed bytes not yet read.
  private struct Block {
    let input: ArraySlice<UInt8>
    var position: Int

    init(_ input: ArraySlice<UInt8>) {
      self.input = input
      position = input.startIndex
    }

    var atEnd: Bool { position >= input.endIndex }

    mutating func next() throws -> UInt8 {
      guard position < input.endIndex else {
        throw Failure(reason: "the snappy block ends inside a tag")
      }
      defer { position += 1 }
      return input[position]
    }

    /// The preamble: the uncompressed length, a varint of at most 5 bytes (32 bits).
    mutating func declaredLength() throws -> Int {
      var declared = 0
      for k in 0..<5 {
        let b = try next()
        declared |= Int(b & 0x7F) << (7 * k)
        if b & 0x80 == 0 { break }
        if k == 4 { throw Failure(reason: "the snappy length is longer than 5 bytes") }
      }
      return declared
    }

    /// A literal (tag kind 0): bytes of the block copied to the output.
    mutating func literal(tag: UInt8, into output: inout [UInt8], limit expectedCount: Int)
      throws
    {
      var length = Int(tag >> 2) + 1
      if length > 60 {
        // 61...64: the length less one follows in 1...4 little-endian bytes.
        var extended = 0
        for k in 0..<(length - 60) { extended |= Int(try next()) << (8 * k) }
        length = extended + 1
      }
      guard length <= input.endIndex - position else {
        throw Failure(reason: "a snappy literal of \(length) bytes runs past the block")
      }
      guard length <= expectedCount - output.count else {
        throw Failure(reason: "a snappy literal runs past the declared \(expectedCount) bytes")
      }
      output.append(contentsOf: input[position..<(position + length)])
      position += length
    }

    /// A copy (tag kinds 1-3): bytes the output already holds, `offset` back, repeated.
    mutating func copy(tag: UInt8, into output: inout [UInt8], limit expectedCount: Int) throws {
      let length: Int
      var offset: Int
      switch tag & 3 {
      case 1:
        length = 4 + Int((tag >> 2) & 7)
        offset = Int(tag >> 5) << 8 | Int(try next())
      case 2:
        length = Int(tag >> 2) + 1
        offset = Int(try next()) | Int(try next()) << 8
      default:
        length = Int(tag >> 2) + 1
        offset = 0
        for k in 0..<4 { offset |= Int(try next()) << (8 * k) }
      }
      guard offset > 0, offset <= output.count else {
        throw Failure(
          reason: "a snappy copy from \(offset) bytes back where \(output.count) are written")
      }
      guard length <= expectedCount - output.count else {
        throw Failure(reason: "a snappy copy runs past the declared \(expectedCount) bytes")
      }
      // Byte by byte: a copy may overlap what it writes (a run).
      var from = output.count - offset
      for _ in 0..<length {
        output.append(output[from])
        from += 1
      }
    }
  }
}
