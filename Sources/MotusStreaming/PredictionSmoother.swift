// Smoothing of per-window class probabilities against flicker. K = classes.
//
// - exponential: p̄_t = a·p_t + (1 − a)·p̄_{t−1}.
// - hiddenMarkov: the forward pass of a hidden Markov model whose state is the activity. The
//   transition matrix keeps the class with probability 1 − s and moves to each other class
//   with s / (K − 1); the classifier's calibrated probabilities act as the emission
//   likelihoods (up to a constant). Each step is O(K) because the transition is uniform
//   off the diagonal:  b_t(k) ∝ p_t(k)^w · ((1 − s)·b_{t−1}(k) + s/(K−1)·(1 − b_{t−1}(k))).
//   The evidence weight w is the model's hop / window (`FeatureSpec.evidenceWeight`): windows
//   a third of a window apart see every sample three times, and taking each as independent
//   evidence made the filter certain three times too fast (w = 1: the filter before).
//   With trips (`TripRule`) the filter has one more state, a stop on a trip, and a full
//   transition matrix (O(K²) per step): see TripRule.swift.

import Foundation

/// How predictions are smoothed over time.
public enum Smoothing: Codable, Sendable, Equatable {
  case none
  /// Exponential averaging with weight `alpha` in (0, 1] on the newest probabilities.
  case exponential(alpha: Float)
  /// Forward filtering with class-switch probability `switchProbability` in (0, 1).
  case hiddenMarkov(switchProbability: Float)
}

extension Smoothing: CustomStringConvertible {
  /// As the command line spells it: `none`, `ema alpha=0.5`, `hmm switch-probability=0.05`.
  public var description: String {
    switch self {
    case .none: "none"
    case .exponential(let alpha): "ema alpha=\(alpha)"
    case .hiddenMarkov(let s): "hmm switch-probability=\(s)"
    }
  }
}

/// Applies a `Smoothing` to a stream of probability vectors, in place, without allocating.
public struct PredictionSmoother: Sendable {
  public let smoothing: Smoothing
  /// The exponent of each window's probabilities in the hidden Markov filter, in (0, 1].
  public let evidenceWeight: Float
  /// The trip states, with hidden Markov smoothing only (nil otherwise).
  public let trips: TripStates?
  private var state: [Float]
  private var hasState = false
  // With trips: the (K + 1)² transition matrix and the prior of each state.
  private var transitions: [Float] = []
  private var prior: [Float] = []

  /// - Parameters:
  ///   - evidenceWeight: See the file's header; 1 counts every window in full.
  ///   - trips: A stop state for the vehicle class (`TripRule`); used with hidden Markov
  ///     smoothing, ignored otherwise.
  public init(
    smoothing: Smoothing, classCount: Int, evidenceWeight: Float = 1, trips: TripStates? = nil
  ) {
    precondition(
      evidenceWeight > 0 && evidenceWeight <= 1, "evidenceWeight must be in (0, 1], got \(evidenceWeight)")
    self.evidenceWeight = evidenceWeight
    switch smoothing {
    case .none: break
    case .exponential(let alpha):
      precondition(alpha > 0 && alpha <= 1, "alpha must be in (0, 1], got \(alpha)")
    case .hiddenMarkov(let s):
      precondition(s > 0 && s < 1, "switchProbability must be in (0, 1), got \(s)")
    }
    self.smoothing = smoothing
    if case .hiddenMarkov(let s) = smoothing, let trips, classCount > 1 {
      self.trips = trips
      transitions = trips.transitions(classCount: classCount, switchProbability: s)
      prior = [Float](repeating: 0, count: classCount + 1)
      state = [Float](repeating: 0, count: classCount + 1)
    } else {
      self.trips = nil
      state = [Float](repeating: 0, count: classCount)
    }
  }

  public mutating func reset() { hasState = false }

  /// Replaces `probabilities` (one per class, summing to 1) with the smoothed vector.
  public mutating func smooth(_ probabilities: UnsafeMutableBufferPointer<Float>) {
    let k = trips == nil ? state.count : state.count - 1
    precondition(probabilities.count == k, "expected \(k) probabilities")
    if case .hiddenMarkov = smoothing, evidenceWeight != 1 {
      // Tempered evidence, renormalised: the first window's answer is tempered as well.
      var total: Float = 0
      for i in 0..<k {
        let p = probabilities[i]
        probabilities[i] = p > 0 ? Float(pow(Double(p), Double(evidenceWeight))) : 0
        total += probabilities[i]
      }
      if total > 0 && total.isFinite { for i in 0..<k { probabilities[i] /= total } }
    }
    guard hasState else {
      for i in 0..<k { state[i] = probabilities[i] }
      if trips != nil { state[k] = 0 }
      hasState = true
      return
    }
    if let trips {
      filterWithTrips(probabilities, trips: trips)
      return
    }
    switch smoothing {
    case .none:
      return
    case .exponential(let alpha):
      for i in 0..<k {
        state[i] = alpha * probabilities[i] + (1 - alpha) * state[i]
        probabilities[i] = state[i]
      }
    case .hiddenMarkov(let s):
      let move = k > 1 ? s / Float(k - 1) : 0
      var total: Float = 0
      for i in 0..<k {
        let prior = (1 - s) * state[i] + move * (1 - state[i])
        state[i] = probabilities[i] * prior
        total += state[i]
      }
      // All-zero evidence (impossible under the model) restarts from the raw probabilities.
      if !(total > 0) || !total.isFinite {
        for i in 0..<k { state[i] = probabilities[i] }
        return
      }
      for i in 0..<k {
        state[i] /= total
        probabilities[i] = state[i]
      }
    }
  }

  /// One forward step over the classes and the stop: the stop's evidence is the still class's
  /// probability, and it is answered as the vehicle class.
  private mutating func filterWithTrips(
    _ probabilities: UnsafeMutableBufferPointer<Float>, trips: TripStates
  ) {
    let k = probabilities.count
    let n = k + 1
    for to in 0..<n {
      var sum: Float = 0
      for from in 0..<n { sum += state[from] * transitions[from * n + to] }
      prior[to] = sum
    }
    var total: Float = 0
    for i in 0..<n {
      state[i] = (i == k ? probabilities[trips.still] : probabilities[i]) * prior[i]
      total += state[i]
    }
    if !(total > 0) || !total.isFinite {
      for i in 0..<k { state[i] = probabilities[i] }
      state[k] = 0
      return
    }
    for i in 0..<n { state[i] /= total }
    for i in 0..<k { probabilities[i] = state[i] }
    probabilities[trips.vehicle] += state[k]
  }
}
