// What a user chooses about windows and features, before the data's rate and channels are
// known: window and hop, which channels get features, which vectors are split into
// orientation-free parts, which statistics and spectral features. `spec(recipes:sampleRateHz:)`
// turns it into the exact `FeatureSpec` a model stores. `motus train`, `motus features` and
// the benchmarks all start from `FeatureChoice()`, so their defaults cannot drift apart.

import MotusData
import MotusFeatures

/// Window and feature settings; `nil` fields take the defaults below.
public struct FeatureChoice: Codable, Sendable, Equatable {
  /// Default 5.12 s: a few strides or pedal strokes at any cadence. Chosen on `motus bench
  /// transfer`, where 3.84, 7.68 and 10.24 s did no better on held-out sources and placements.
  public var window: WindowSpan = FeatureChoice.defaultWindow
  /// Default: a third of the window.
  public var hop: WindowSpan?
  public var channelRule: FeatureChannelRule = FeatureChoice.defaultChannelRule
  /// Patterns (names or globs) of the channels that get features; overrides `channelRule`.
  public var featureChannels: [String]?
  /// Vector names to split (`acceleration`); overrides `channelRule`'s choice.
  public var decompose: [String]?
  public var statistics: [Statistic]?
  public var spectral: [SpectralFeature]?
  public var bandEdgesHz: [Double]?
  public var logPowerFloor: Double?
  /// How far back the recent-windows summaries reach (`FeatureContext`): the windows whose
  /// starts lie within this span of the current one's; nil or zero for none.
  public var context: WindowSpan? = FeatureChoice.defaultContext
  /// Whether the context also summarises each channel's log band powers, not only its std.
  public var contextBands: Bool = FeatureChoice.defaultContextBands

  public static let defaultWindowSeconds = 5.12
  public static let defaultWindow = WindowSpan.seconds(defaultWindowSeconds)
  public static let defaultContext: WindowSpan? = nil
  public static let defaultContextBands = true
  public static let defaultChannelRule = FeatureChannelRule.orientationFree
  /// Every spectral feature, log band powers included (a sensor's gain only shifts them).
  public static let defaultSpectral: [SpectralFeature] = SpectralFeature.allCases

  public init() {}

  /// The default hop for a window of `windowLength` samples: a third of it.
  public static func defaultHopLength(windowLength: Int) -> Int { max(1, windowLength / 3) }

  /// How many windows of this length and hop `sampleCount` samples at `rateHz` hold, each
  /// window and hop at least one sample: a count taken before any spec is made (`motus
  /// inspect`'s, at each recording's own rate).
  public func windowCount(sampleCount: Int, rateHz: Double) -> Int {
    let length = max(1, window.samples(atRate: rateHz))
    let hopLength = max(
      1, hop?.samples(atRate: rateHz) ?? FeatureChoice.defaultHopLength(windowLength: length))
    return SlidingWindow(length: length, hop: hopLength).count(sampleCount: sampleCount)
  }

  /// The spec for a loaded dataset: its recipes, at its recordings' common rate.
  ///
  /// - Throws: `FeatureChoiceError.mixedRates` when recordings differ in rate by more than
  ///   2 %, `.noRecordings`, and what `spec(recipes:sampleRateHz:)` throws.
  public func spec(for result: LoadResult) throws -> FeatureSpec {
    try spec(recipes: result.recipes, recordingRates: result.dataset.recordings.map(\.sampleRateHz))
  }

  /// The spec for data whose channels `recipes` compute, at the common rate of recordings
  /// sampled at `recordingRates` (Hz): throws as `spec(for:)`.
  public func spec(recipes: [ChannelRecipe], recordingRates: [Double]) throws -> FeatureSpec {
    let rates = recordingRates.sorted()
    guard let low = rates.first, let high = rates.last else {
      throw FeatureChoiceError.noRecordings
    }
    let rate = FeatureSpec.nominalRate(rates[rates.count / 2])
    guard high - low <= 0.02 * rate else {
      throw FeatureChoiceError.mixedRates(lowHz: low, highHz: high, medianHz: rate)
    }
    return try spec(recipes: recipes, sampleRateHz: rate)
  }

