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
//   transition matrix (O(K²) per step): see TripRule.swift. Entry factors below 1 (a class
//   that is entered only on sustained evidence, such as a push-up set) also take the full
//   matrix: the switch probability into class k is s / (K − 1) times its factor. Evidence
//   factors scale a class's probability in every window before it is weighed (then
//   renormalised): a prior that asks more evidence of a class the training weighed up.

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
  /// Per class, the switch probability into it as a fraction of the usual, in (0, 1]; hidden
  /// Markov smoothing only (all 1 otherwise).
  public let entryFactors: [Float]
  /// Per class, the factor on each window's probability before it is weighed, in (0, 1];
  /// hidden Markov smoothing only (all 1 otherwise).
  public let evidenceFactors: [Float]
  private let scalesEvidence: Bool
  private var state: [Float]
  private var hasState = false
  // With trips or entry factors: the full transition matrix (K + 1 states with trips, K
  // without) and the prior of each state; empty on the O(K) path.
  private var transitions: [Float] = []
  private var prior: [Float] = []

  /// - Parameters:
  ///   - evidenceWeight: See the file's header; 1 counts every window in full.
  ///   - trips: A stop state for the vehicle class (`TripRule`); used with hidden Markov
  ///     smoothing, ignored otherwise.
  ///   - entryFactors: Per class, the switch probability into it as a fraction of the usual,
  ///     in (0, 1] (nil: 1 for every class); used with hidden Markov smoothing only.
  ///   - evidenceFactors: Per class, the factor on each window's probability, in (0, 1] (nil: 1
  ///     for every class); used with hidden Markov smoothing only.
  public init(
    smoothing: Smoothing, classCount: Int, evidenceWeight: Float = 1, trips: TripStates? = nil,
    entryFactors: [Float]? = nil, evidenceFactors: [Float]? = nil
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
    for (name, factors) in [("entryFactors", entryFactors), ("evidenceFactors", evidenceFactors)] {
      guard let factors else { continue }
      precondition(
        factors.count == classCount && factors.allSatisfy { $0 > 0 && $0 <= 1 },
        "\(name) needs one factor in (0, 1] per class, got \(factors)")
    }
    self.smoothing = smoothing
    let ones = [Float](repeating: 1, count: classCount)
    guard case .hiddenMarkov(let s) = smoothing, classCount > 1 else {
      self.trips = nil
      self.entryFactors = ones
      self.evidenceFactors = ones
      scalesEvidence = false
      state = [Float](repeating: 0, count: classCount)
      return
    }
    self.trips = trips
    self.entryFactors = entryFactors ?? ones
    self.evidenceFactors = evidenceFactors ?? ones
    scalesEvidence = self.evidenceFactors.contains { $0 != 1 }
    let states = trips == nil ? classCount : classCount + 1
    state = [Float](repeating: 0, count: states)
    if trips != nil || self.entryFactors.contains(where: { $0 != 1 }) {
      transitions = Self.transitions(
        classCount: classCount, switchProbability: s, entryFactors: self.entryFactors,
        trips: trips)
      prior = [Float](repeating: 0, count: states)
    }
  }

  /// The transition matrix over `classCount` classes and, with trips, the stop (last state),
  /// row-major `from * states + to`; `s` is the class-switch probability.
  static func transitions(
    classCount k: Int, switchProbability s: Float, entryFactors: [Float], trips: TripStates?
  ) -> [Float] {
    let n = trips == nil ? k : k + 1
    let move = k > 1 ? s / Float(k - 1) : 0
    var t = [Float](repeating: 0, count: n * n)
    for from in 0..<n {
      for to in 0..<k where to != from {
        var factor = entryFactors[to]
        if let trips, to == trips.vehicle, from != k { factor *= trips.entryFactor }
        t[from * n + to] = move * factor
      }
    }
    if let trips {
      // A vehicle stops rather than becoming stationary; only a stop becomes stationary,
      // slowly, and a stop resumes the trip at the usual switch probability.
      let stop = k
      t[trips.vehicle * n + stop] = t[trips.vehicle * n + trips.still]
      t[trips.vehicle * n + trips.still] = 0
      t[stop * n + trips.still] = trips.stopEnds
      t[stop * n + trips.vehicle] = s
    }
    for from in 0..<n {
      var leaving: Float = 0
      for to in 0..<n where to != from { leaving += t[from * n + to] }
      t[from * n + from] = max(0, 1 - leaving)
    }
    return t
  }

  public mutating func reset() { hasState = false }

  /// Replaces `probabilities` (one per class, summing to 1) with the smoothed vector.
  public mutating func smooth(_ probabilities: UnsafeMutableBufferPointer<Float>) {
    let k = entryFactors.count
    precondition(probabilities.count == k, "expected \(k) probabilities")
    if scalesEvidence {
      var total: Float = 0
      for i in 0..<k {
        probabilities[i] *= evidenceFactors[i]
        total += probabilities[i]
      }
      if total > 0 && total.isFinite { for i in 0..<k { probabilities[i] /= total } }
    }
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
    if !transitions.isEmpty {
      filterWithMatrix(probabilities)
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

  /// One forward step over the full matrix. With trips the stop's evidence is the still class's
  /// probability, and it is answered as the vehicle class.
  private mutating func filterWithMatrix(_ probabilities: UnsafeMutableBufferPointer<Float>) {
    let k = probabilities.count
    let n = state.count
    for to in 0..<n {
      var sum: Float = 0
      for from in 0..<n { sum += state[from] * transitions[from * n + to] }
      prior[to] = sum
    }
    var total: Float = 0
    for i in 0..<n {
      state[i] = (i == k ? probabilities[trips?.still ?? 0] : probabilities[i]) * prior[i]
      total += state[i]
    }
    if !(total > 0) || !total.isFinite {
      for i in 0..<k { state[i] = probabilities[i] }
      if n > k { state[k] = 0 }
      return
    }
    for i in 0..<n { state[i] /= total }
    for i in 0..<k { probabilities[i] = state[i] }
    if let trips { probabilities[trips.vehicle] += state[k] }
  }
}
