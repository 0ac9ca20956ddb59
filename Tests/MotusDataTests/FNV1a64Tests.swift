import MotusData
import XCTest

final class FNV1a64Tests: XCTestCase {
  func testKnownVectors() {
    // The reference FNV-1a 64-bit values of "", "a" and "foobar".
    for (text, hex) in [("", "cbf29ce484222325"), ("a", "af63dc4c8601ec8c"), ("foobar", "85944171f73967e8")] {
      var h = FNV1a64()
      h.combine(bytes: Array(text.utf8))
      XCTAssertEqual(h.hex, hex, text)
    }
  }

  func testRawMemoryHashesAsItsBytes() {
    for text in ["", "a", "foobar"] {
      var h = FNV1a64()
      Array(text.utf8).withUnsafeBytes { h.combine(raw: $0) }
      var reference = FNV1a64()
      reference.combine(bytes: Array(text.utf8))
      XCTAssertEqual(h.hex, reference.hex, text)
    }
    // A prefix carries over: raw after bytes is the hash of the concatenation.
    var split = FNV1a64()
    split.combine(bytes: Array("foo".utf8))
    Array("bar".utf8).withUnsafeBytes { split.combine(raw: $0) }
    XCTAssertEqual(split.hex, "85944171f73967e8")
  }

  func testStringsAreLengthPrefixed() {
    func pair(_ a: String, _ b: String) -> String {
      var h = FNV1a64()
      h.combine(a)
      h.combine(b)
      return h.hex
    }
    XCTAssertNotEqual(pair("ab", "c"), pair("a", "bc"))
    XCTAssertEqual(pair("ab", "c"), pair("ab", "c"))
  }
}
