// The classic hand-tuned pedometer: low-pass the acceleration magnitude with the RC filter of
// the Core Motion smoothing recipe (RC 0.3 s), and count a step at every peak above a fixed
// level, at least a minimum interval after the previous one. Motus measures its own
// `StepCounter` against it with the settings tutorials use and with settings tuned on data.

/// Peaks of low-passed |a| above a level, a minimum interval apart.
public struct ThresholdStepCounter: Sendable, Equatable {
  public struct Settings: Sendable, Equatable {
    /// A step's peak must exceed this, in g (|a| is about 1 g at rest).
    public var level: Double
    /// Seconds between two counted steps at least.
    public var minimumInterval: Double
    /// RC of the low-pass, seconds.
    public var timeConstant = 0.3

    public init(level: Double, minimumInterval: Double) {
      self.level = level
      self.minimumInterval = minimumInterval
    }

    /// Settings a tutorial would pick: 1.1 g, 0.25 s (at most 240 steps/min).
    public static let typical = Settings(level: 1.1, minimumInterval: 0.25)
  }

  public let settings: Settings
  public private(set) var count = 0
  private var filter: LowPassFilter
  private var previous = 0.0
  private var beforePrevious = 0.0
  private var previousTime = 0.0
  private var lastStep = -Double.infinity
  private var samples = 0

  public init(settings: Settings, sampleRateHz: Double) {
    self.settings = settings
    filter = LowPassFilter(
      timeConstantSeconds: settings.timeConstant, sampleRateHz: sampleRateHz, channelCount: 1)
  }

  /// Feeds one magnitude (g); returns true when it completes a counted step's peak.
  @discardableResult
  public mutating func push(time: Double, magnitude: Float) -> Bool {
    let value = Double(filter.push(magnitude))
    samples += 1
    defer {
      beforePrevious = previous
      previous = value
      previousTime = time
    }
    guard samples >= 3, previous > beforePrevious, previous >= value,
      previous > settings.level, previousTime - lastStep >= settings.minimumInterval
    else { return false }
    lastStep = previousTime
    count += 1
    return true
  }

  /// Steps counted on a whole recording of magnitudes at `sampleRateHz`.
  public static func count(
    times: [Double], magnitudes: [Float], sampleRateHz: Double, settings: Settings
  ) -> Int {
    var counter = ThresholdStepCounter(settings: settings, sampleRateHz: sampleRateHz)
    for (time, magnitude) in zip(times, magnitudes) { counter.push(time: time, magnitude: magnitude) }
    return counter.count
  }

  /// The settings with the smallest total absolute count error over `recordings`, searched on
  /// a grid (level 1.00-1.40 g by 0.005, interval 0.20-0.60 s by 0.05); ties keep the first.
  public static func tune(
    recordings: [(times: [Double], magnitudes: [Float], sampleRateHz: Double, steps: Double)]
  ) -> Settings {
    var best = Settings.typical
    var bestError = Double.infinity
    for levelStep in 0...80 {
      for intervalStep in 0...8 {
        let settings = Settings(
          level: 1 + 0.005 * Double(levelStep), minimumInterval: 0.2 + 0.05 * Double(intervalStep))
        var error = 0.0
        for r in recordings {
          let counted = count(
            times: r.times, magnitudes: r.magnitudes, sampleRateHz: r.sampleRateHz,
            settings: settings)
          error += abs(Double(counted) - r.steps)
        }
        if error < bestError { (best, bestError) = (settings, error) }
      }
    }
    return best
  }
}
