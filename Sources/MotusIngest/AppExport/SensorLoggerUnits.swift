// Sensor Logger's units and signs per sensor and platform, in one place: the export reader
// (a file per sensor) and the live push (a `name` per reading) convert by the same rule.

/// How one Sensor Logger sensor becomes a Motus channel group.
public struct SensorLoggerConversion: Sendable, Equatable {
  /// The export's file name (`Accelerometer.csv`).
  public let file: String
  /// The push's reading name (`accelerometer`): the file name lowercased, without `.csv`.
  public var pushName: String { String(file.dropLast(4)).lowercased() }
  /// The channel group it gives (`userAcceleration`).
  public let group: String
  /// What each value is multiplied by (m/s² to g, Android's sign flipped).
  public let scale: Double
  /// The conversion in words, for notes.
  public let text: String

  /// The motion sensors Motus reads, in the platform's units and sign: iOS gives m/s² in Core
  /// Motion's sign (AccelerometerUncalibrated in g), Android m/s² with +9.81 on the axis
  /// pointing up (negated here). Gyroscope is rad/s on both.
  public static func all(android: Bool) -> [SensorLoggerConversion] {
    let g = standardGravity
    let toG = android ? -1 / g : 1 / g
    let text = android ? "m/s² -> g, Android sign negated" : "m/s² -> g"
    return [
      .init(file: "Accelerometer.csv", group: "userAcceleration", scale: toG, text: text),
      .init(file: "Gravity.csv", group: "gravity", scale: toG, text: text),
      .init(file: "Gyroscope.csv", group: "rotationRate", scale: 1, text: "rad/s as is"),
      android
        ? .init(
          file: "TotalAcceleration.csv", group: "acceleration", scale: -1 / g,
          text: "m/s² -> g, Android sign negated")
        : .init(
          file: "AccelerometerUncalibrated.csv", group: "acceleration", scale: 1, text: "g as is"),
    ]
  }
}
