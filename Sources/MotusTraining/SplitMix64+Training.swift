// Draws the training code needs from MotusData's SplitMix64 (the one seeded generator of Motus):
// Float uniforms for initialisation, bounded integers and a shuffle written out here.

import MotusData

extension SplitMix64 {
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
