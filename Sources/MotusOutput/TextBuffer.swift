// Bytes of text built up in memory and written in large blocks: `motus features` and
// `motus stream` format hundreds of thousands of numbers, and a String per number or a write
// per line would cost more than computing them. Every number prints exactly the text the
// Foundation or Swift formatting it replaces would print (pinned by GoldenOutputTests).

import Foundation

public struct TextBuffer: Sendable {
  public private(set) var bytes: [UInt8] = []

  public init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

  public var count: Int { bytes.count }
  public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  public mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  public mutating func append(_ byte: UInt8) { bytes.append(byte) }
  public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }

  public mutating func append(_ value: Int) {
    if value >= 0 && value < 10 {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
    } else {
      append(String(value))
    }
  }

  /// The text `"\(value)"` prints: the shortest that reads back as the same Float (and a
  /// NaN's payload, as interpolation shows it).
  public mutating func append(_ value: Float) { value.write(to: &self) }

  /// The text `"\(value)"` prints.
  public mutating func append(_ value: Double) { value.write(to: &self) }

  /// The text of `String(format: "%.<digits>f", value)`.
  ///
  /// `value * 10^digits` is rounded to the nearest integer; where that product might be a
  /// rounding tie or too large to be exact, printf itself decides.
  public mutating func append(_ value: Double, fractionDigits digits: Int) {
    let scale = FixedDecimal.powers[digits]
    let scaled = abs(value) * scale
    guard scaled < 1e15, scaled.isFinite else { return appendFormatted(value, digits) }
    let lower = scaled.rounded(.down)
    guard abs(scaled - lower - 0.5) > 1e-6 else { return appendFormatted(value, digits) }
    var whole = UInt64(scaled.rounded(.toNearestOrEven))
    if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
    let unit = UInt64(scale)
    append(Int(whole / unit))
    guard digits > 0 else { return }
    bytes.append(UInt8(ascii: "."))
    whole %= unit
    var divisor = unit / 10
    while divisor > 0 {
      bytes.append(UInt8(ascii: "0") + UInt8(whole / divisor))
      whole %= divisor
      divisor /= 10
    }
  }

  private mutating func appendFormatted(_ value: Double, _ digits: Int) {
    append(String(format: "%.\(digits)f", value))
  }
}

/// Float and Double write their text to a stream through `_writeASCII` (the standard
/// library's hook for ASCII it has formatted into a buffer): taken here as bytes, a number
/// costs no String on its way into the buffer.
extension TextBuffer: TextOutputStream {
  public mutating func write(_ string: String) { append(string) }

  public mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: buffer)
  }
}
