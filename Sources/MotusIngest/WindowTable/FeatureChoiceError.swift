import MotusData
import MotusFeatures

/// A `FeatureChoice` that does not fit the loaded channels.
public enum FeatureChoiceError: Error, Equatable, CustomStringConvertible {
  case unmatchedChannels([String], available: [String])
  case vectorWithoutAxes(String, axes: [String])
  case noFeatures
  case noRecordings
  case mixedRates(lowHz: Double, highHz: Double, medianHz: Double)
  case contextWithoutFeatures

  public var description: String {
    switch self {
    case .unmatchedChannels(let patterns, let available):
      return "'--feature-channels': \(patterns.joined(separator: ", ")) matches no loaded "
        + "channel. HINT: choose among \(available.joined(separator: ", "))."
    case .vectorWithoutAxes(let name, let axes):
      return "'--decompose': \(name) needs \(axes.joined(separator: ", ")) among the loaded "
        + "channels. HINT: e.g. --decompose acceleration with acceleration.* loaded."
    case .noFeatures:
      return "the chosen channels, statistics and spectral features leave no features. HINT: "
        + "name at least one statistic or spectral feature (e.g. --statistics mean,std), or "
        + "use --feature-channels all for data without magnitudes or 3-axis vectors."
    case .noRecordings:
      return "no recordings were loaded. HINT: check the files and the filters."
    case .contextWithoutFeatures:
      return "'--context' summarises each channel's std and log band powers, and the chosen "
        + "features have neither. HINT: add std to --statistics or log_band to --spectral, or "
        + "use --context 0."
    case .mixedRates(let low, let high, let median):
      return "recordings are sampled at rates from \(low) to \(high) Hz; windows need one "
        + "rate. HINT: resample with --sample-rate \(Int(median.rounded()))."
    }
  }
}
