// The earbud push-up counter on a torso-worn accelerometer (raw acceleration, g):
// gravity = the RC = 0.3 s low-pass of acceleration; user acceleration = raw - gravity;
// vertical = (user . g) / |g|, positive up in either sign convention;
// pitch = -asin(|g_z| / |g|).

import Foundation

/// Maps raw chest or back acceleration to the earbud counter's two inputs.
///
/// Axis mapping: an earbud's `userAcceleration.y` carries the head's up-down motion; on the
/// torso the up-down motion of a push-up is along gravity, so the vertical component of user
/// acceleration (`(user . g) / |g|`, up positive) is used: it does not depend on how the
/// sensor is mounted or on the sign convention. Pitch: the earbud reads below -1 rad when the
/// face points at the floor; the torso's equivalent is its normal (sensor z) pointing at the
/// floor, so `pitch = -asin(|g_z| / |g|)`, below -1 rad when the torso is within about 33
/// degrees of horizontal.
public struct ThresholdChestPushUpCounter: Sendable, Equatable {
  public private(set) var counter: ThresholdPushUpCounter
  private var gravity: LowPassFilter
  /// The last vertical acceleration (g) and pitch (rad) fed to the counter.
  public private(set) var vertical: Float = 0
  public private(set) var pitch: Float = 0

  /// - Parameters:
  ///   - thresholds: The earbud counter's thresholds (g, rad).
  ///   - sampleRateHz: Rate of the samples passed to `push`.
  ///   - timeConstantSeconds: RC of the gravity low-pass (default 0.3 s).
  public init(
    thresholds: ThresholdPushUpCounter.Thresholds, sampleRateHz: Double, timeConstantSeconds: Double = 0.3
  ) {
    counter = ThresholdPushUpCounter(thresholds: thresholds)
    gravity = LowPassFilter(
      timeConstantSeconds: timeConstantSeconds, sampleRateHz: sampleRateHz, channelCount: 3)
  }

  public var count: Int { counter.count }

  /// Feeds one raw acceleration sample (g). Returns true when a repetition is counted.
  public mutating func push(x: Float, y: Float, z: Float) -> Bool {
    gravity.push([x, y, z])
    let gx = gravity.state[0]
    let gy = gravity.state[1]
    let gz = gravity.state[2]
    let norm = (gx * gx + gy * gy + gz * gz).squareRoot()
    guard norm > 1e-6 else { return false }
    let along = ((x - gx) * gx + (y - gy) * gy + (z - gz) * gz) / norm
    // Raw = s * (a - g) with s = +1 (Android) or -1 (Core Motion), g pointing down: the
    // estimate is -s * g and the user part s * a, so their dot product is -a . g whatever s
    // is: positive for acceleration upwards.
    vertical = along
    pitch = -Float(Foundation.asin(Double(min(1, abs(gz) / norm))))
    return counter.push(acceleration: vertical, pitch: pitch)
  }

  public mutating func reset() {
    counter.reset()
    gravity.reset()
  }
}
