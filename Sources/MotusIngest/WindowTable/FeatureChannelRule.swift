import MotusData
import MotusFeatures

/// Which channels get features when `FeatureChoice.featureChannels` is not given.
public enum FeatureChannelRule: String, Codable, Sendable, CaseIterable {
  /// Every loaded channel gets features, axes included.
  case all
  /// Only channels that do not change when the sensor is worn another way round: magnitudes
  /// (`|acceleration|`) and the vertical and horizontal parts of every 3-axis vector except
  /// gravity (split along the window's mean gravity). Per-axis channels, gravity and attitude
  /// angles still feed magnitudes and the split, but get no features of their own.
  case orientationFree = "orientation-free"
}
