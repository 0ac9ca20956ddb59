// Counts repetitions of a periodic movement (push-ups) without amplitude thresholds.
//
// Input: one orientation-free signal at a fixed rate (the acceleration magnitude, g, or any
// unit: only shape matters). Each push-up shows in it as one hump: a dip as the chest starts
// down, a rise above 1 g as it is stopped at the bottom and pushed back up, a dip as it stops
// at the top. The counter
// 1. band-passes the signal to the plausible repetition rates (1 / longest ... 1 / shortest
//    period; 0.25...1.25 Hz for push-ups), so each repetition becomes one cycle around zero;
// 2. scales it by its own RMS over the set (so amplitude, offset and unit never matter);
// 3. counts a repetition when the scaled signal rises above `triggerLevel` after having
//    fallen below zero (hysteresis), at least a refractory time after the previous one
//    (half the period estimate, never less than the shortest period).
// The period comes from the highest normalised autocorrelation peak of the set's raw
// signal (band-passed noise would look periodic). It sets the refractory time, and nothing
// is counted before the set has been periodic once (noise never is): the set so far (its
// look-back included, at most the history) is then replayed with the RMS of all of it.
// After that a rest that makes the estimate drop out changes nothing: repetitions are
// events, not a phase advanced by an estimated period, so nothing is recounted when the
// period returns. A repetition already counted is never counted again when a set resumes
// with a look-back that overlaps it.

/// Counts repetitions in a stream of samples of one signal at a fixed rate.
public struct RepetitionCounter: Sendable {
  public let sampleRateHz: Double
  /// Shortest and longest plausible repetition, in samples.
  public let minimumLag: Int
  public let maximumLag: Int
  /// The autocorrelation peak must reach this for the motion to count as periodic.
  public let minimumPeriodicity: Float
  /// A repetition is counted when the band-passed signal rises above this many RMS.
  public let triggerLevel: Double

  private var lowPass: Biquad
  private var highPass: Biquad
  private var filterStarted = false
  private let rmsAlpha: Double  // exponential forgetting of the RMS while counting
  private var history: [Float]  // the input, ring
  private var filtered: [Float]  // the band-passed input, same ring layout
  private var scratch: [Float]
  private var correlation: [Float]  // r[lag], normalised autocorrelation
  private var written = 0
  private var sinceEstimate = 0
  private var samplesInSet = 0  // samples since the set began, look-back included
  private var estimatedLag: Int?
  private var isCounting = false
  private var setWasPeriodic = false
  private var meanSquare: Double = 0
  private var armed = true
  private var lastRepetition = Int.min  // sample index (of `written`) of the last counted

  /// Repetitions counted since the last `reset()`.
  public private(set) var count = 0
  /// The current repetition period in seconds, once one has been found.
  public var periodSeconds: Double? { estimatedLag.map { Double($0) / sampleRateHz } }

