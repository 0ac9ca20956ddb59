// Sample-rate conversion for one recording, fed one sample at a time. Times in seconds,
// rates in Hz, values `Float`, `channelCount` values per sample.
//
// Two stages:
// 1. Anti-alias low-pass, only when downsampling (output rate below input rate): a
//    linear-phase windowed-sinc FIR with a Blackman window. Cutoff (-6 dB) 0.45 * output
//    rate, transition band 0.35...0.55 * output rate, so what would alias into the output
//    (>= 0.55 * output rate) is cut by the Blackman stopband (about 74 dB) and the band
//    below 0.35 * output rate passes nearly unchanged. Taps: N = ceil(5.5 / transition
//    width in cycles per sample), made odd, normalised to unit DC gain. A windowed sinc
//    was chosen over a Butterworth IIR because it is linear-phase: stamping each filtered
//    value with the time of the centre tap makes it zero-phase in effect, so batch and
//    live output agree exactly and live output only lags by (N - 1) / 2 input samples.
//    Recording ends are padded by repeating the first and last sample.
// 2. Linear interpolation of the filtered samples onto the grid t0 + k / outputRate, where
//    t0 is the first input time; grid points past the last input time are not produced.
//
// Batch resampling (`resample(timestamps:columns:...)`) runs exactly this object, so a
// model trained on batch-resampled data sees the same numbers as one fed live.

import Foundation

/// A stateful resampler: `push` input samples as they arrive, receive uniform output.
///
///     var r = StreamingResampler(inputRateHz: 100, outputRateHz: 50, channelCount: 3)
///     r.push(timestamp: t, values: xyz) { time, values in ... }   // per input sample
///     r.finish { time, values in ... }                            // at the end
///
/// The input rate must be known up front (the filter is designed for it); input times may
/// jitter around it. Call `reset()` at a gap: the next sample starts a new grid.
public struct StreamingResampler: Sendable {
  public let inputRateHz: Double
  public let outputRateHz: Double
  public let channelCount: Int
  /// FIR taps (length `N`, odd, sum 1); `[1]` when no low-pass is needed.
  public let taps: [Float]

  /// Input samples of delay between a sample arriving and its filtered value being ready.
  public var latencySamples: Int { (taps.count - 1) / 2 }

  // Ring of the last N input samples, `history[slot * channelCount + c]`.
  private var history: [Float]
  private var historyCount = 0  // samples written (including start padding)
  private var writeSlot = 0
  // Times of real input samples whose filtered value is not computed yet (FIFO). Consumed
  // times are dropped once more than `consumedTimesKept` pile up at the front, so the array
  // never holds more than that plus the latency: reserved in init, it never grows mid-stream.
  private var pendingTimes: [Double] = []
  private var pendingHead = 0
  private static let consumedTimesKept = 1024
  private var lastInput: [Float]
  // The previous filtered sample, for interpolation.
  private var previousTime = 0.0
  private var previous: [Float]
  private var hasPrevious = false
  private var current: [Float]
  private var output: [Float]
  private var gridStart = 0.0
  private var nextGridIndex = 0
  private var started = false

  /// - Parameters:
  ///   - inputRateHz: Nominal input rate, `> 0`.
  ///   - outputRateHz: Output grid rate, `> 0`.
  ///   - channelCount: Values per sample, `>= 1`.
  public init(inputRateHz: Double, outputRateHz: Double, channelCount: Int) {
    precondition(inputRateHz > 0 && inputRateHz.isFinite, "inputRateHz \(inputRateHz)")
    precondition(outputRateHz > 0 && outputRateHz.isFinite, "outputRateHz \(outputRateHz)")
    precondition(channelCount >= 1, "channelCount \(channelCount)")
    self.inputRateHz = inputRateHz
    self.outputRateHz = outputRateHz
    self.channelCount = channelCount
    // Only downsampling can alias; at the same or a higher rate the input passes unfiltered.
    self.taps =
      outputRateHz < inputRateHz
      ? StreamingResampler.lowPassTaps(
        cutoffHz: 0.45 * outputRateHz, transitionHz: 0.2 * outputRateHz,
        sampleRateHz: inputRateHz)
      : [1]
    history = [Float](repeating: 0, count: taps.count * channelCount)
    lastInput = [Float](repeating: 0, count: channelCount)
    previous = lastInput
    current = lastInput
    output = lastInput
    pendingTimes.reserveCapacity(Self.consumedTimesKept + 1 + latencySamples)
  }

  /// Windowed-sinc (Blackman) low-pass taps; `[1]` when `cutoffHz` is at or above the
  /// Nyquist rate of `sampleRateHz` (nothing to remove).
  ///
  /// - Returns: An odd number of taps summing to 1, at most 2001.
  public static func lowPassTaps(
    cutoffHz: Double, transitionHz: Double, sampleRateHz: Double
  ) -> [Float] {
    let fc = cutoffHz / sampleRateHz  // cycles per sample
    guard fc < 0.5 else { return [1] }
    let width = transitionHz / sampleRateHz
    var n = Int((5.5 / width).rounded(.up))
    n = min(max(n, 3), 2001)
    if n % 2 == 0 { n += 1 }
    let m = Double(n - 1)
    var h = [Double](repeating: 0, count: n)
    for i in 0..<n {
      let x = Double(i) - m / 2
      let sinc = x == 0 ? 2 * fc : sin(2 * Double.pi * fc * x) / (Double.pi * x)
      let w = 0.42 - 0.5 * cos(2 * Double.pi * Double(i) / m)
        + 0.08 * cos(4 * Double.pi * Double(i) / m)
      h[i] = sinc * w
    }
    let sum = h.reduce(0, +)
    return h.map { Float($0 / sum) }
  }

