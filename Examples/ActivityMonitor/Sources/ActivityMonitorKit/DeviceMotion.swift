/// One Core Motion sample, with the fields of `CMDeviceMotion` an activity model can use.
///
/// On iOS, build it from `CMDeviceMotion` (see `README.md`); elsewhere, from any recording that
/// carries the same quantities in Core Motion's units and sign: g for accelerations, rad/s for
/// rotation rates, radians for attitude, and a phone lying face up reading gravity z = -1.
public struct DeviceMotion: Sendable, Equatable {
  public struct Vector: Sendable, Equatable {
    public var x, y, z: Double
    public init(x: Double, y: Double, z: Double) { (self.x, self.y, self.z) = (x, y, z) }
  }
  public struct Attitude: Sendable, Equatable {
    public var roll, pitch, yaw: Double
    public init(roll: Double, pitch: Double, yaw: Double) {
      (self.roll, self.pitch, self.yaw) = (roll, pitch, yaw)
    }
  }

  /// Seconds on a monotonic clock (`CMLogItem.timestamp`).
  public var timestamp: Double
  public var userAcceleration: Vector
  public var gravity: Vector
  public var rotationRate: Vector
  public var attitude: Attitude

  public init(
    timestamp: Double, userAcceleration: Vector, gravity: Vector, rotationRate: Vector,
    attitude: Attitude
  ) {
    self.timestamp = timestamp
    self.userAcceleration = userAcceleration
    self.gravity = gravity
    self.rotationRate = rotationRate
    self.attitude = attitude
  }

  /// Core Motion's channel names, in the order `write(into:)` fills them.
  static let channelNames = [
    "userAcceleration.x", "userAcceleration.y", "userAcceleration.z",
    "gravity.x", "gravity.y", "gravity.z",
    "rotationRate.x", "rotationRate.y", "rotationRate.z",
    "attitude.roll", "attitude.pitch", "attitude.yaw",
  ]

  /// Fills `values` in `channelNames` order without allocating: called once per sample.
  func write(into values: UnsafeMutableBufferPointer<Double>) {
    values[0] = userAcceleration.x
    values[1] = userAcceleration.y
    values[2] = userAcceleration.z
    values[3] = gravity.x
    values[4] = gravity.y
    values[5] = gravity.z
    values[6] = rotationRate.x
    values[7] = rotationRate.y
    values[8] = rotationRate.z
    values[9] = attitude.roll
    values[10] = attitude.pitch
    values[11] = attitude.yaw
  }
}
