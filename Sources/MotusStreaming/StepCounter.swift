// Steps and cadence from the periodicity of the acceleration magnitude, the way a phone's
// pedometer counts: any orientation, no amplitude threshold tuned per person.
//
// Per sample: |a| (g) -> band-pass 0.5-4 Hz (Butterworth high-pass then low-pass) -> a ring of
// the last `windowSeconds`. Every `hopSeconds`: the window's normalised autocorrelation r(L)
// over lags of one step (0.25-1.6 s). The window is stepping when its band RMS is at least
// `minimumRMS` and some local maximum of r reaches `minimumCorrelation`; the step period is
// the lag of the strongest maximum, or of a positive maximum near half of it when there is
// one (a pocketed phone often swings once per stride: two steps). Parabolic interpolation
// refines the lag between samples. Steps are the stepping time divided by the period, so a
// count is not lost to a missed peak; a step event is emitted each time the running total
// passes a whole step, at the time it passes it.
//
// Tuned on MotionSense subjects 1-16 and the two phone recordings with a pedometer
// (docs/measurements.md, "Steps"); all buffers are allocated in init: no heap allocation per sample.

import Foundation

/// Counts steps and measures cadence on one stream of acceleration magnitudes.
///
///     var steps = StepCounter(sampleRateHz: 50)
///     let new = steps.push(time: t, magnitude: m)   // whole steps completed by this sample
///     for k in 0..<new { print(steps.time(ofStep: steps.wholeSteps - new + 1 + k)) }
///     steps.cadence   // steps per minute, 0 when not stepping
public struct StepCounter: Sendable {
  /// The detector's settings; the defaults are the ones measured in the README.
  public struct Settings: Sendable, Equatable {
    /// Length of the analysed window and the time between analyses, seconds.
    public var windowSeconds = 4.0
    public var hopSeconds = 1.0
    /// Band-passed RMS (g) below which the window is not stepping.
    public var minimumRMS = 0.05
    /// Autocorrelation a step period must reach, in (0, 1).
    public var minimumCorrelation = 0.5
    /// Shortest and longest step period searched, seconds (240 and 37.5 steps/min).
    public var shortestStep = 0.25
    public var longestStep = 1.6
    public init() {}
  }

  public let settings: Settings
  public let sampleRateHz: Double
  /// Steps so far, whole and fractional (the fraction is the step under way).
  public private(set) var total: Double = 0
  /// Steps per minute of the last analysed window; 0 when it was not stepping.
  public private(set) var cadence: Double = 0
  /// Whole steps so far.
  public var wholeSteps: Int { Int(total.rounded(.down)) }

  private var highPass: Biquad
  private var lowPass: Biquad
  private let initialHighPass: Biquad
  private let initialLowPass: Biquad
  private var ring: [Double]
  private var ringNext = 0
  private var filled = 0
  private var samplesUntilAnalysis: Int
  private let hopSamples: Int
  private var correlation: [Double]
  private let shortestLag: Int
  private let longestLag: Int
  /// Time up to which steps have been credited.
  private var creditedUntil: Double?
  // The last credited stretch: its start, the total before it and its period.
  private var lastCreditStart = 0.0
  private var totalBeforeLastCredit = 0.0
  private var lastPeriod = 1.0
  private var started = false

  /// - Parameter sampleRateHz: Rate of the magnitudes passed to `push` (> 2 Hz).
  public init(sampleRateHz: Double, settings: Settings = Settings()) {
    precondition(sampleRateHz > 2, "step counting needs more than 2 Hz, got \(sampleRateHz)")
    self.settings = settings
    self.sampleRateHz = sampleRateHz
    initialHighPass = Biquad(.highPass, cornerHz: 0.5, sampleRateHz: sampleRateHz)
    initialLowPass = Biquad(.lowPass, cornerHz: 4, sampleRateHz: sampleRateHz)
    highPass = initialHighPass
    lowPass = initialLowPass
    let windowSamples = max(8, Int((settings.windowSeconds * sampleRateHz).rounded()))
    ring = [Double](repeating: 0, count: windowSamples)
    hopSamples = max(1, Int((settings.hopSeconds * sampleRateHz).rounded()))
    samplesUntilAnalysis = hopSamples
    shortestLag = max(2, Int((settings.shortestStep * sampleRateHz).rounded(.down)))
    longestLag = min(windowSamples - 2, Int((settings.longestStep * sampleRateHz).rounded(.up)))
    correlation = [Double](repeating: 0, count: longestLag + 2)
  }