  /// Forgets all input; the next `push` starts a new grid at its own time.
  public mutating func reset() {
    historyCount = 0
    writeSlot = 0
    pendingTimes.removeAll(keepingCapacity: true)
    pendingHead = 0
    hasPrevious = false
    nextGridIndex = 0
    started = false
  }

  /// Feeds one input sample; calls `emit` for every output grid point now computable.
  ///
  /// - Parameters:
  ///   - timestamp: Seconds, greater than the previous one.
  ///   - values: `channelCount` values.
  ///   - emit: Receives the grid time and `channelCount` values (valid during the call).
  /// - Complexity: O(N * channelCount) per input sample; no allocation after warm-up.
  public mutating func push(
    timestamp: Double, values: UnsafeBufferPointer<Float>,
    emit: (_ timestamp: Double, _ values: UnsafeBufferPointer<Float>) -> Void
  ) {
    precondition(
      values.count == channelCount, "expected \(channelCount) values, got \(values.count)")
    if !started {
      started = true
      gridStart = timestamp
      // Pad the start with copies of the first sample (half the filter length).
      for _ in 0..<latencySamples { write(values) }
    }
    for c in 0..<channelCount { lastInput[c] = values[c] }
    pendingTimes.append(timestamp)
    write(values)
    if historyCount >= taps.count { filterOldestPending(emit: emit) }
  }

  /// `push` for an array of `channelCount` values.
  public mutating func push(
    timestamp: Double, values: [Float],
    emit: (_ timestamp: Double, _ values: UnsafeBufferPointer<Float>) -> Void
  ) {
    values.withUnsafeBufferPointer { push(timestamp: timestamp, values: $0, emit: emit) }
  }

  /// Flushes the samples still inside the filter (padding with the last input) and
  /// emits the remaining grid points up to the last input time, then resets.
  public mutating func finish(
    emit: (_ timestamp: Double, _ values: UnsafeBufferPointer<Float>) -> Void
  ) {
    guard started else { return }
    let last = lastInput
    last.withUnsafeBufferPointer { padding in
      while pendingHead < pendingTimes.count {
        write(padding)
        if historyCount >= taps.count { filterOldestPending(emit: emit) }
      }
    }
    reset()
  }

  @inline(__always)
  private mutating func write(_ values: UnsafeBufferPointer<Float>) {
    let base = writeSlot * channelCount
    for c in 0..<channelCount { history[base + c] = values[c] }
    writeSlot = (writeSlot + 1) % taps.count
    historyCount += 1
  }

  /// Filters the window whose centre is the oldest pending sample, then interpolates.
  private mutating func filterOldestPending(
    emit: (_ timestamp: Double, _ values: UnsafeBufferPointer<Float>) -> Void
  ) {
    let time = pendingTimes[pendingHead]
    pendingHead += 1
    if pendingHead > Self.consumedTimesKept && pendingHead * 2 > pendingTimes.count {
      pendingTimes.removeFirst(pendingHead)
      pendingHead = 0
    }
    // writeSlot is the oldest entry of a full ring.
    let n = taps.count
    for c in 0..<channelCount { current[c] = 0 }
    var slot = writeSlot
    for k in 0..<n {
      let tap = taps[k]
      let base = slot * channelCount
      for c in 0..<channelCount { current[c] += tap * history[base + c] }
      slot += 1
      if slot == n { slot = 0 }
    }
    interpolate(to: time, emit: emit)
  }

  private mutating func interpolate(
    to time: Double, emit: (_ timestamp: Double, _ values: UnsafeBufferPointer<Float>) -> Void
  ) {
    while true {
      let gridTime = gridStart + Double(nextGridIndex) / outputRateHz
      if gridTime > time { break }
      if !hasPrevious || time == previousTime || gridTime >= time {
        for c in 0..<channelCount { output[c] = current[c] }
      } else {
        let w = Float((gridTime - previousTime) / (time - previousTime))
        for c in 0..<channelCount { output[c] = previous[c] + w * (current[c] - previous[c]) }
      }
      output.withUnsafeBufferPointer { emit(gridTime, $0) }
      nextGridIndex += 1
    }
    swap(&previous, &current)
    previousTime = time
    hasPrevious = true
  }
}

extension StreamingResampler {
  /// Resamples whole columns (`columns[c][t]`) by running a `StreamingResampler`.
  ///
  /// - Returns: Grid times and `[channelCount][outputCount]` columns.
  public static func resample(
    timestamps: [Double], columns: [[Float]], inputRateHz: Double, outputRateHz: Double
  ) -> (timestamps: [Double], columns: [[Float]]) {
    precondition(!columns.isEmpty, "no columns")
    precondition(
      columns.allSatisfy { $0.count == timestamps.count },
      "columns must have \(timestamps.count) samples")
    var resampler = StreamingResampler(
      inputRateHz: inputRateHz, outputRateHz: outputRateHz, channelCount: columns.count)
    let expected = Int((Double(timestamps.count) * outputRateHz / inputRateHz).rounded(.up)) + 1
    var outTimes: [Double] = []
    outTimes.reserveCapacity(expected)
    var outColumns = [[Float]](repeating: [], count: columns.count)
    for c in outColumns.indices { outColumns[c].reserveCapacity(expected) }
    let collect = { (time: Double, values: UnsafeBufferPointer<Float>) in
      outTimes.append(time)
      for c in 0..<values.count { outColumns[c].append(values[c]) }
    }
    var row = [Float](repeating: 0, count: columns.count)
    for t in timestamps.indices {
      for c in columns.indices { row[c] = columns[c][t] }
      resampler.push(timestamp: timestamps[t], values: row, emit: collect)
    }
    resampler.finish(emit: collect)
    return (outTimes, outColumns)
  }
}
