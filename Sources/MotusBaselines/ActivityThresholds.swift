// Hand-written activity rules on four window statistics of acceleration (g, Hz): the kind of
// classifier apps write before they train one. Classes: the six of datasets/six-class.json.

/// The six classes the rules can return, with the manifest's label names.
public enum ThresholdActivity: String, CaseIterable, Sendable, Codable {
  case stationary, walking, running, cycling, automotive
  case pushUp = "push-up"
}

/// Statistics of one window, computed by `ThresholdActivityClassifier`.
public struct ActivityWindowStatistics: Sendable, Equatable {
  /// Standard deviation of the smoothed |acceleration| (g): body movement below ~3 Hz.
  public var motionStd: Float
  /// RMS of |acceleration| minus its smoothed value (g): vibration above ~3 Hz.
  public var vibrationRMS: Float
  /// Steps (or pedal strokes) per second: half the crossings of the smoothed magnitude
  /// about its mean, with hysteresis.
  public var cadenceHz: Float
  /// |g_z| / |g| of the gravity estimate: 1 when the sensor's z axis is vertical.
  public var tilt: Float

  public init(motionStd: Float, vibrationRMS: Float, cadenceHz: Float, tilt: Float) {
    self.motionStd = motionStd
    self.vibrationRMS = vibrationRMS
    self.cadenceHz = cadenceHz
    self.tilt = tilt
  }
}

/// The cut-offs of the rules, in order of evaluation:
/// 1. `tilt > pushUpTilt` and `motionStd > stillStd` -> push-up (torso horizontal, moving);
/// 2. `motionStd < stillStd` -> automotive when `vibrationRMS > vibrationRMS`, else stationary;
/// 3. `cadenceHz >= stepCadence` -> running when `cadenceHz >= runCadence` or
///    `motionStd >= runStd`, else walking;
/// 4. otherwise cycling (moving without a step rhythm).
public struct ActivityThresholds: Sendable, Equatable, Codable {
  /// g.
  public var stillStd: Float
  /// g.
  public var vibrationRMS: Float
  /// Hz.
  public var stepCadence: Float
  /// Hz.
  public var runCadence: Float
  /// g.
  public var runStd: Float
  /// Dimensionless, in [0, 1].
  public var pushUpTilt: Float

  public init(
    stillStd: Float, vibrationRMS: Float, stepCadence: Float, runCadence: Float, runStd: Float,
    pushUpTilt: Float
  ) {
    self.stillStd = stillStd
    self.vibrationRMS = vibrationRMS
    self.stepCadence = stepCadence
    self.runCadence = runCadence
    self.runStd = runStd
    self.pushUpTilt = pushUpTilt
  }

  /// Typical published figures, not fitted to any data here:
  /// - still: |a| standard deviation under 0.02 g (a phone at rest shows ~0.005 g of noise;
  ///   hand-held or pocket fidgeting stays under ~0.02 g);
  /// - vehicle vibration: 0.01 g RMS above 3 Hz (road vibration in cars and buses is
  ///   0.01-0.1 g);
  /// - gait: walking cadence 1.4-2.3 steps/s (85-140 steps/min), running from 2.5 steps/s
  ///   (150+ steps/min); running swings |a| by more than 0.4 g standard deviation;
  /// - push-up: the seed's prone gate, pitch below -1 rad, i.e. tilt above sin(1) = 0.84.
  public static let typical = ActivityThresholds(
    stillStd: 0.02, vibrationRMS: 0.01, stepCadence: 1.4, runCadence: 2.5, runStd: 0.4,
    pushUpTilt: 0.84)

  /// Applies the rules.
  public func classify(_ s: ActivityWindowStatistics) -> ThresholdActivity {
    if s.tilt > pushUpTilt && s.motionStd > stillStd { return .pushUp }
    if s.motionStd < stillStd { return s.vibrationRMS > vibrationRMS ? .automotive : .stationary }
    if s.cadenceHz >= stepCadence {
      return s.cadenceHz >= runCadence || s.motionStd >= runStd ? .running : .walking
    }
    return .cycling
  }

  /// Names and key paths of the tunable cut-offs, for the grid search.
  public static var parameters: [(name: String, keyPath: WritableKeyPath<ActivityThresholds, Float>)] {
    [
      ("stillStd", \.stillStd), ("vibrationRMS", \.vibrationRMS),
      ("stepCadence", \.stepCadence), ("runCadence", \.runCadence), ("runStd", \.runStd),
      ("pushUpTilt", \.pushUpTilt),
    ]
  }
}
