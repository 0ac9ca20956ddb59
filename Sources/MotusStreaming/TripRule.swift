// Trips in the hidden Markov smoother: a vehicle
// trip does not end at a red light, and nobody leaves a vehicle without walking. With a
// `TripRule` the smoother's states are the classes plus one more, "stopped on a trip": it
// is entered only from automotive, its evidence is the classifier's stationary probability,
// and it is answered as automotive. It returns to automotive or leaves to another moving
// class at the usual switch probability, but it becomes stationary only slowly (a stop's
// half-life, `stopHalfLifeSeconds`): a short stop stays automotive, a long one becomes
// stationary. Entering automotive takes sustained evidence: the switch probability into it is
// `entryFactor` of the usual.

import Foundation
import MotusFeatures

/// Settings of the smoother's trips (`StreamConfiguration.trips`); hidden Markov smoothing only.
public struct TripRule: Sendable, Equatable {
  /// The half-life of a stop on a trip, s: stationary evidence right after automotive is
  /// answered automotive about this long before it is answered stationary. Default 120.
  public var stopHalfLifeSeconds: Double = 120
  /// Switch probability into automotive, as a fraction of the usual one, in (0, 1]. Default
  /// 0.2.
  public var entryFactor: Float = 0.2
  /// The classes the rule concerns.
  public var vehicleClass = "automotive"
  public var stillClass = "stationary"

  public init() {}
}

extension TripRule: CustomStringConvertible {
  public var description: String {
    "trips: stop half-life \(stopHalfLifeSeconds) s, entry \(entryFactor) of the switch "
      + "probability"
  }
}

/// A `TripRule` bound to a model: class indices and the per-hop chance that a stop ends.
public struct TripStates: Sendable, Equatable {
  public let vehicle: Int
  public let still: Int
  /// Per hop: the probability that a stop becomes stationary.
  public let stopEnds: Float
  public let entryFactor: Float

  /// nil when `rule` is nil or the model lacks either class.
  public init?(rule: TripRule?, classes: [String], spec: FeatureSpec) {
    guard let rule, let vehicle = classes.firstIndex(of: rule.vehicleClass),
      let still = classes.firstIndex(of: rule.stillClass), vehicle != still
    else { return nil }
    precondition(
      rule.stopHalfLifeSeconds > 0 && rule.entryFactor > 0 && rule.entryFactor <= 1,
      "trips need a positive half-life and an entry factor in (0, 1], got \(rule)")
    let hopSeconds = Double(spec.hopLength) / spec.sampleRateHz
    self.init(
      vehicle: vehicle, still: still,
      stopEnds: Float(1 - pow(0.5, hopSeconds / rule.stopHalfLifeSeconds)),
      entryFactor: rule.entryFactor)
  }

  public init(vehicle: Int, still: Int, stopEnds: Float, entryFactor: Float) {
    self.vehicle = vehicle
    self.still = still
    self.stopEnds = stopEnds
    self.entryFactor = entryFactor
  }
}
