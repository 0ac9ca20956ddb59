// The earbud push-up counter: a repetition is the vertical acceleration (g) falling below a
// down threshold and later rising above an up threshold, counted only while pitch (rad) is
// below the prone threshold.

/// The threshold state machine of the AirPods push-up counter, sample by sample.
public struct ThresholdPushUpCounter: Sendable, Equatable {
  public struct Thresholds: Sendable, Equatable, Codable {
    /// g; the dip starts when the acceleration falls below this.
    public var down: Float
    /// g; the push completes a repetition when the acceleration rises above this.
    public var up: Float
    /// rad; counting only while pitch is below this (facing the ground).
    public var prone: Float

    public init(down: Float, up: Float, prone: Float = -1) {
      self.down = down
      self.up = up
      self.prone = prone
    }

    /// The first guesses: -0.5 / +0.5 g.
    public static let initial = Thresholds(down: -0.5, up: 0.5)
    /// The values after trial and error: -0.7 / +0.4 g.
    public static let tuned = Thresholds(down: -0.7, up: 0.4)
  }

  public let thresholds: Thresholds
  public private(set) var count = 0
  private var inDip = false

  public init(thresholds: Thresholds) {
    precondition(
      thresholds.down < thresholds.up,
      "down threshold \(thresholds.down) must be below up threshold \(thresholds.up)")
    self.thresholds = thresholds
  }

  /// - Parameters:
  ///   - acceleration: Vertical user acceleration, g (the earbud's `userAcceleration.y`).
  ///   - pitch: rad; the prone gate.
  /// - Returns: True when this sample completes a counted repetition.
  public mutating func push(acceleration: Float, pitch: Float) -> Bool {
    if acceleration < thresholds.down && !inDip {
      inDip = true
    } else if acceleration > thresholds.up && inDip {
      inDip = false
      if pitch < thresholds.prone {
        count += 1
        return true
      }
    }
    return false
  }

  public mutating func reset() {
    count = 0
    inDip = false
  }
}
