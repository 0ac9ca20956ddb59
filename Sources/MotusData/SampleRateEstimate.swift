// The sampling rate of timestamped samples: one rule for a loaded file and a live stream, so
// the same timestamps give the same rate wherever they are read.

/// Typical time step of `timestamps` (seconds): the median of the increasing steps, refined to
/// the mean of the steps within 50% of it. The refinement matters when times are printed with
/// few digits (`666.6`, `666.6667` at 15 Hz): the plain median then snaps to one of the rounded
/// steps. Steps outside the band (gaps, dropped samples) do not bias it; steps that do not
/// advance (a duplicated or late sample) are ignored. Nil when no step advances.
/// - Complexity: O(n log n).
public func typicalTimeStep(timestamps: [Double]) -> Double? {
  var steps: [Double] = []
  steps.reserveCapacity(max(0, timestamps.count - 1))
  for i in timestamps.indices.dropFirst() where timestamps[i] > timestamps[i - 1] {
    steps.append(timestamps[i] - timestamps[i - 1])
  }
  guard !steps.isEmpty else { return nil }
  steps.sort()
  let m = steps.count / 2
  let median = steps.count % 2 == 1 ? steps[m] : (steps[m - 1] + steps[m]) / 2
  var sum = 0.0
  var count = 0
  for s in steps where abs(s - median) <= 0.5 * median {
    sum += s
    count += 1
  }
  return count > 0 ? sum / Double(count) : median
}

/// The sampling rate of `timestamps` (seconds), `1 / typicalTimeStep`, or nil when no step
/// advances.
public func estimateSampleRateHz(timestamps: [Double]) -> Double? {
  typicalTimeStep(timestamps: timestamps).map { 1 / $0 }
}