  /// The spec for data whose channels `recipes` compute, sampled at `sampleRateHz`.
  ///
  /// - Throws: `FeatureChoiceError` when a pattern or vector matches no channel or no feature
  ///   is left, and `FeatureSpecError` when the window does not fit the rate.
  public func spec(recipes: [ChannelRecipe], sampleRateHz: Double) throws -> FeatureSpec {
    let rate = FeatureSpec.nominalRate(sampleRateHz)
    let windowLength = window.samples(atRate: rate)
    let hopLength =
      hop?.samples(atRate: rate) ?? FeatureChoice.defaultHopLength(windowLength: windowLength)
    let names = recipes.map(\.name)
    var spec = FeatureSpec.standard(
      recipes: recipes, channels: names, sampleRateHz: rate, windowLength: windowLength,
      hopLength: hopLength)
    if let bandEdgesHz { spec.bandEdgesHz = bandEdgesHz }
    if let statistics { spec.statistics = statistics }
    spec.spectral = spectral ?? FeatureChoice.defaultSpectral
    if let logPowerFloor { spec.logPowerFloor = logPowerFloor }

    if let featureChannels {
      let unmatched = spec.unmatchedPatterns(featureChannels)
      guard unmatched.isEmpty else {
        throw FeatureChoiceError.unmatchedChannels(unmatched, available: names)
      }
      spec = spec.restricted(toChannels: featureChannels)
    } else if channelRule == .orientationFree {
      spec = spec.restricted(toChannels: names.filter(FeatureChoice.isMagnitude))
    }
    let vectors: [String]
    if let decompose {
      vectors = decompose
    } else {
      vectors = channelRule == .orientationFree ? FeatureChoice.splittableVectors(names) : []
    }
    let loaded = Set(names)
    for name in vectors {
      let axes = ["x", "y", "z"].map { "\(name).\($0)" }
      guard axes.allSatisfy(loaded.contains) else {
        throw FeatureChoiceError.vectorWithoutAxes(name, axes: axes)
      }
      spec.decomposedVectors.append(axes)
    }
    guard !spec.featureNames.isEmpty else { throw FeatureChoiceError.noFeatures }
    if let context, context.isPositive {
      spec.context = try FeatureChoice.context(
        spanning: context.samples(atRate: rate), hopLength: hopLength,
        windowFeatures: spec.windowFeatureNames, bands: contextBands)
    }
    try spec.validate()
    return spec
  }

  /// The recent windows whose starts lie within `span` samples of the current one's, by
  /// `FeatureContext.recentIntensity`.
  ///
  /// - Throws: `FeatureChoiceError.contextWithoutFeatures` when the window has no std or log
  ///   band power.
  static func context(
    spanning span: Int, hopLength: Int, windowFeatures: [String], bands: Bool
  ) throws -> FeatureContext {
    let windows = 1 + Int((Double(span) / Double(max(hopLength, 1))).rounded())
    guard
      let context = FeatureContext.recentIntensity(
        windowCount: windows, windowFeatures: windowFeatures, bands: bands)
    else { throw FeatureChoiceError.contextWithoutFeatures }
    return context
  }

  /// `|name|`: a magnitude channel.
  static func isMagnitude(_ name: String) -> Bool {
    name.count > 2 && name.hasPrefix("|") && name.hasSuffix("|")
  }

  /// Vectors with all three axes among `names`, in order of their `.x` axis, except gravity
  /// (its split would be constant) and attitude (angles, not a vector).
  static func splittableVectors(_ names: [String]) -> [String] {
    let loaded = Set(names)
    return names.compactMap { name -> String? in
      guard name.hasSuffix(".x") else { return nil }
      let vector = String(name.dropLast(2))
      guard vector != "gravity", vector != "attitude",
        loaded.contains("\(vector).y"), loaded.contains("\(vector).z")
      else { return nil }
      return vector
    }
  }
}
