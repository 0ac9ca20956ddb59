// Window placement over one recording and the label a window gets: the batch path's (window
// tables, evaluation, benchmarks). Windows are [start, start + length) in samples, starts 0,
// hop, 2 hop, ... while they fit, as the stream's classifier stage places them after each
// (re)start.

import MotusData

/// Fixed-length windows advanced by a hop, both in samples.
public struct SlidingWindow: Sendable, Equatable {
  public let length: Int
  public let hop: Int

  public init(length: Int, hop: Int) {
    precondition(length > 0 && (1...length).contains(hop), "window \(length), hop \(hop)")
    self.length = length
    self.hop = hop
  }

  /// Number of whole windows in `sampleCount` samples (0 when shorter than one window).
  public func count(sampleCount: Int) -> Int {
    sampleCount < length ? 0 : (sampleCount - length) / hop + 1
  }

  /// Number of whole windows in all of `recordings`.
  public func count(in recordings: [Recording]) -> Int {
    recordings.reduce(0) { $0 + count(sampleCount: $1.sampleCount) }
  }

  /// Window starts in samples: `0, hop, ...` up to the last window that fits.
  public func starts(sampleCount: Int) -> StrideTo<Int> {
    stride(from: 0, to: count(sampleCount: sampleCount) * hop, by: hop)
  }

  /// The most frequent label of `labels` and the fraction of samples that carry it.
  ///
  /// Ties go to the smallest label index, so the result does not depend on sample order.
  /// - Parameter labels: Label indices of one window (non-empty).
  /// - Complexity: O(n) time, O(distinct labels) memory.
  public static func majorityLabel(_ labels: some Collection<Int32>) -> (
    label: Int32, purity: Float
  ) {
    precondition(!labels.isEmpty, "majority label of an empty window")
    // Most windows lie inside one activity: no counting (and no hashing) for those.
    let first = labels.first!
    if labels.allSatisfy({ $0 == first }) { return (first, 1) }
    var counts: [Int32: Int] = [:]
    for label in labels { counts[label, default: 0] += 1 }
    var best = Int32.max, bestCount = 0
    for (label, count) in counts where count > bestCount || (count == bestCount && label < best) {
      best = label
      bestCount = count
    }
    return (best, Float(Double(bestCount) / Double(labels.count)))
  }
}
