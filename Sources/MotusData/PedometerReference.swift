// The phone's own step count, kept next to a recording so that a step counter can be scored
// against it over the same interval.

/// A pedometer's cumulative step count over time, on the recording's clock.
///
///     if let reference = recording.pedometer,
///       let steps = reference.steps(from: recording.timestamps.first!, to: recording.timestamps.last!)
///     { print("the phone counted \(steps) steps") }
///
/// Phones update the count every few seconds, so values between two updates are linearly
/// interpolated: `steps(from:to:)` is fractional and exact only at update times.
public struct PedometerReference: Sendable, Equatable {
  /// Seconds on the same clock as `Recording.timestamps`, ascending. May start before the
  /// recording (SensorLog counts since its own start date).
  public var times: [Double]
  /// Steps counted up to `times[i]`, non-decreasing. Counts from the recording start for Sensor
  /// Logger (its first value is 0 at time 0); SensorLog's count starts earlier (its first
  /// value is the count already reached).
  public var cumulativeSteps: [Double]
  /// The phone's cadence estimate at `times[i]` (steps/s), when the app logs one (SensorLog).
  public var cadenceStepsPerSecond: [Double]?
  /// The file and columns the series came from.
  public var source: String

  public init(
    times: [Double], cumulativeSteps: [Double], cadenceStepsPerSecond: [Double]? = nil,
    source: String
  ) {
    precondition(times.count == cumulativeSteps.count, "one count per time")
    self.times = times
    self.cumulativeSteps = cumulativeSteps
    self.cadenceStepsPerSecond = cadenceStepsPerSecond
    self.source = source
  }

  /// Most steps a count may reach: ten million is years of walking; beyond it a value is
  /// corrupt, not counted.
  public static let maximumSteps = 10_000_000.0
  /// Fastest cadence a phone may report (steps/s); sprinting reaches about 5.
  public static let maximumCadence = 10.0

  /// Why `counts` (with `cadences`, at `times`) cannot be a pedometer's series: the index of
  /// the first implausible point and what is wrong with it; nil when it can. The one check
  /// every reader applies before keeping a pedometer.
  package static func problem(times: [Double], counts: [Double], cadences: [Double]?) -> (
    index: Int, reason: String
  )? {
    for i in counts.indices {
      let c = counts[i]
      guard c.isFinite, c >= 0, c <= maximumSteps else {
        return (i, "\(CSVError.format(c)) steps is outside 0...\(CSVError.format(maximumSteps))")
      }
      guard times[i].isFinite, abs(times[i]) <= Limits.timeMagnitude else {
        return (i, "its time \(times[i]) s is not one of the recording")
      }
      if i > 0 && c < counts[i - 1] {
        return (
          i, "the count falls from \(CSVError.format(counts[i - 1])) to \(CSVError.format(c))"
        )
      }
      if let cadence = cadences?[i], !cadence.isNaN, !(0...maximumCadence).contains(cadence) {
        return (
          i,
          "a cadence of \(CSVError.format(cadence)) steps/s is outside "
            + "0...\(CSVError.format(maximumCadence))"
        )
      }
    }
    return nil
  }

  /// The count at `time`, interpolated between updates and held after the last one; nil
  /// before the first update (the count is not known there) or when the series is empty.
  public func cumulativeSteps(at time: Double) -> Double? {
    guard let first = times.first, time >= first else { return nil }
    var hi = 0
    while hi < times.count && times[hi] < time { hi += 1 }
    if hi == times.count { return cumulativeSteps[times.count - 1] }
    if times[hi] == time || hi == 0 { return cumulativeSteps[hi] }
    let lo = hi - 1
    let w = (time - times[lo]) / (times[hi] - times[lo])
    return cumulativeSteps[lo] + w * (cumulativeSteps[hi] - cumulativeSteps[lo])
  }

  /// Steps the phone counted between `start` and `end` (seconds), or nil when `start` is
  /// before the first update.
  public func steps(from start: Double, to end: Double) -> Double? {
    guard let a = cumulativeSteps(at: start), let b = cumulativeSteps(at: end) else { return nil }
    return b - a
  }
}
