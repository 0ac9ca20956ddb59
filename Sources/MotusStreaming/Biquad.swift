// A second-order IIR section (Butterworth low- or high-pass, bilinear transform), sample by
// sample. Corner frequency in Hz at a given sample rate in Hz; values pass through in their
// own unit. Direct form II transposed, Double state so slow corners stay accurate.

import Foundation

/// One biquad filter section.
struct Biquad: Sendable {
  enum Kind: Sendable { case lowPass, highPass }

  private let b0: Double
  private let b1: Double
  private let b2: Double
  private let a1: Double
  private let a2: Double
  /// Gain at 0 Hz: 1 for a low-pass, 0 for a high-pass.
  private let dcGain: Double
  private var s1: Double = 0
  private var s2: Double = 0

  /// - Parameters:
  ///   - cornerHz: -3 dB frequency; clamped below the Nyquist frequency.
  ///   - sampleRateHz: Rate of the samples passed to `filter`.
  init(_ kind: Kind, cornerHz: Double, sampleRateHz: Double) {
    precondition(
      cornerHz > 0 && sampleRateHz > 0,
      "corner \(cornerHz) Hz and rate \(sampleRateHz) Hz must be positive")
    let k = tan(Double.pi * min(cornerHz, 0.45 * sampleRateHz) / sampleRateHz)
    let q = 1 / 2.0.squareRoot()  // Butterworth: maximally flat pass band
    let norm = 1 / (1 + k / q + k * k)
    switch kind {
    case .lowPass:
      b0 = k * k * norm
      b1 = 2 * b0
      dcGain = 1
    case .highPass:
      b0 = norm
      b1 = -2 * b0
      dcGain = 0
    }
    b2 = b0
    a1 = 2 * (k * k - 1) * norm
    a2 = (1 - k / q + k * k) * norm
  }

  /// Sets the state as if `value` had been the input forever (no start-up transient).
  mutating func settle(at value: Double) {
    let y = dcGain * value
    s2 = b2 * value - a2 * y
    s1 = b1 * value - a1 * y + s2
  }

  mutating func filter(_ x: Double) -> Double {
    let y = b0 * x + s1
    s1 = b1 * x - a1 * y + s2
    s2 = b2 * x - a2 * y
    return y
  }
}
