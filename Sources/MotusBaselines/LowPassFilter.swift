// The first-order RC low-pass filter of the classic Core Motion smoothing recipe:
// y[n] = alpha * x[n] + (1 - alpha) * y[n-1], alpha = dt / (RC + dt). Units pass through.

/// A per-channel exponential low-pass filter, sample by sample.
///
/// With `dt = 1/20 s` and `RC = 0.3 s`, `alpha = 0.05 / 0.35 = 1/7`; the -3 dB corner is
/// `1 / (2 pi RC)`, about 0.53 Hz for RC = 0.3 s. Unlike the recipe (which starts from 0),
/// the state starts at the first sample, so a gravity estimate does not ramp up from zero.
public struct LowPassFilter: Sendable, Equatable {
  public let alpha: Float
  public private(set) var state: [Float]
  private var started = false

  /// - Parameters:
  ///   - timeConstantSeconds: RC in seconds (default 0.3, the recipe's value); > 0.
  ///   - sampleRateHz: dt = 1 / sampleRateHz.
  ///   - channelCount: Values per sample.
  public init(timeConstantSeconds: Double = 0.3, sampleRateHz: Double, channelCount: Int) {
    precondition(timeConstantSeconds > 0, "RC must be > 0, got \(timeConstantSeconds)")
    precondition(sampleRateHz > 0, "rate must be > 0, got \(sampleRateHz)")
    precondition(channelCount >= 1, "channelCount must be >= 1, got \(channelCount)")
    alpha = Float(Self.alpha(timeConstantSeconds: timeConstantSeconds, sampleRateHz: sampleRateHz))
    state = [Float](repeating: 0, count: channelCount)
  }

  /// `dt / (RC + dt)` with `dt = 1 / sampleRateHz`.
  public static func alpha(timeConstantSeconds: Double, sampleRateHz: Double) -> Double {
    let dt = 1 / sampleRateHz
    return dt / (timeConstantSeconds + dt)
  }

  /// Filters one sample in place of `state`; returns channel `0`'s output for convenience.
  @discardableResult
  public mutating func push(_ values: [Float]) -> Float {
    precondition(values.count == state.count, "expected \(state.count) values")
    if !started {
      state = values
      started = true
      return state[0]
    }
    for c in state.indices { state[c] = alpha * values[c] + (1 - alpha) * state[c] }
    return state[0]
  }

  /// One-channel form (no allocation).
  public mutating func push(_ value: Float) -> Float {
    precondition(state.count == 1, "push(_:) with one value needs a 1-channel filter")
    if !started {
      state[0] = value
      started = true
    } else {
      state[0] = alpha * value + (1 - alpha) * state[0]
    }
    return state[0]
  }

  public mutating func reset() {
    started = false
    for c in state.indices { state[c] = 0 }
  }
}
