// The one pseudo-random generator of Motus: seeded, portable, identical on every platform,
// so that shuffles, initialisations and synthetic data are reproducible from a seed.

import Foundation

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast and the same on every platform.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// Uniform in [0, 1) with 53 random bits.
  public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }
  /// Standard normal (Box-Muller).
  public mutating func gaussian() -> Double {
    let u1 = max(uniform(), 0x1p-53), u2 = uniform()
    return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
  }
}
