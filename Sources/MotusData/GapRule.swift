// When a time step between two samples is a gap that ends a recording. One rule for CSV
// sessions and phone-app exports, so both split (or bridge) a step alike.

/// A step splits a recording only when it is long both relative to the sampling (more than
/// `gapFactor` typical steps) and in absolute time (more than `minimumGapSeconds`).
///
/// The absolute floor is what a step does to a window: phones log with jitter (a 277 Hz
/// recording with 4 ms steps and many 5-10 ms hiccups), and splitting at every hiccup would
/// leave pieces shorter than any window. A step under the floor is a small part of a
/// multi-second window and is bridged by interpolation instead.
public struct GapRule: Sendable, Equatable {
  /// Multiple of the typical step (`--gap-factor`).
  public var gapFactor: Double
  /// A step no longer than this never splits: a twentieth of the default 5.12 s window.
  public var minimumGapSeconds: Double

  public static let defaultMinimumGapSeconds = 0.25

  public init(gapFactor: Double = 3, minimumGapSeconds: Double = GapRule.defaultMinimumGapSeconds)
  {
    self.gapFactor = gapFactor
    self.minimumGapSeconds = minimumGapSeconds
  }

  /// Whether `step` (seconds) splits a recording whose typical step is `typicalStep`.
  /// Never true when the typical step is unknown (`<= 0`).
  @inline(__always)
  public func isGap(step: Double, typicalStep: Double) -> Bool {
    typicalStep > 0 && step > gapFactor * typicalStep && step > minimumGapSeconds
  }

  /// Index ranges of `times` between gaps (one range when there is none).
  public func pieces(times: [Double], typicalStep: Double) -> [Range<Int>] {
    var pieces: [Range<Int>] = []
    var start = 0
    for i in 1..<max(times.count, 1) where isGap(step: times[i] - times[i - 1], typicalStep: typicalStep) {
      pieces.append(start..<i)
      start = i
    }
    pieces.append(start..<times.count)
    return pieces
  }

  /// Whether some step of `times` is longer than `gapFactor` typical steps but bridged by the
  /// floor: the recording then has jitter worth resampling away.
  public func bridgesJitter(times: [Double], typicalStep: Double) -> Bool {
    guard typicalStep > 0 else { return false }
    for i in 1..<max(times.count, 1) {
      let step = times[i] - times[i - 1]
      if step > gapFactor * typicalStep && !isGap(step: step, typicalStep: typicalStep) {
        return true
      }
    }
    return false
  }
}
