// The complete, serialisable description of a feature vector. A model file stores one, and
// `FeatureExtractor(spec:)` rebuilds exactly the features the model was trained on.

import MotusData

/// Everything needed to turn raw samples into one feature vector per window.
///
/// Feature names are stable strings such as `userAcceleration.x:std` and
/// `|rotationRate|:band_2-3Hz`; `featureNames` lists them in vector order.
public struct FeatureSpec: Codable, Sendable, Equatable {
  /// How the channels are computed from raw input columns (also run by streaming).
  public var recipes: [ChannelRecipe]
  /// Recipe outputs that get per-channel features, in feature-vector order.
  public var channels: [String]
  /// Three-axis groups (e.g. `["userAcceleration.x", "userAcceleration.y", "userAcceleration.z"]`)
  /// that get axis correlations and, when `gravity` is set, the angle to gravity.
  public var vectors: [[String]]
  /// The gravity axes, when the data has them.
  public var gravity: [String]?
  /// The rate windows are sampled at; input at another rate is resampled to it.
  public var sampleRateHz: Double
  /// Window and hop, in samples at `sampleRateHz`.
  public var windowLength: Int
  public var hopLength: Int
  /// Per-channel time-domain statistics, in output order.
  public var statistics: [Statistic]
  /// Per-channel spectral features, in output order.
  public var spectral: [SpectralFeature]
  /// Ascending band edges in Hz; `m + 1` edges give `m` band powers per channel.
  public var bandEdgesHz: [Double]

  public init(
    recipes: [ChannelRecipe], channels: [String], vectors: [[String]] = [],
    gravity: [String]? = nil, sampleRateHz: Double, windowLength: Int, hopLength: Int,
    statistics: [Statistic] = Statistic.allCases,
    spectral: [SpectralFeature] = SpectralFeature.allCases,
    bandEdgesHz: [Double]
  ) {
    self.recipes = recipes
    self.channels = channels
    self.vectors = vectors
    self.gravity = gravity
    self.sampleRateHz = sampleRateHz
    self.windowLength = windowLength
    self.hopLength = hopLength
    self.statistics = statistics
    self.spectral = spectral
    self.bandEdgesHz = bandEdgesHz
  }
}

/// A per-channel time-domain statistic; the raw value is the name's suffix.
public enum Statistic: String, Codable, Sendable, CaseIterable {
  case mean, std, min, max, p10, p25, median, p75, p90, iqr, rms, mad, skewness, kurtosis
  /// Crossings of the window mean per second.
  case meanCrossingRate = "mean_crossing_rate"
  /// Height of the highest normalised autocorrelation peak, and its lag in seconds.
  case autocorrelationPeak = "acf_peak"
  case autocorrelationLag = "acf_lag"
}

/// A per-channel frequency-domain feature (real FFT, Hann window, mean removed).
public enum SpectralFeature: String, Codable, Sendable, CaseIterable {
  /// One feature per band of `bandEdgesHz`, named `band_<lo>-<hi>Hz`.
  case bandPowers = "band"
  case dominantFrequency = "dominant_hz"
  /// The dominant bin's share of total power.
  case dominantShare = "dominant_share"
  case spectralCentroid = "centroid_hz"
  case spectralEntropy = "entropy"
}

// MARK: - Names, defaults, validation

extension FeatureSpec {
  /// The default band edges in Hz, capped at the Nyquist frequency (which becomes the last edge).
  public static let defaultBandEdgesHz: [Double] = [0, 0.5, 1, 2, 3, 5, 8, 12, 16, 20, 25]

  /// `hz` rounded to 1 mHz when that moves it by less than one part in a million, so a rate
  /// measured from timestamps (14.9999999993 Hz) becomes the nominal one (15 Hz) and band
  /// names stay readable; other rates are returned unchanged.
  public static func nominalRate(_ hz: Double) -> Double {
    let rounded = (hz * 1000).rounded() / 1000
    return abs(rounded - hz) <= 1e-6 * abs(hz) ? rounded : hz
  }

  /// `defaultBandEdgesHz` below `sampleRateHz / 2`, then the Nyquist frequency itself.
  public static func defaultBandEdges(sampleRateHz: Double) -> [Double] {
    let nyquist = sampleRateHz / 2
    return defaultBandEdgesHz.filter { $0 < nyquist } + [nyquist]
  }

