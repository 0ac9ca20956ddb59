// Why a FeatureSpec cannot be used, with the value at fault and a hint.

import MotusData

/// A `FeatureSpec` field that cannot be used.
public enum FeatureSpecError: Error, Equatable, CustomStringConvertible {
  case windowNotPositive(Int)
  case hopOutOfRange(hop: Int, window: Int)
  case sampleRateNotPositive(Double)
  case tooFewBandEdges([Double])
  case bandEdgesNotAscending([Double])
  case bandEdgeAboveNyquist(edge: Double, nyquist: Double)
  /// `log_band` needs a finite, positive `logPowerFloor`.
  case logPowerFloorNotPositive(Double)
  case unknownChannel(String, available: [String])
  case vectorNotThreeAxes([String])
  case duplicateFeatureNames
  /// The recent-windows context is inconsistent (the reason says how).
  case invalidContext(String)
  /// The dataset's channels are not the spec's recipe outputs.
  case channelMismatch(dataset: [String], recipes: [String])
  /// A recording is not at the spec's rate.
  case sampleRateMismatch(session: String, recordingHz: Double, specHz: Double)
  /// Longer than `FeatureSpec.maximumWindowLength` samples.
  case windowTooLong(Int, limit: Int)
  /// Outside `Limits.sampleRateHz`.
  case sampleRateOutOfRange(Double)
  /// More features than `FeatureSpec.maximumFeatureCount`.
  case tooManyFeatures(limit: Int)
  /// A channel recipe that cannot be computed (its name, and why).
  case invalidRecipe(name: String, reason: String)
  /// A window's feature came out NaN or infinite: the window, by recording and start time.
  case nonFiniteFeature(feature: String, session: String, source: String, startSeconds: Double)

  public var description: String {
    switch self {
    case .windowNotPositive(let n):
      return "window length must be positive, got \(n) samples. "
        + "HINT: use --window 2.56s or --window 128."
    case .hopOutOfRange(let hop, let window):
      return "hop must be in 1...\(window) samples (the window), got \(hop). "
        + "HINT: use a hop no longer than the window, e.g. half of it."
    case .sampleRateNotPositive(let hz):
      return "sample rate must be positive and finite, got \(hz) Hz. "
        + "HINT: check the timestamps of the input."
    case .tooFewBandEdges(let edges):
      return "band powers need at least 2 band edges, got \(Self.list(edges)). "
        + "HINT: e.g. --bands 0,1,3,8."
    case .bandEdgesNotAscending(let edges):
      return "band edges must be non-negative and strictly ascending, got \(Self.list(edges)). "
        + "HINT: e.g. --bands 0,0.5,1,2,3,5."
    case .bandEdgeAboveNyquist(let edge, let nyquist):
      return "band edge \(edge) Hz is above the Nyquist frequency \(nyquist) Hz. "
        + "HINT: drop edges above \(nyquist) Hz, or use a higher sample rate."
    case .logPowerFloorNotPositive(let floor):
      return "the log band power floor must be finite and positive, got \(floor). "
        + "HINT: use --log-power-floor 1e-4 ((channel unit)^2), well above the sensor's noise."
    case .unknownChannel(let name, let available):
      return "channel '\(Excerpt.text(name))' is not among the channels "
        + "(\(Excerpt.list(available))). "
        + "HINT: check the channel names of the input."
    case .vectorNotThreeAxes(let axes):
      return "a vector needs exactly 3 axes, got \(Excerpt.list(axes)). "
        + "HINT: list the x, y and z channels."
    case .duplicateFeatureNames:
      return "two features share a name. HINT: list each channel and statistic once."
    case .invalidContext(let reason):
      return "the context of recent windows is not valid: \(reason). HINT: give --context a "
        + "span of at least one hop (e.g. --context 30s), or --context 0 for none."
    case .channelMismatch(let dataset, let recipes):
      return "the dataset's channels (\(Excerpt.list(dataset))) are not the spec's "
        + "channels (\(Excerpt.list(recipes))). "
        + "HINT: load the data with the same channel recipes as the spec."
    case .windowTooLong(let n, let limit):
      return "a window of \(n) samples is longer than \(limit), the longest a model may use "
        + "(over 10 minutes at 100 Hz). HINT: use windows of seconds, e.g. --window 2.56s."
    case .sampleRateOutOfRange(let hz):
      return "a sample rate of \(hz) Hz is outside \(Limits.sampleRateHz.lowerBound)..."
        + "\(Limits.sampleRateHz.upperBound) Hz, the rates inertial sensors record at. "
        + "HINT: check the timestamps (seconds) or --sample-rate (Hz)."
    case .tooManyFeatures(let limit):
      return "the features would number more than \(limit) per window. HINT: choose fewer "
        + "channels, statistics or bands (--statistics, --spectral, --bands)."
    case .invalidRecipe(let name, let reason):
      return "channel recipe '\(Excerpt.text(name))' cannot be computed: \(reason). "
        + "HINT: re-run `motus train` with this build to write a fresh model file."
    case .nonFiniteFeature(let feature, let session, let source, let start):
      return "feature \(Excerpt.text(feature)) of the window at \(start) s in session "
        + "'\(Excerpt.text(session))' (\(source)) is NaN or infinite. HINT: the recording "
        + "holds values too large for its features; check that file's samples near that time."
    case .sampleRateMismatch(let session, let recordingHz, let specHz):
      return "recording '\(session)' is sampled at \(recordingHz) Hz, the spec at \(specHz) Hz. "
        + "HINT: resample the input to \(specHz) Hz."
    }
  }

  /// At most a dozen numbers, then how many more.
  private static func list(_ values: [Double]) -> String {
    let shown = values.prefix(12).map { "\($0)" }.joined(separator: ", ")
    return "[" + shown + (values.count > 12 ? ", and \(values.count - 12) more" : "") + "]"
  }
}
