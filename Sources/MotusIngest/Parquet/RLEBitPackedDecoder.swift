// Parquet's RLE / bit-packed hybrid (Encodings.md): runs of one repeated value and groups of
// eight bit-packed values, each behind a varint header. Definition levels and dictionary
// indices use it. A run may claim more values than are left; only those asked for are made,
// so the output is exactly the count asked for or an error.

/// Decodes hybrid-encoded unsigned values of `bitWidth` bits from `bytes[position..<end]`.
struct RLEBitPackedDecoder {
  struct Failure: Error {
    var reason: String
  }

  let bytes: [UInt8]
  private var position: Int
  let end: Int
  let bitWidth: Int

  init(_ bytes: [UInt8], from start: Int, to end: Int, bitWidth: Int) throws {
    guard (0...32).contains(bitWidth) else {
      throw Failure(reason: "a bit width of \(bitWidth) (at most 32)")
    }
    self.bytes = bytes
    self.position = start
    self.end = end
    self.bitWidth = bitWidth
  }

  /// The next `count` values.
  mutating func decode(count: Int) throws -> [UInt32] {
    var values = [UInt32]()
    values.reserveCapacity(count)
    while values.count < count {
      let header = try varint()
      let wanted = count - values.count
      if header & 1 == 0 {
        // A run: the value in ceil(bitWidth / 8) little-endian bytes.
        let width = (bitWidth + 7) / 8
        guard width <= end - position else { throw Failure(reason: "a run past the data's end") }
        var value: UInt32 = 0
        for k in 0..<width { value |= UInt32(bytes[position + k]) << UInt32(8 * k) }
        position += width
        guard bitWidth == 32 || value >> UInt32(bitWidth) == 0 else {
          throw Failure(reason: "a run of \(value), wider than \(bitWidth) bits")
        }
        let length = header >> 1
        values.append(
          contentsOf: repeatElement(value, count: Int(min(length, UInt64(wanted)))))
      } else {
        // Groups of eight values, bitWidth bytes each, least significant bit first.
        let groups = header >> 1
        let available = UInt64(end - position)
        guard bitWidth == 0 || groups <= available / UInt64(bitWidth) else {
          throw Failure(reason: "\(groups) bit-packed groups past the data's end")
        }
        let made = Int(min(min(groups, UInt64(wanted)) * 8, UInt64(wanted)))
        let start = position
        var bit = 0
        for _ in 0..<made {
          var value: UInt64 = 0
          var taken = 0
          while taken < bitWidth {
            let byte = UInt64(bytes[start + (bit >> 3)])
            let offset = bit & 7
            let take = min(8 - offset, bitWidth - taken)
            value |= ((byte >> UInt64(offset)) & ((1 << UInt64(take)) - 1)) << UInt64(taken)
            taken += take
            bit += take
          }
          values.append(UInt32(truncatingIfNeeded: value))
        }
        if bitWidth > 0 { position = start + Int(groups) * bitWidth }
      }
    }
    return values
  }

  private mutating func varint() throws -> UInt64 {
    var result: UInt64 = 0
    for k in 0..<10 {
      guard position < end else { throw Failure(reason: "the values end after a partial run") }
      let b = bytes[position]
      position += 1
      result |= UInt64(b & 0x7F) << UInt64(7 * k)
      if b & 0x80 == 0 { return result }
    }
    throw Failure(reason: "a run header longer than 10 bytes")
  }
}