  /// The spec most commands use: every statistic and spectral feature for `channels`, axis
  /// correlations for each `name.x/.y/.z` triple among `channels`, the angle to gravity when
  /// the recipes produce `gravity.x/y/z`, and the default band edges.
  ///
  /// - Parameters:
  ///   - recipes: Every channel the extractor receives, in column order.
  ///   - channels: The recipe outputs that get per-channel features (often all of them).
  ///   - sampleRateHz: The rate the windows are sampled at.
  ///   - windowLength, hopLength: In samples.
  public static func standard(
    recipes: [ChannelRecipe], channels: [String], sampleRateHz: Double, windowLength: Int,
    hopLength: Int
  ) -> FeatureSpec {
    let names = Set(recipes.map(\.name))
    var vectors: [[String]] = []
    for channel in channels where channel.hasSuffix(".x") {
      let prefix = String(channel.dropLast(2))
      let axes = ["x", "y", "z"].map { "\(prefix).\($0)" }
      if axes.allSatisfy(channels.contains) { vectors.append(axes) }
    }
    let gravityAxes = ["gravity.x", "gravity.y", "gravity.z"]
    let gravity = gravityAxes.allSatisfy(names.contains) ? gravityAxes : nil
    return FeatureSpec(
      recipes: recipes, channels: channels, vectors: vectors, gravity: gravity,
      sampleRateHz: sampleRateHz, windowLength: windowLength, hopLength: hopLength,
      bandEdgesHz: defaultBandEdges(sampleRateHz: sampleRateHz))
  }

  /// `userAcceleration` for `[userAcceleration.x, .y, .z]`.
  public static func vectorName(_ axes: [String]) -> String {
    guard let first = axes.first else { return "" }
    return first.hasSuffix(".x") ? String(first.dropLast(2)) : first
  }

  /// Whether `axes` gets a `gravity_angle` feature (never for gravity itself).
  func hasGravityAngle(_ axes: [String]) -> Bool {
    guard let gravity else { return false }
    return axes != gravity
  }

  /// `band_<lo>-<hi>Hz`, with edges printed as the shortest decimal (`0.5`, `2`, `7.5`).
  public static func bandName(lo: Double, hi: Double) -> String {
    "band_\(formatHz(lo))-\(formatHz(hi))Hz"
  }

  static func formatHz(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
  }

  /// Feature names in output order: for each channel its statistics then its spectral
  /// features (bands expanded in edge order); then for each vector `corr_xy`, `corr_xz`,
  /// `corr_yz` and, when gravity is set and the vector is not gravity, `gravity_angle`.
  public var featureNames: [String] {
    var names: [String] = []
    for channel in channels {
      for statistic in statistics { names.append("\(channel):\(statistic.rawValue)") }
      for feature in spectral {
        if feature == .bandPowers {
          for b in 0..<max(bandEdgesHz.count - 1, 0) {
            names.append(
              "\(channel):\(FeatureSpec.bandName(lo: bandEdgesHz[b], hi: bandEdgesHz[b + 1]))")
          }
        } else {
          names.append("\(channel):\(feature.rawValue)")
        }
      }
    }
    for axes in vectors {
      let name = FeatureSpec.vectorName(axes)
      for pair in ["xy", "xz", "yz"] { names.append("\(name):corr_\(pair)") }
      if hasGravityAngle(axes) { names.append("\(name):gravity_angle") }
    }
    return names
  }

  /// Checks every field; the error names the field and gives a hint.
  public func validate() throws {
    guard windowLength > 0 else { throw FeatureSpecError.windowNotPositive(windowLength) }
    guard (1...windowLength).contains(hopLength) else {
      throw FeatureSpecError.hopOutOfRange(hop: hopLength, window: windowLength)
    }
    guard sampleRateHz > 0, sampleRateHz.isFinite else {
      throw FeatureSpecError.sampleRateNotPositive(sampleRateHz)
    }
    let nyquist = sampleRateHz / 2
    if spectral.contains(.bandPowers) {
      guard bandEdgesHz.count >= 2 else { throw FeatureSpecError.tooFewBandEdges(bandEdgesHz) }
      for i in bandEdgesHz.indices {
        let edge = bandEdgesHz[i]
        guard edge.isFinite, edge >= 0 else {
          throw FeatureSpecError.bandEdgesNotAscending(bandEdgesHz)
        }
        if i > 0, edge <= bandEdgesHz[i - 1] {
          throw FeatureSpecError.bandEdgesNotAscending(bandEdgesHz)
        }
        // A relative slack so a rounded Nyquist edge (e.g. 7.5 at 15 Hz) is accepted.
        if edge > nyquist * (1 + 1e-9) {
          throw FeatureSpecError.bandEdgeAboveNyquist(edge: edge, nyquist: nyquist)
        }
      }
    }
    let available = recipes.map(\.name)
    let known = Set(available)
    for channel in channels + vectors.flatMap({ $0 }) + (gravity ?? [])
    where !known.contains(channel) {
      throw FeatureSpecError.unknownChannel(channel, available: available)
    }
    for axes in vectors where axes.count != 3 {
      throw FeatureSpecError.vectorNotThreeAxes(axes)
    }
    if let gravity, gravity.count != 3 { throw FeatureSpecError.vectorNotThreeAxes(gravity) }
    if Set(featureNames).count != featureNames.count {
      throw FeatureSpecError.duplicateFeatureNames
    }
  }
}
