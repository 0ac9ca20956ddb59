// Why a FeatureSpec cannot be used, with the value at fault and a hint.

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
  /// The dataset's channels are not the spec's recipe outputs.
  case channelMismatch(dataset: [String], recipes: [String])
  /// A recording is not at the spec's rate.
  case sampleRateMismatch(session: String, recordingHz: Double, specHz: Double)

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
      return "band powers need at least 2 band edges, got \(edges). "
        + "HINT: e.g. --bands 0,1,3,8."
    case .bandEdgesNotAscending(let edges):
      return "band edges must be non-negative and strictly ascending, got \(edges). "
        + "HINT: e.g. --bands 0,0.5,1,2,3,5."
    case .bandEdgeAboveNyquist(let edge, let nyquist):
      return "band edge \(edge) Hz is above the Nyquist frequency \(nyquist) Hz. "
        + "HINT: drop edges above \(nyquist) Hz, or use a higher sample rate."
    case .logPowerFloorNotPositive(let floor):
      return "the log band power floor must be finite and positive, got \(floor). "
        + "HINT: use --log-power-floor 1e-4 ((channel unit)^2), well above the sensor's noise."
    case .unknownChannel(let name, let available):
      return "channel '\(name)' is not among the channels (\(available.joined(separator: ", "))). "
        + "HINT: check the channel names of the input."
    case .vectorNotThreeAxes(let axes):
      return "a vector needs exactly 3 axes, got \(axes). HINT: list the x, y and z channels."
    case .duplicateFeatureNames:
      return "two features share a name. HINT: list each channel and statistic once."
    case .channelMismatch(let dataset, let recipes):
      return "the dataset's channels (\(dataset.joined(separator: ", "))) are not the spec's "
        + "channels (\(recipes.joined(separator: ", "))). "
        + "HINT: load the data with the same channel recipes as the spec."
    case .sampleRateMismatch(let session, let recordingHz, let specHz):
      return "recording '\(session)' is sampled at \(recordingHz) Hz, the spec at \(specHz) Hz. "
        + "HINT: resample the input to \(specHz) Hz."
    }
  }
}
