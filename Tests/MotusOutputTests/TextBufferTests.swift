// The byte formatter behind `motus features` and `motus stream` prints exactly what
// Foundation's %.Nf and Swift's description print, ties and edge values included.

import Foundation
@testable import MotusOutput
import XCTest

@testable import MotusData

final class TextBufferTests: XCTestCase {
  private func fixed(_ x: Double, _ digits: Int) -> String {
    var buffer = TextBuffer()
    buffer.append(x, fractionDigits: digits)
    return String(decoding: buffer.bytes, as: UTF8.self)
  }

  func testFixedDigitsMatchPrintf() {
    var generator = SplitMix64(seed: 24301)  // seeded: a failure replays
    var values: [Double] = [
      0, -0.0, 1, -1, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 0.0005, 0.00005, 0.99995, 9.9995,
      123.4565, 1e-9, -1e-9, 1e14, 9.99e14, 2e15, -3.7e20, .nan, .infinity, -.infinity,
      Double(Float(0.12345)), Double(Float(0.99996)), 4.0005, 5.12, 1234567.8915,
    ]
    for _ in 0..<20_000 {
      values.append(Double.random(in: -1000...1000, using: &generator))
      values.append(Double(Float.random(in: 0...1, using: &generator)))
      // Exact ties at 3 and 4 digits: k / 2000 and k / 20000.
      values.append(Double(Int.random(in: -100_000...100_000, using: &generator)) / 2000)
      values.append(Double(Int.random(in: -100_000...100_000, using: &generator)) / 20000)
    }
    for x in values {
      for digits in [0, 3, 4] {
        XCTAssertEqual(fixed(x, digits), String(format: "%.\(digits)f", x), "\(x), \(digits) digits")
      }
    }
  }

  func testFloatAndDoubleTextAsInterpolation() {
    var generator = SplitMix64(seed: 24302)  // seeded: a failure replays
    for _ in 0..<10_000 {
      let f = Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &generator))
      let d = Double.random(in: -1e6...1e6, using: &generator)
      var buffer = TextBuffer()
      buffer.append(f)
      buffer.append(UInt8(ascii: ","))
      buffer.append(d)
      XCTAssertEqual(String(decoding: buffer.bytes, as: UTF8.self), "\(f),\(d)")
    }
  }
}
