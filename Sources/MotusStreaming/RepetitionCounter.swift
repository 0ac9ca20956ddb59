// Counts repetitions of a periodic movement (push-ups) without amplitude thresholds.
//
// Hand-written counters fire when an axis crosses fixed levels (-0.7 g then +0.4 g), which
// breaks with another device, placement or person. This counter asks only "how long is one
// repetition?": it keeps the last few seconds of an orientation-free signal (the acceleration
// magnitude), finds the period as the highest normalised autocorrelation peak within the
// plausible range of repetition periods, and advances a phase by dt / period per sample.
// Each time the phase passes a whole number one repetition is reported. Amplitude, offset
// and sign never enter, so nothing needs tuning per device.

/// Counts repetitions in a stream of samples of one signal at a fixed rate.
public struct RepetitionCounter: Sendable {
  public let sampleRateHz: Double
  /// Shortest and longest plausible repetition, in samples.
  public let minimumLag: Int
  public let maximumLag: Int
  /// The autocorrelation peak must reach this for the motion to count as periodic.
  public let minimumPeriodicity: Float

  private var history: [Float]
  private var scratch: [Float]
  private var correlation: [Float]  // r[lag], normalised autocorrelation
  private var written = 0
  private var sinceEstimate = 0
  private var phase: Double = 0
  private var samplesInSet = 0  // samples since the set began, look-back included
  private var estimatedLag: Int?

  /// Repetitions counted since the last `reset()`.
  public private(set) var count = 0
  /// The current repetition period in seconds, once one has been found.
  public var periodSeconds: Double? { estimatedLag.map { Double($0) / sampleRateHz } }

  /// - Parameters:
  ///   - sampleRateHz: Rate of the samples passed to `append`.
  ///   - periodRangeSeconds: Plausible repetition periods. Defaults to 0.8...4 s (push-ups).
  ///   - historySeconds: How much signal the period is estimated from (and the longest
  ///     look-back `beginCounting` can use). Defaults to 10 s.
  ///   - minimumPeriodicity: Normalised autocorrelation a period needs. Defaults to 0.3.
  public init(
    sampleRateHz: Double, periodRangeSeconds: ClosedRange<Double> = 0.8...4,
    historySeconds: Double = 10, minimumPeriodicity: Float = 0.3
  ) {
    precondition(sampleRateHz > 0, "sampleRateHz must be positive, got \(sampleRateHz)")
    self.sampleRateHz = sampleRateHz
    minimumLag = max(1, Int((periodRangeSeconds.lowerBound * sampleRateHz).rounded()))
    maximumLag = max(minimumLag + 1, Int((periodRangeSeconds.upperBound * sampleRateHz).rounded()))
    let length = max(Int((historySeconds * sampleRateHz).rounded()), 2 * maximumLag)
    history = [Float](repeating: 0, count: length)
    scratch = [Float](repeating: 0, count: length)
    correlation = [Float](repeating: 0, count: maximumLag + 2)
    self.minimumPeriodicity = minimumPeriodicity
  }

  public mutating func reset() {
    written = 0
    samplesInSet = 0
    sinceEstimate = 0
    phase = 0
    estimatedLag = nil
    count = 0
  }

  /// Adds one sample to the history; while `counting`, advances the phase.
  ///
  /// - Returns: Repetitions completed by this sample (0 or 1).
  /// - Complexity: O(1) while not counting. While counting, every quarter of the shortest
  ///   period the autocorrelation is recomputed in O(history · lags).
  public mutating func append(_ value: Float, counting: Bool) -> Int {
    history[written % history.count] = value
    written += 1
    guard counting else { return 0 }
    samplesInSet += 1
    sinceEstimate += 1
    if sinceEstimate >= max(1, minimumLag / 4) {
      sinceEstimate = 0
      let hadPeriod = estimatedLag != nil
      estimatedLag = estimatePeriod()
      // The first period found also covers the samples of the set seen before it.
      if !hadPeriod, let lag = estimatedLag {
        phase = Double(min(samplesInSet, history.count)) / Double(lag)
        let whole = Int(phase)
        phase -= Double(whole)
        count += whole
        return whole
      }
    }
    guard let lag = estimatedLag else { return 0 }
    phase += 1 / Double(lag)
    guard phase >= 1 else { return 0 }
    phase -= 1
    count += 1
    return 1
  }

  /// Starts counting a set that began `lookbackSamples` ago (the detector's window), and
  /// counts the repetitions those samples already hold.
  ///
  /// - Returns: Repetitions counted from the look-back.
  public mutating func beginCounting(lookbackSamples: Int) -> Int {
    sinceEstimate = 0
    samplesInSet = min(lookbackSamples, written)
    estimatedLag = estimatePeriod()
    guard let lag = estimatedLag else {
      phase = 0
      return 0
    }
    phase = Double(min(samplesInSet, history.count)) / Double(lag)
    let whole = Int(phase)
    phase -= Double(whole)
    count += whole
    return whole
  }

  /// Stops counting (the activity ended); the running `count` is kept.
  public mutating func stopCounting() {
    phase = 0
    samplesInSet = 0
    estimatedLag = nil
  }

  /// The lag of the highest normalised autocorrelation peak in range, or nil if not periodic.
  /// Uses only the samples of the current set: what came before (another activity, often
  /// larger and periodic too) would otherwise set the period.
  private mutating func estimatePeriod() -> Int? {
    let n = min(samplesInSet, written, history.count)
    guard n >= 2 else { return nil }
    // Unroll the ring into scratch, oldest first, mean removed.
    let start = written - n
    var mean: Double = 0
    for i in 0..<n { mean += Double(history[(start + i) % history.count]) }
    mean /= Double(n)
    var energy: Double = 0
    for i in 0..<n {
      let v = history[(start + i) % history.count] - Float(mean)
      scratch[i] = v
      energy += Double(v * v)
    }
    guard energy > 0 else { return nil }
    let lastLag = min(maximumLag, n / 2)
    guard lastLag > minimumLag else { return nil }
    for lag in (minimumLag - 1)...(lastLag + 1) where lag < n {
      var sum: Double = 0
      scratch.withUnsafeBufferPointer { x in
        for i in 0..<(n - lag) { sum += Double(x[i] * x[i + lag]) }
      }
      // Unbiased: divide by the overlap so long lags are not penalised.
      correlation[lag] = Float(sum / Double(n - lag) / (energy / Double(n)))
    }
    // A periodic signal also peaks at 2, 3, ... times its period, about as high, so take the
    // shortest lag whose peak is within 80 % of the highest (the usual guard against octave
    // errors in pitch detection).
    func isPeak(_ lag: Int) -> Bool {
      let r = correlation[lag]
      return r >= minimumPeriodicity && r > correlation[lag - 1]
        && (lag + 1 >= n || r >= correlation[lag + 1])
    }
    var highest: Float?
    for lag in minimumLag...lastLag where isPeak(lag) {
      highest = max(highest ?? -1, correlation[lag])
    }
    guard let highest else { return nil }
    for lag in minimumLag...lastLag where isPeak(lag) && correlation[lag] >= 0.8 * highest {
      return lag
    }
    return nil
  }
}
