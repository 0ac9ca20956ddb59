// How much evidence the hidden Markov smoother asks of each class, beyond its switch
// probability. Training weighs the small classes up (balanced^0.9 class weights make a push-up
// window weigh about 40 everyday ones) so that they are learnt at all; in a stream of everyday
// life push-ups are rare, and that weight shows as push-up answers over lunch and in cars. An
// evidence factor takes part of it back at answer time (the prior shift of Saerens, Latinne and
// Decaestecker, "Adjusting the outputs of a classifier to new a priori probabilities", 2002):
// each window's probability of the class is multiplied by it before the smoother weighs the
// window. An entry factor is structure: a push-up set lasts, so the switch probability into
// the class is a fraction of the usual and a stray window or two does not enter it.

import MotusFeatures

/// Per-class evidence settings of the hidden Markov smoother (`StreamConfiguration.evidence`).
/// Classes a model does not have are ignored.
public struct ClassEvidence: Sendable, Equatable, Codable {
  /// Class name -> factor in (0, 1] on each window's probability of the class.
  public var factors: [String: Float]
  /// Class name -> the switch probability into the class as a fraction of the usual, in (0, 1].
  public var entryFactors: [String: Float]

  public init(factors: [String: Float] = [:], entryFactors: [String: Float] = [:]) {
    self.factors = factors
    self.entryFactors = entryFactors
  }

  /// The stream's default, chosen on the transfer table and on held-out people for recall and
  /// false alarms together (docs/measurements.md, "Push-up sets in the smoother"): entering
  /// push-up takes sustained evidence; no class's evidence is scaled.
  public static let standard = ClassEvidence(entryFactors: ["push-up": 0.2])
  /// Every class as the model gives it.
  public static let neutral = ClassEvidence()

  public var isNeutral: Bool {
    factors.values.allSatisfy { $0 == 1 } && entryFactors.values.allSatisfy { $0 == 1 }
  }

  /// Whether a factor other than 1 names one of `classes`.
  public func acts(on classes: [String]) -> Bool {
    evidenceFactors(classes: classes) != nil || entryFactors(classes: classes) != nil
  }

  /// `factors` in `classes` order (1 for a class not named); nil when every one is 1.
  public func evidenceFactors(classes: [String]) -> [Float]? {
    Self.perClass(factors, classes: classes)
  }

  /// `entryFactors` in `classes` order (1 for a class not named); nil when every one is 1.
  public func entryFactors(classes: [String]) -> [Float]? {
    Self.perClass(entryFactors, classes: classes)
  }

  private static func perClass(_ table: [String: Float], classes: [String]) -> [Float]? {
    let factors = classes.map { table[$0] ?? 1 }
    return factors.allSatisfy { $0 == 1 } ? nil : factors
  }

  /// The first factor outside (0, 1], named, or nil when all are valid.
  public var invalidFactor: String? {
    for (kind, table) in [("evidence", factors), ("entry", entryFactors)] {
      for (name, value) in table.sorted(by: { $0.key < $1.key }) where !(value > 0 && value <= 1) {
        return "\(kind) factor \(name)=\(value)"
      }
    }
    return nil
  }
}

extension ClassEvidence: CustomStringConvertible {
  /// `evidence push-up=0.5, entry push-up=0.2`, or `neutral evidence`.
  public var description: String {
    if isNeutral { return "neutral evidence" }
    return [
      ("evidence", Self.listing(factors.filter { $0.value != 1 })),
      ("entry", Self.listing(entryFactors.filter { $0.value != 1 })),
    ].filter { !$0.1.isEmpty }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
  }

  /// `table` as the flags spell it, by class name: `automotive=0.9,push-up=0.5` ("" if empty).
  public static func listing(_ table: [String: Float]) -> String {
    table.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
  }
}

extension PredictionSmoother {
  /// A smoother with a stream's trips and class evidence for a model of `classes`.
  public init(
    smoothing: Smoothing, classes: [String], spec: FeatureSpec, trips: TripRule?,
    evidence: ClassEvidence
  ) {
    // A library caller's mistake, as a bad trip rule is; the command line refuses it first.
    precondition(evidence.invalidFactor == nil, "\(evidence.invalidFactor ?? "")")
    self.init(
      smoothing: smoothing, classCount: classes.count, evidenceWeight: spec.evidenceWeight,
      trips: TripStates(rule: trips, classes: classes, spec: spec),
      entryFactors: evidence.entryFactors(classes: classes),
      evidenceFactors: evidence.evidenceFactors(classes: classes))
  }
}
