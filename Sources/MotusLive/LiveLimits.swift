// What one server takes before it refuses: body size, devices, sessions, readings per second
// per device, and how long a silent session stays open.

/// Limits of a `LiveHub`; a body over one is refused (413 or 429) with the limit named.
public struct LiveLimits: Sendable, Equatable {
  /// The largest body read, in bytes.
  public var maxBodyBytes = 4 << 20
  /// Devices with an open session at once.
  public var maxDevices = 256
  /// Open sessions of one device at once.
  public var maxSessionsPerDevice = 4
  /// Readings (push) or rows (CSV) one device may send per second, averaged over
  /// `burstSeconds`.
  public var maxSamplesPerSecondPerDevice = 2_000.0
  public var burstSeconds = 5.0
  /// A session with no body for this long is closed: its last segment ends, its files are
  /// complete and its memory is returned.
  public var idleSeconds = 60.0

  public init() {}
}
