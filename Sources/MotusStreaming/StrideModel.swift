// Distance from steps: steps times a step length. An estimate, not a measurement: a step's
// length varies with the person, the speed and the ground, and nothing here sees position.

/// How long one step is, set by the user or estimated from their height and cadence.
public struct StrideModel: Sendable, Equatable {
  /// A fixed step length in metres (one foot to the other, half a stride).
  public var stepLengthMeters: Double?
  /// The person's height in metres, used when no step length is set.
  public var heightMeters: Double?

  public init(stepLengthMeters: Double? = nil, heightMeters: Double? = nil) {
    self.stepLengthMeters = stepLengthMeters
    self.heightMeters = heightMeters
  }

  /// Whether distance can be estimated at all.
  public var isSet: Bool { stepLengthMeters != nil || heightMeters != nil }

  /// Metres per step at `cadence` (steps/min): the set length, or from height 0.415 x height
  /// up to 140 steps/min (the walking ratio step trackers use), rising linearly to
  /// 0.65 x height at 180 steps/min and above (running strides lengthen with speed).
  public func stepLength(cadence: Double) -> Double? {
    if let stepLengthMeters { return stepLengthMeters }
    guard let heightMeters else { return nil }
    let running = min(1, max(0, (cadence - 140) / 40))
    return heightMeters * (0.415 + running * (0.65 - 0.415))
  }
}
