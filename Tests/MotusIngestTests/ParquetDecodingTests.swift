// The parts of the Parquet reader a hostile file reaches first, on hand-made bytes: raw Snappy,
// the RLE / bit-packed hybrid and Thrift's compact protocol.

@testable import MotusIngest
import XCTest

final class ParquetDecodingTests: XCTestCase {
  func testSnappy_LiteralsAndOverlappingCopies() throws {
    // "abcabcabca": a literal of 3, then a copy of 7 from 3 back (it overlaps what it writes).
    let block: [UInt8] = [10, 2 << 2, 97, 98, 99, 1 | (7 - 4) << 2, 3]
    XCTAssertEqual(
      try Snappy.decompress(block[...], expectedCount: 10), Array("abcabcabca".utf8))
  }

  func testSnappy_BadOffsetsLengthsAndSizesAreFailures() {
    let cases: [([UInt8], Int, String)] = [
      ([10, 2 << 2, 97, 98, 99, 1 | (7 - 4) << 2, 4], 10, "4 bytes back where 3"),
      ([10, 2 << 2, 97, 98, 99, 1 | (7 - 4) << 2, 0], 10, "0 bytes back"),
      ([4, 2 << 2, 97, 98, 99, 1 | (7 - 4) << 2, 3], 4, "past the declared 4"),
      ([10, 2 << 2, 97, 98, 99], 10, "makes 3 bytes where it declares 10"),
      ([3, 9 << 2, 97], 3, "literal of 10 bytes runs past"),
      ([9, 2 << 2, 97, 98, 99], 10, "holds 9 bytes where the page declares 10"),
      ([0x80, 0x80, 0x80, 0x80, 0x80, 1], 1, "longer than 5 bytes"),
      ([0xFF, 0xFF, 0x7F, 0], 0x1F_FFFF, "cannot come from 4 snappy bytes"),
    ]
    for (block, count, reason) in cases {
      XCTAssertThrowsError(try Snappy.decompress(block[...], expectedCount: count)) { error in
        let text = (error as? Snappy.Failure)?.reason ?? "\(error)"
        XCTAssertTrue(text.contains(reason), "\(block): \(text)")
      }
    }
  }

  func testHybrid_RunsAndBitPackedGroupsGiveExactlyTheCountAskedFor() throws {
    // A run of 5 ones, then one bit-packed group of 8: 0b1010_0110 -> 0,1,1,0,0,1,0,1.
    let bytes: [UInt8] = [5 << 1, 1, 1 << 1 | 1, 0b1010_0110]
    var decoder = try RLEBitPackedDecoder(bytes, from: 0, to: bytes.count, bitWidth: 1)
    XCTAssertEqual(try decoder.decode(count: 11), [1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1])
    // A run claiming 2^62 values and a width-0 group claiming 2^62 groups give what is asked.
    let huge: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]
    var runs = try RLEBitPackedDecoder(huge + [0], from: 0, to: 11, bitWidth: 1)
    XCTAssertEqual(try runs.decode(count: 3), [0, 0, 0])
    var groups = try RLEBitPackedDecoder(
      [0x81] + huge.dropFirst(), from: 0, to: 10, bitWidth: 0)
    XCTAssertEqual(try groups.decode(count: 4), [0, 0, 0, 0])
    var short = try RLEBitPackedDecoder([3, 0xFF], from: 0, to: 2, bitWidth: 4)
    XCTAssertThrowsError(try short.decode(count: 8))
    var wide = try RLEBitPackedDecoder([2, 2], from: 0, to: 2, bitWidth: 1)
    XCTAssertThrowsError(try wide.decode(count: 1))
    XCTAssertThrowsError(try RLEBitPackedDecoder([], from: 0, to: 0, bitWidth: 33))
  }

  func testThrift_DeepNestingLongVarintsAndHugeListsAreFailuresNotCrashes() {
    // Structs nested 10,000 deep (field 1 of type struct, again and again).
    let deep = [UInt8](repeating: 0x1C, count: 10_000)
    var reader = ThriftCompactReader(deep, from: 0, to: deep.count)
    XCTAssertThrowsError(try reader.skip(.structure)) { error in
      XCTAssertTrue("\((error as? ThriftCompactReader.Failure)?.reason ?? "")".contains("nested"))
    }
    let varint = [UInt8](repeating: 0x80, count: 11)
    var long = ThriftCompactReader(varint, from: 0, to: varint.count)
    XCTAssertThrowsError(try long.varint())
    // A list of 2^32 i32s in 6 bytes.
    let list: [UInt8] = [0xF5, 0x80, 0x80, 0x80, 0x80, 0x10]
    var huge = ThriftCompactReader(list, from: 0, to: list.count)
    XCTAssertThrowsError(try huge.skip(.list))
    // A map of 2^30 entries.
    let map: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x04, 0x55]
    var entries = ThriftCompactReader(map, from: 0, to: map.count)
    XCTAssertThrowsError(try entries.skip(.map))
    // Unknown fields of every type are skipped: i32 5, a string, a list of bools, a map, a
    // double, then the struct's end.
    let fields: [UInt8] =
      [0x15, 0x0A, 0x18, 0x02, 0x61, 0x62, 0x19, 0x21, 0x01, 0x1B, 0x01, 0x55, 0x02, 0x04]
      + [0x17] + [UInt8](repeating: 0, count: 8) + [0x00]
    var known = ThriftCompactReader(fields, from: 0, to: fields.count)
    XCTAssertNoThrow(try known.skip(.structure))
    XCTAssertEqual(known.remaining, 0)
  }
}