  /// - Parameters:
  ///   - sampleRateHz: Rate of the samples passed to `append`.
  ///   - periodRangeSeconds: Plausible repetition periods. Defaults to 0.8...4 s (push-ups).
  ///     Sets the pass band (its reciprocal) and the shortest time between repetitions.
  ///   - historySeconds: How much signal the period is estimated from (and the longest
  ///     look-back `beginCounting` can use). Defaults to 10 s.
  ///   - minimumPeriodicity: Normalised autocorrelation a period needs. Defaults to 0.3.
  ///   - triggerLevel: Rise, in RMS of the band-passed signal, that counts a repetition.
  ///     Defaults to 0.7.
  ///   - rmsTimeConstantSeconds: Memory of the RMS while counting, long enough to bridge a
  ///     rest between repetitions. Defaults to 5 s.
  public init(
    sampleRateHz: Double, periodRangeSeconds: ClosedRange<Double> = 0.8...4,
    historySeconds: Double = 10, minimumPeriodicity: Float = 0.3, triggerLevel: Double = 0.7,
    rmsTimeConstantSeconds: Double = 5
  ) {
    precondition(sampleRateHz > 0, "sampleRateHz must be positive, got \(sampleRateHz)")
    precondition(
      periodRangeSeconds.lowerBound > 0,
      "periods must be positive, got \(periodRangeSeconds)")
    precondition(triggerLevel > 0, "triggerLevel must be positive, got \(triggerLevel)")
    self.sampleRateHz = sampleRateHz
    minimumLag = max(1, Int((periodRangeSeconds.lowerBound * sampleRateHz).rounded()))
    maximumLag = max(minimumLag + 1, Int((periodRangeSeconds.upperBound * sampleRateHz).rounded()))
    let length = max(Int((historySeconds * sampleRateHz).rounded()), 2 * maximumLag)
    history = [Float](repeating: 0, count: length)
    filtered = [Float](repeating: 0, count: length)
    scratch = [Float](repeating: 0, count: length)
    correlation = [Float](repeating: 0, count: maximumLag + 2)
    self.minimumPeriodicity = minimumPeriodicity
    self.triggerLevel = triggerLevel
    lowPass = Biquad(
      .lowPass, cornerHz: 1 / periodRangeSeconds.lowerBound, sampleRateHz: sampleRateHz)
    highPass = Biquad(
      .highPass, cornerHz: 1 / periodRangeSeconds.upperBound, sampleRateHz: sampleRateHz)
    let dt = 1 / sampleRateHz
    rmsAlpha = dt / (max(rmsTimeConstantSeconds, dt) + dt)
  }

  public mutating func reset() {
    filterStarted = false
    written = 0
    count = 0
    lastRepetition = Int.min
    stopCounting()
  }

  /// Adds one sample to the history; while `counting`, looks for a repetition.
  ///
  /// Counting without `beginCounting` starts a set at this sample.
  /// - Returns: Repetitions reported by this sample: 0 or 1, or, when this sample shows the
  ///   set to be periodic for the first time, those the set held so far.
  /// - Complexity: O(1) while not counting. While counting, every quarter of the shortest
  ///   period the autocorrelation is recomputed in O(history · lags), and the set's samples
  ///   are replayed once in O(history).
  public mutating func append(_ value: Float, counting: Bool) -> Int {
    let x = Double(value)
    if !filterStarted {
      lowPass.settle(at: x)
      highPass.settle(at: x)
      filterStarted = true
    }
    let y = highPass.filter(lowPass.filter(x))
    history[written % history.count] = value
    filtered[written % history.count] = Float(y)
    written += 1
    guard counting else {
      if isCounting { stopCounting() }
      return 0
    }
    isCounting = true
    samplesInSet += 1
    var reported = 0
    if setWasPeriodic {
      meanSquare += rmsAlpha * (y * y - meanSquare)
      reported = trigger(y, at: written - 1)
    }
    sinceEstimate += 1
    if sinceEstimate >= max(1, minimumLag / 4) {
      sinceEstimate = 0
      estimatedLag = estimatePeriod(over: min(samplesInSet, written, history.count))
      reported += replayIfFirstPeriodic()
    }
    return reported
  }

  /// Starts counting a set that began `lookbackSamples` ago (the detector's window), and
  /// counts the repetitions those samples already hold (none counted before).
  ///
  /// - Returns: Repetitions counted from the look-back.
  /// - Complexity: O(look-back) plus one period estimate.
  public mutating func beginCounting(lookbackSamples: Int) -> Int {
    stopCounting()
    isCounting = true
    samplesInSet = max(0, min(lookbackSamples, written))
    estimatedLag = estimatePeriod(over: min(samplesInSet, written, history.count))
    return replayIfFirstPeriodic()
  }

  /// Stops counting (the activity ended); the running `count` is kept. A set that never
  /// looked periodic counts nothing.
  public mutating func stopCounting() {
    isCounting = false
    samplesInSet = 0
    sinceEstimate = 0
    estimatedLag = nil
    setWasPeriodic = false
    armed = true
    meanSquare = 0
  }

