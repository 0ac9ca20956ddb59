// The wire format against the protobuf encoding guide's own examples.

import XCTest

@testable import MotusExport

final class ProtobufWriterTests: XCTestCase {
  func testVarint_MatchesTheEncodingGuide() {
    XCTAssertEqual(ProtobufWriter.varint(1), [0x01])
    XCTAssertEqual(ProtobufWriter.varint(150), [0x96, 0x01])
    XCTAssertEqual(ProtobufWriter.varint(300), [0xac, 0x02])
    XCTAssertEqual(ProtobufWriter.varint(UInt64.max).count, 10)
  }

  func testFields_CarryKeyWireTypeAndLength() {
    var w = ProtobufWriter()
    w.int(1, 150)  // the guide's "Test1 { a: 150 }"
    XCTAssertEqual(w.bytes, [0x08, 0x96, 0x01])
    w = ProtobufWriter()
    w.string(2, "testing")  // "Test2 { b: "testing" }"
    XCTAssertEqual(w.bytes, [0x12, 0x07] + Array("testing".utf8))
    w = ProtobufWriter()
    w.message(3) { $0.int(1, 150) }  // "Test3 { c: { a: 150 } }"
    XCTAssertEqual(w.bytes, [0x1a, 0x03, 0x08, 0x96, 0x01])
    w = ProtobufWriter()
    w.int(1, -1)  // negative int64: ten bytes of two's complement
    XCTAssertEqual(w.bytes, [0x08] + [UInt8](repeating: 0xff, count: 9) + [0x01])
    w = ProtobufWriter()
    w.float(2, 1)  // fixed32, little-endian
    XCTAssertEqual(w.bytes, [0x15, 0x00, 0x00, 0x80, 0x3f])
  }
}
