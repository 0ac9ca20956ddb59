// The hidden Markov smoother's class evidence: evidence factors (a class needs more evidence
// per window) and entry factors (a class is entered only on sustained evidence). Synthetic
// probabilities: classes stationary, walking, push-up, hops of 1.7 s, evidence weight 1/3.

import Foundation
import MotusStreaming
import XCTest

final class ClassEvidenceTests: XCTestCase {
  private let classes = ["stationary", "walking", "push-up"]

  private func smoothed(
    _ sequence: [(label: Int, hops: Int)], confidence: Float = 0.9,
    evidence: [Float]? = nil, entry: [Float]? = nil, trips: TripStates? = nil
  ) -> [[Float]] {
    var smoother = PredictionSmoother(
      smoothing: .hiddenMarkov(switchProbability: 0.05), classCount: 3, evidenceWeight: 1 / 3,
      trips: trips, entryFactors: entry, evidenceFactors: evidence)
    var out: [[Float]] = []
    for (label, hops) in sequence {
      for _ in 0..<hops {
        var p = (0..<3).map { $0 == label ? confidence : (1 - confidence) / 2 }
        p.withUnsafeMutableBufferPointer { smoother.smooth($0) }
        XCTAssertEqual(p.reduce(0, +), 1, accuracy: 1e-4)
        out.append(p)
      }
    }
    return out
  }

  private func answers(_ rows: [[Float]]) -> [Int] {
    rows.map { p in p.indices.max { p[$0] < p[$1] } ?? -1 }
  }

  /// Factors of 1 are no factors: the same numbers to the bit, on both paths.
  func testFactorsOfOne_ChangeNothing() {
    let sequence: [(label: Int, hops: Int)] = [(0, 10), (2, 8), (1, 10)]
    XCTAssertEqual(smoothed(sequence), smoothed(sequence, evidence: [1, 1, 1], entry: [1, 1, 1]))
    let trips = TripStates(vehicle: 1, still: 0, stopEnds: 0.01, entryFactor: 0.2)
    XCTAssertEqual(
      smoothed(sequence, trips: trips),
      smoothed(sequence, evidence: [1, 1, 1], entry: [1, 1, 1], trips: trips))
  }

  /// Weak push-up evidence (0.6 against 0.2 and 0.2, a window the model is unsure of) held for
  /// a whole set is answered push-up as the model gives it, and not with an evidence factor of
  /// 0.3, which needs more than the window shows; strong evidence (0.97) still wins through.
  func testEvidenceFactor_AsksMoreEvidenceOfTheClass() {
    let weak = smoothed([(0, 20), (2, 20)], confidence: 0.6)
    let weakScaled = smoothed([(0, 20), (2, 20)], confidence: 0.6, evidence: [1, 1, 0.3])
    XCTAssertEqual(answers(weak).suffix(10), Array(repeating: 2, count: 10))
    XCTAssertEqual(answers(weakScaled).filter { $0 == 2 }.count, 0)
    let strong = smoothed([(0, 20), (2, 20)], confidence: 0.97, evidence: [1, 1, 0.3])
    XCTAssertEqual(answers(strong).suffix(10), Array(repeating: 2, count: 10))
    // Every hop of the set holds less push-up probability with the factor.
    for (plain, scaled) in zip(weak.suffix(20), weakScaled.suffix(20)) {
      XCTAssertLessThan(scaled[2], plain[2])
    }
  }

  /// A three-hop blip of push-up in a still stretch is answered push-up without an entry
  /// factor, and not with one of 0.1; a set of 20 hops is entered either way, a little later.
  func testEntryFactor_ABriefBlipIsNoSet() {
    let blip: [(label: Int, hops: Int)] = [(0, 30), (2, 3), (0, 30)]
    XCTAssertGreaterThan(answers(smoothed(blip)).filter { $0 == 2 }.count, 0)
    XCTAssertEqual(answers(smoothed(blip, entry: [1, 1, 0.1])).filter { $0 == 2 }.count, 0)
    let set: [(label: Int, hops: Int)] = [(0, 30), (2, 20)]
    let plain = answers(smoothed(set)).suffix(20).filter { $0 == 2 }.count
    let slow = answers(smoothed(set, entry: [1, 1, 0.1])).suffix(20).filter { $0 == 2 }.count
    XCTAssertGreaterThan(slow, 10)
    XCTAssertLessThan(slow, plain)
  }

  /// Other smoothings ignore the factors.
  func testFactors_OnlyActWithTheHiddenMarkovFilter() {
    var plain = PredictionSmoother(smoothing: .exponential(alpha: 0.5), classCount: 3)
    var scaled = PredictionSmoother(
      smoothing: .exponential(alpha: 0.5), classCount: 3, entryFactors: [1, 1, 0.1],
      evidenceFactors: [1, 1, 0.3])
    XCTAssertEqual(scaled.evidenceFactors, [1, 1, 1])
    for p0 in [[Float](arrayLiteral: 0.2, 0.2, 0.6), [0.1, 0.1, 0.8]] {
      var a = p0
      var b = p0
      a.withUnsafeMutableBufferPointer { plain.smooth($0) }
      b.withUnsafeMutableBufferPointer { scaled.smooth($0) }
      XCTAssertEqual(a, b)
    }
  }

  /// By class name: a class the model lacks is ignored, and nothing left is no factors.
  func testClassEvidence_MapsNamesToTheModelsClasses() {
    let evidence = ClassEvidence(factors: ["push-up": 0.5, "rowing": 0.2], entryFactors: [:])
    XCTAssertEqual(evidence.evidenceFactors(classes: classes), [1, 1, 0.5])
    XCTAssertNil(evidence.evidenceFactors(classes: ["stationary", "walking"]))
    XCTAssertNil(evidence.entryFactors(classes: classes))
    XCTAssertEqual(evidence.description, "evidence push-up=0.5,rowing=0.2")
    XCTAssertEqual(ClassEvidence.neutral.description, "neutral evidence")
    XCTAssertTrue(ClassEvidence.neutral.isNeutral)
    XCTAssertFalse(ClassEvidence.standard.isNeutral)
    XCTAssertNil(evidence.invalidFactor)
    XCTAssertEqual(
      ClassEvidence(factors: [:], entryFactors: ["push-up": 0]).invalidFactor,
      "entry factor push-up=0.0")
  }
}