  /// Forgets the signal (after a gap) but keeps the total.
  public mutating func restart() {
    highPass = initialHighPass
    lowPass = initialLowPass
    filled = 0
    ringNext = 0
    samplesUntilAnalysis = hopSamples
    creditedUntil = nil
    started = false
    cadence = 0
  }

  /// When the `step`-th step (1-based) was completed; exact for the steps the last `push`
  /// completed, which lie in the last credited stretch.
  public func time(ofStep step: Int) -> Double {
    lastCreditStart + (Double(step) - totalBeforeLastCredit) * lastPeriod
  }

  /// Feeds one magnitude (g) at `time` (s); returns how many whole steps it completed (often
  /// 0, several at once when a walk starts: the steps of the window that revealed it).
  @discardableResult
  public mutating func push(time: Double, magnitude: Float) -> Int {
    let value = Double(magnitude)
    if !started {
      highPass.settle(at: value)
      lowPass.settle(at: 0)
      creditedUntil = time
      started = true
    }
    ring[ringNext] = lowPass.filter(highPass.filter(value))
    ringNext = ringNext + 1 == ring.count ? 0 : ringNext + 1
    filled = min(filled + 1, ring.count)
    samplesUntilAnalysis -= 1
    guard samplesUntilAnalysis == 0 else { return 0 }
    samplesUntilAnalysis = hopSamples
    guard filled == ring.count else { return 0 }
    let before = wholeSteps
    analyse(at: time)
    return wholeSteps - before
  }

  private mutating func analyse(at time: Double) {
    let credited = creditedUntil ?? time
    guard let period = stepPeriod() else {
      cadence = 0
      // Stepping that starts inside the next window is credited from half a window back.
      creditedUntil = max(credited, time - settings.windowSeconds / 2)
      return
    }
    cadence = 60 / period
    let start = max(credited, time - settings.windowSeconds)
    (lastCreditStart, totalBeforeLastCredit, lastPeriod) = (start, total, period)
    total += (time - start) / period
    creditedUntil = time
  }

  /// The step period of the window in seconds, or nil when it is not stepping.
  private mutating func stepPeriod() -> Double? {
    let n = ring.count
    var mean = 0.0
    for v in ring { mean += v }
    mean /= Double(n)
    var energy = 0.0
    for v in ring { energy += (v - mean) * (v - mean) }
    guard (energy / Double(n)).squareRoot() >= settings.minimumRMS, energy > 0 else { return nil }
    // r(L) over the ring in time order: oldest sample at ringNext.
    for lag in 1...(longestLag + 1) {
      var sum = 0.0
      for i in 0..<(n - lag) {
        let a = ring[(ringNext + i) % n] - mean
        let b = ring[(ringNext + i + lag) % n] - mean
        sum += a * b
      }
      correlation[lag] = sum / energy
    }
    var best = 0
    for lag in shortestLag...longestLag
    where isPeak(lag) && correlation[lag] >= settings.minimumCorrelation
      && (best == 0 || correlation[lag] > correlation[best])
    {
      best = lag
    }
    guard best > 0 else { return nil }
    // A positive peak near half the strongest lag: the strongest was a stride of two steps.
    let tolerance = max(1, Int((0.15 * Double(best)).rounded(.down)))
    var half = 0
    let (lowest, highest) = (max(shortestLag, best / 2 - tolerance), best / 2 + tolerance)
    for lag in stride(from: lowest, through: highest, by: 1)
    where isPeak(lag) && correlation[lag] > 0
      && (half == 0 || correlation[lag] > correlation[half])
    {
      half = lag
    }
    if half > 0 { best = half }
    return refinedLag(best) / sampleRateHz
  }

  private func isPeak(_ lag: Int) -> Bool {
    correlation[lag] > correlation[lag - 1] && correlation[lag] >= correlation[lag + 1]
  }

  /// The lag of the parabola through r at `lag - 1`, `lag`, `lag + 1`.
  private func refinedLag(_ lag: Int) -> Double {
    let (a, b, c) = (correlation[lag - 1], correlation[lag], correlation[lag + 1])
    let curvature = a - 2 * b + c
    guard curvature < 0 else { return Double(lag) }
    return Double(lag) + min(0.5, max(-0.5, 0.5 * (a - c) / curvature))
  }
}
