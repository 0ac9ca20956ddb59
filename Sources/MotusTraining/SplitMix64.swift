// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014; constants as in Vigna's reference splitmix64.c). Every random choice in training
// draws from one of these, seeded by the user: never the system generator.

/// A small, fast, seedable 64-bit generator with a fixed, documented sequence.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  public private(set) var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in `[0, 1)` with 24 random bits (exact in Float).
  public mutating func nextUnitFloat() -> Float {
    Float(next() >> 40) * 0x1p-24
  }

  /// Uniform in `0..<bound` by Lemire's multiply-shift with rejection (no modulo bias).
  public mutating func nextInt(below bound: Int) -> Int {
    precondition(bound > 0, "bound must be > 0, got \(bound)")
    let b = UInt64(bound)
    while true {
      let product = next().multipliedFullWidth(by: b)
      if product.low >= (0 &- b) % b { return Int(product.high) }
    }
  }

  /// Fisher-Yates shuffle written out here (not `shuffle(using:)`) so the order cannot change
  /// with the Swift standard library.
  public mutating func shuffle<T>(_ array: inout [T]) {
    guard array.count > 1 else { return }
    for i in stride(from: array.count - 1, to: 0, by: -1) {
      let j = nextInt(below: i + 1)
      if i != j { array.swapAt(i, j) }
    }
  }
}
