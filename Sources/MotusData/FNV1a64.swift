// FNV-1a, 64-bit: the one non-cryptographic digest of Motus. A model's data fingerprint
// (MotusTraining), an adaptation's digests (MotusAdaptation) and a recording's file name
// (MotusLive) use it. It detects accidental change or tells names apart, not tampering.

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

  /// `combine(bytes:)` over raw memory, in address order; one tight loop rather than a
  /// generic sequence's iterator (the same hash).
  public mutating func combine(raw bytes: UnsafeRawBufferPointer) {
    var h = value
    for byte in bytes {
      h ^= UInt64(byte)
      h = h &* 0x0000_0100_0000_01b3
    }
    value = h
  }

  public mutating func combine(_ x: UInt64) {
    withUnsafeBytes(of: x.littleEndian) { combine(bytes: $0) }
  }

  /// The string's UTF-8 length, then its bytes: ("ab", "c") and ("a", "bc") differ.
  public mutating func combine(_ string: String) {
    combine(UInt64(string.utf8.count))
    combine(bytes: string.utf8)
  }

  /// 16 lowercase hex digits.
  public var hex: String {
    let s = String(value, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
  }
}
