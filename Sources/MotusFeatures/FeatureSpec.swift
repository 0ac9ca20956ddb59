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
    statistics: [Statistic] = Statistic.allCases, spectral: [SpectralFeature] = SpectralFeature.allCases,
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
