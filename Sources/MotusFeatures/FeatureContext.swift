// Features of the recent past: the minimum, mean and maximum of chosen per-window features over
// the last few windows, the current one included. A car waiting at a light is still for a
// window but not for half a minute; a person sitting is still for both. The summaries run over
// the windows since the recording (batch) or the stream (after a restart at a gap) began, so a
// window near the start summarises fewer; batch windowing and the stream see the same windows
// in the same order and reach the same values.

/// Which recent windows' features a `FeatureSpec` summarises, and how.
public struct FeatureContext: Codable, Sendable, Equatable {
  /// Windows summarised, the current one included (2...`maximumWindowCount`).
  public var windowCount: Int
  /// Names of per-window features of the same spec (`featureNames` before the context's own).
  public var features: [String]
  public var statistics: [ContextStatistic]

  public static let maximumWindowCount = 1024

  public init(windowCount: Int, features: [String], statistics: [ContextStatistic] = ContextStatistic.allCases) {
    self.windowCount = windowCount
    self.features = features
    self.statistics = statistics
  }

  /// The context `motus train` uses: the last `windowCount` windows' intensity features by
  /// minimum, mean and maximum: each channel's `std` (the motion's size) and, with `bands`, its
  /// log band powers (its size per band). nil when `windowFeatures` has none of them.
  public static func recentIntensity(
    windowCount: Int, windowFeatures: [String], bands: Bool = true
  ) -> FeatureContext? {
    let sources = windowFeatures.filter { name in
      name.hasSuffix(":\(Statistic.std.rawValue)") || (bands && name.contains(":log_band_"))
    }
    guard !sources.isEmpty else { return nil }
    return FeatureContext(
      windowCount: Swift.min(Swift.max(windowCount, 2), maximumWindowCount), features: sources)
  }

  /// `recent<windowCount>:<statistic>:<feature>`, statistic by statistic.
  public var featureNames: [String] {
    statistics.flatMap { statistic in
      features.map { "recent\(windowCount):\(statistic.rawValue):\($0)" }
    }
  }
}

/// A summary of one feature over the recent windows.
public enum ContextStatistic: String, Codable, Sendable, CaseIterable {
  case min, mean, max
}

/// The recent values of a context's source features and their summaries, without allocating
/// once made. `FeatureExtractor` owns one.
struct ContextWindows: Sendable {
  let windowCount: Int
  /// Index of each summarised feature among the window's own features.
  let sources: [Int]
  let statistics: [ContextStatistic]
  /// `[windowCount][sources.count]`, a ring: row `next` is written next.
  private var ring: [Float]
  private var next = 0
  private var filled = 0

  init(context: FeatureContext, featureNames: [String]) {
    windowCount = context.windowCount
    let index = Dictionary(featureNames.enumerated().map { ($1, $0) }) { a, _ in a }
    sources = context.features.map { name in
      guard let i = index[name] else { preconditionFailure("context feature \(name) is unknown") }
      return i
    }
    statistics = context.statistics
    ring = [Float](repeating: 0, count: windowCount * sources.count)
  }

  var outputCount: Int { sources.count * statistics.count }

  /// Forgets every window: the next one starts a new recording or stream.
  mutating func restart() {
    next = 0
    filled = 0
  }

  /// Adds the window whose own features are `window` and writes the summaries to `output`.
  ///
  /// - Complexity: O(windowCount · sources · statistics).
  mutating func append(
    _ window: UnsafeMutablePointer<Float>, writingTo output: UnsafeMutablePointer<Float>
  ) {
    let k = sources.count
    ring.withUnsafeMutableBufferPointer { ring in
      for (j, source) in sources.enumerated() { ring[next * k + j] = window[source] }
      next = next + 1 == windowCount ? 0 : next + 1
      filled = Swift.min(filled + 1, windowCount)
      var out = output
      for statistic in statistics {
        for j in 0..<k {
          var low = Float.infinity
          var high = -Float.infinity
          var sum: Double = 0
          for row in 0..<filled {
            let value = ring[row * k + j]
            low = Swift.min(low, value)
            high = Swift.max(high, value)
            sum += Double(value)
          }
          switch statistic {
          case .min: out.pointee = low
          case .mean: out.pointee = Float(sum / Double(filled))
          case .max: out.pointee = high
          }
          out += 1
        }
      }
    }
  }
}
