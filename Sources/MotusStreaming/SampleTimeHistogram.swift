// Time spent per sample, kept in fixed space: a live stream (`tail -f`) may run for days, so
// the times cannot all be stored. Mean is exact (sum and count); quantiles come from 32
// logarithmic buckets per doubling, within about 2 % of the exact order statistic.

import Foundation

/// A histogram of durations in nanoseconds with a bounded footprint (16 KB).
public struct SampleTimeHistogram: Sendable, Equatable {
  static let bucketsPerDoubling = 32
  private var counts = [UInt64](repeating: 0, count: 64 * SampleTimeHistogram.bucketsPerDoubling)
  public private(set) var count: UInt64 = 0
  public private(set) var totalNanoseconds: UInt64 = 0

  public init() {}

  public mutating func record(_ nanoseconds: UInt64) {
    counts[Self.bucket(of: nanoseconds)] += 1
    count += 1
    totalNanoseconds &+= nanoseconds
  }

  /// Mean nanoseconds (0 with nothing recorded).
  public var mean: Double { count == 0 ? 0 : Double(totalNanoseconds) / Double(count) }

  /// The `q` quantile in nanoseconds, as the geometric middle of its bucket; the order
  /// statistic is the one at index `Int(q * count)`, as a sorted array would give it.
  public func quantile(_ q: Double) -> Double {
    guard count > 0 else { return 0 }
    let rank = min(count - 1, UInt64(max(0, q) * Double(count)))
    var seen: UInt64 = 0
    for (bucket, n) in counts.enumerated() where n > 0 {
      seen += n
      if seen > rank { return Self.middle(of: bucket) }
    }
    return Self.middle(of: counts.count - 1)
  }

  /// Buckets [2^(k/32), 2^((k+1)/32)) of nanoseconds; 0 and 1 ns share bucket 0.
  static func bucket(of nanoseconds: UInt64) -> Int {
    guard nanoseconds > 1 else { return 0 }
    let index = Int(log2(Double(nanoseconds)) * Double(bucketsPerDoubling))
    return min(index, 64 * bucketsPerDoubling - 1)
  }

  static func middle(of bucket: Int) -> Double {
    exp2((Double(bucket) + 0.5) / Double(bucketsPerDoubling))
  }
}