  /// The first time the set is seen to be periodic, runs the trigger over the set so far
  /// (at most the history), scaled by the RMS of all of it: a scale taken from its first
  /// samples alone (often a rest) would turn noise into repetitions.
  /// - Returns: Repetitions counted.
  private mutating func replayIfFirstPeriodic() -> Int {
    guard !setWasPeriodic, estimatedLag != nil else { return 0 }
    setWasPeriodic = true
    let n = min(samplesInSet, written, history.count)
    guard n > 0 else { return 0 }
    var sum: Double = 0
    for i in (written - n)..<written {
      let v = Double(filtered[i % history.count])
      sum += v * v
    }
    meanSquare = sum / Double(n)
    armed = true
    var counted = 0
    for i in (written - n)..<written {
      counted += trigger(Double(filtered[i % history.count]), at: i)
    }
    return counted
  }

  /// The hysteresis trigger on band-passed sample `y` with index `index` (of `written`).
  /// - Returns: 1 when a repetition is counted.
  private mutating func trigger(_ y: Double, at index: Int) -> Int {
    guard meanSquare > 0 else { return 0 }
    let level = y / meanSquare.squareRoot()
    if !armed {
      if level < 0 { armed = true }
      return 0
    }
    let refractory = max(minimumLag, (estimatedLag ?? 0) / 2)
    guard level > triggerLevel, lastRepetition == Int.min || index - lastRepetition >= refractory
    else { return 0 }
    armed = false
    lastRepetition = index
    count += 1
    return 1
  }

  /// Repetitions in the last `samples` samples (at most the history), counted afresh as if
  /// they were a set of their own: none unless they are periodic, each at least the refractory
  /// time after the previous one. Changes neither `count` nor the set being counted: a probe
  /// (the stream's push-up gate asks it whether a candidate push-up window holds repetitions).
  /// - Complexity: O(samples · lags), as one period estimate.
  public mutating func repetitions(inLast samples: Int) -> Int {
    let n = min(samples, written, history.count)
    guard let lag = estimatePeriod(over: n), !repeatsFaster(than: lag, over: n) else { return 0 }
    var sum: Double = 0
    for i in (written - n)..<written {
      let v = Double(filtered[i % history.count])
      sum += v * v
    }
    guard sum > 0 else { return 0 }
    let rms = (sum / Double(n)).squareRoot()
    let refractory = max(minimumLag, lag / 2)
    var isArmed = true
    var last = Int.min
    var counted = 0
    for i in (written - n)..<written {
      let level = Double(filtered[i % history.count]) / rms
      if !isArmed {
        if level < 0 { isArmed = true }
      } else if level > triggerLevel, last == Int.min || i - last >= refractory {
        isArmed = false
        last = i
        counted += 1
      }
    }
    return counted
  }

  /// Whether the signal `estimatePeriod(over: n)` just unrolled repeats at a lag shorter than
  /// the shortest plausible one about as strongly as at `lag`: a faster motion (steps,
  /// vibration) whose multiple fell in range, not a repetition at this period.
  private func repeatsFaster(than lag: Int, over n: Int) -> Bool {
    guard minimumLag > 2 else { return false }
    let level = 0.8 * Double(correlation[lag])
    let afterLast = Double(correlation[minimumLag])  // r at the shortest plausible lag
    return scratch.withUnsafeBufferPointer { x in
      var energy: Double = 0
      for i in 0..<n { energy += Double(x[i] * x[i]) }
      guard energy > 0 else { return false }
      func r(_ short: Int) -> Double {
        if short == minimumLag { return afterLast }
        var sum: Double = 0
        for i in 0..<(n - short) { sum += Double(x[i] * x[i + short]) }
        return sum / Double(n - short) / (energy / Double(n))
      }
      // A peak (no lower than both neighbours) at a shorter lag, about as high.
      var previous = r(1)
      var current = r(2)
      for short in 2..<minimumLag {
        let next = r(short + 1)
        if current >= level && current >= previous && current >= next { return true }
        (previous, current) = (current, next)
      }
      return false
    }
  }

  /// The lag of the highest normalised autocorrelation peak in range over the last `n`
  /// samples, or nil if not periodic. Callers pass the samples of the current set: what came
  /// before (another activity, often larger and periodic too) would otherwise set the period.
  private mutating func estimatePeriod(over n: Int) -> Int? {
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
