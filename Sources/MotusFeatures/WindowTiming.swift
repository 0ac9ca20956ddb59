// A window's length and hop in seconds, derived once from their lengths in samples and the
// sample rate, for every type that describes windows (`FeatureSpec`, an evaluation's result).

/// Windows of `windowLength` samples starting every `hopLength` samples, at `sampleRateHz`.
public protocol WindowTiming {
  var windowLength: Int { get }
  var hopLength: Int { get }
  var sampleRateHz: Double { get }
}

extension WindowTiming {
  /// The window's duration, `windowLength / sampleRateHz`.
  public var windowSeconds: Double { Double(windowLength) / sampleRateHz }
  /// The time between window starts, `hopLength / sampleRateHz`.
  public var hopSeconds: Double { Double(hopLength) / sampleRateHz }
}

extension FeatureSpec: WindowTiming {}
