// The input rate of a stream, estimated from its first timestamps.

/// The median sampling rate of `timestamps` (seconds), or nil when fewer than two
/// increasing timestamps exist. The median ignores an odd late or duplicated sample.
public func estimateSampleRateHz(timestamps: [Double]) -> Double? {
  var steps: [Double] = []
  for i in timestamps.indices.dropFirst() where timestamps[i] > timestamps[i - 1] {
    steps.append(timestamps[i] - timestamps[i - 1])
  }
  guard !steps.isEmpty else { return nil }
  steps.sort()
  let m = steps.count / 2
  let median = steps.count % 2 == 1 ? steps[m] : (steps[m - 1] + steps[m]) / 2
  return 1 / median
}
