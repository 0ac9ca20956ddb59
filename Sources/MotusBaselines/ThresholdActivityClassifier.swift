// Streaming window statistics of raw acceleration (g) for the threshold rules: per sample,
// |a| is smoothed (RC low-pass), the residual is the vibration band, and the RC = 0.3 s
// low-pass of the axes estimates gravity. Every hop the window's statistics are classified.

/// Sample-by-sample threshold activity classifier over windows of raw acceleration.
///
/// - Complexity: O(1) per sample, O(window) per hop; no allocation once built.
public struct ThresholdActivityClassifier: Sendable {
  public let cutoffs: ActivityThresholds
  public let sampleRateHz: Double
  /// Samples per window and per hop.
  public let windowLength: Int
  public let hopLength: Int
  private var smoother: LowPassFilter
  private var gravity: LowPassFilter
  private var smoothed: [Float]
  private var residual: [Float]
  private var next = 0
  private var filled = 0
  private var untilHop: Int
  /// Latest label, nil before the first full window.
  public private(set) var current: ThresholdActivity?
  public private(set) var lastStatistics: ActivityWindowStatistics?

  /// - Parameters:
  ///   - cutoffs: The rules' cut-offs.
  ///   - sampleRateHz: Rate of the samples passed to `push`.
  ///   - windowSeconds: Default 2.56 s, hop half a window.
  ///   - smoothingSeconds: RC of the |a| smoother (0.05 s: corner ~3.2 Hz, between gait
  ///     and vibration).
  public init(
    cutoffs: ActivityThresholds, sampleRateHz: Double, windowSeconds: Double = 2.56,
    smoothingSeconds: Double = 0.05
  ) {
    precondition(sampleRateHz > 0, "rate must be > 0, got \(sampleRateHz)")
    self.cutoffs = cutoffs
    self.sampleRateHz = sampleRateHz
    windowLength = max(4, Int((windowSeconds * sampleRateHz).rounded()))
    hopLength = max(1, windowLength / 2)
    smoother = LowPassFilter(
      timeConstantSeconds: smoothingSeconds, sampleRateHz: sampleRateHz, channelCount: 1)
    gravity = LowPassFilter(timeConstantSeconds: 0.3, sampleRateHz: sampleRateHz, channelCount: 3)
    smoothed = [Float](repeating: 0, count: windowLength)
    residual = [Float](repeating: 0, count: windowLength)
    untilHop = windowLength
  }

  /// Feeds one raw acceleration sample (g). Returns the new label at a hop, else nil.
  public mutating func push(x: Float, y: Float, z: Float) -> ThresholdActivity? {
    guard let s = pushStatistics(x: x, y: y, z: z) else { return nil }
    let label = cutoffs.classify(s)
    current = label
    return label
  }

  /// Feeds one sample; returns the window's statistics at a hop, else nil.
  public mutating func pushStatistics(x: Float, y: Float, z: Float) -> ActivityWindowStatistics? {
    let magnitude = (x * x + y * y + z * z).squareRoot()
    let smooth = smoother.push(magnitude)
    gravity.push([x, y, z])
    smoothed[next] = smooth
    residual[next] = magnitude - smooth
    next = next + 1 == windowLength ? 0 : next + 1
    filled = min(filled + 1, windowLength)
    untilHop -= 1
    guard untilHop == 0 else { return nil }
    untilHop = hopLength
    let s = statistics()
    lastStatistics = s
    return s
  }

  private func statistics() -> ActivityWindowStatistics {
    let n = Float(windowLength)
    var mean: Float = 0
    for v in smoothed { mean += v }
    mean /= n
    var variance: Float = 0
    var vibration: Float = 0
    for i in 0..<windowLength {
      let d = smoothed[i] - mean
      variance += d * d
      vibration += residual[i] * residual[i]
    }
    let std = (variance / n).squareRoot()
    // Crossings of the mean in time order, with hysteresis of a quarter std.
    let band = 0.25 * std
    var side = 0
    var crossings = 0
    for k in 0..<windowLength {
      let d = smoothed[(next + k) % windowLength] - mean
      let s = d > band ? 1 : (d < -band ? -1 : 0)
      if s != 0 {
        if side != 0 && s != side { crossings += 1 }
        side = s
      }
    }
    let seconds = Float(Double(windowLength) / sampleRateHz)
    let g = gravity.state
    let norm = (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).squareRoot()
    return ActivityWindowStatistics(
      motionStd: std, vibrationRMS: (vibration / n).squareRoot(),
      cadenceHz: Float(crossings) / 2 / seconds, tilt: norm > 0 ? abs(g[2]) / norm : 0)
  }
}
