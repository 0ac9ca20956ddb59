// FNV-1a 64-bit digest of a training table, written into model metadata so a model can be
// traced to its data. Not cryptographic: it detects accidental change, not tampering.

import MotusLinearAlgebra

/// Incremental FNV-1a (64-bit; offset basis 0xcbf29ce484222325, prime 0x100000001b3).
public struct FNV1a64: Sendable {
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  public init() {}

  public mutating func combine(bytes: some Sequence<UInt8>) {
    for byte in bytes {
      value ^= UInt64(byte)
      value = value &* 0x0000_0100_0000_01b3
    }
  }

  public mutating func combine(_ x: UInt64) {
    withUnsafeBytes(of: x.littleEndian) { combine(bytes: $0) }
  }

  public mutating func combine(_ string: String) {
    combine(UInt64(string.utf8.count))
    combine(bytes: string.utf8)
  }

  /// 16 lowercase hex digits.
  public var hex: String {
    let s = String(value, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
  }

  /// Digest of features (shape, then Float bits LE), labels, groups and class names.
  public static func digest(features: Matrix, labels: [Int], groups: [String], classNames: [String])
    -> String
  {
    var h = FNV1a64()
    h.combine(UInt64(features.rowCount))
    h.combine(UInt64(features.columnCount))
    for v in features.values {
      withUnsafeBytes(of: v.bitPattern.littleEndian) { h.combine(bytes: $0) }
    }
    for y in labels { h.combine(UInt64(bitPattern: Int64(y))) }
    for g in groups { h.combine(g) }
    for c in classNames { h.combine(c) }
    return h.hex
  }
}
