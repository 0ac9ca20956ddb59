// Simulated device changes: parsing, and what a rotation, gain and noise must and must not
// change. Recordings are synthetic.

import Foundation
import MotusData
import MotusIngest
import XCTest

final class DevicePerturbationTests: XCTestCase {
  private let channels = [
    "acceleration.x", "acceleration.y", "acceleration.z", "|acceleration|",
    "gravity.x", "gravity.y", "gravity.z", "attitude.roll",
  ]

  private func recording(seed: UInt64 = 3, n: Int = 200) -> Recording {
    var generator = SplitMix64(seed: seed)
    var columns = (0..<8).map { _ in (0..<n).map { _ in Float(generator.gaussian()) } }
    for t in 0..<n {
      let (x, y, z) = (columns[0][t], columns[1][t], columns[2][t])
      columns[3][t] = (x * x + y * y + z * z).squareRoot()
    }
    return Recording(
      session: "s", subject: "1", source: "synthetic", timestamps: (0..<n).map { Double($0) },
      columns: columns, labelIndices: [Int32](repeating: 0, count: n), sampleRateHz: 1)
  }

  func testParsing_RoundTripsAndRejectsBadItems() throws {
    let p = try DevicePerturbation(parsing: "noise=0.01, rotation=180,gain=0.1")
    XCTAssertEqual(p, DevicePerturbation(maxRotationDegrees: 180, gainSpread: 0.1, noiseStandardDeviation: 0.01))
    XCTAssertEqual(try DevicePerturbation(parsing: p.description), p)
    XCTAssertFalse(p.description.contains("sway"))  // earlier model files keep their text
    let swaying = try DevicePerturbation(parsing: "sway=2.5,rotation=10")
    XCTAssertEqual(swaying, DevicePerturbation(maxRotationDegrees: 10, maxSwayDegrees: 2.5))
    XCTAssertEqual(try DevicePerturbation(parsing: swaying.description), swaying)
    for bad in ["rotation", "spin=3", "gain=1", "noise=-1", "rotation=nan", "sway=60"] {
      XCTAssertThrowsError(try DevicePerturbation(parsing: bad), bad) { error in
        XCTAssertTrue("\(error)".contains("HINT"), "\(error)")
      }
    }
  }

  func testRotation_KeepsMagnitudesAndAnglesBetweenVectors() {
    let original = recording()
    let p = DevicePerturbation(maxRotationDegrees: 180)
    let turned = p.apply(to: original, channels: channels, seed: 9)
    XCTAssertNotEqual(turned.columns[0], original.columns[0])
    for t in 0..<original.sampleCount {
      func vector(_ r: Recording, _ first: Int) -> [Float] { (first..<first + 3).map { r.columns[$0][t] } }
      func dot(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map(*).reduce(0, +) }
      let (a0, g0) = (vector(original, 0), vector(original, 4))
      let (a1, g1) = (vector(turned, 0), vector(turned, 4))
      XCTAssertEqual(turned.columns[3][t], original.columns[3][t], accuracy: 1e-4)
      XCTAssertEqual(dot(a1, a1).squareRoot(), turned.columns[3][t], accuracy: 1e-4)
      XCTAssertEqual(dot(a1, g1), dot(a0, g0), accuracy: 1e-3)  // one frame for all sensors
    }
    XCTAssertEqual(turned.columns[7], original.columns[7])  // attitude left alone
  }

  func testGain_ScalesEveryVectorByOneFactorWithinTheSpread() {
    let original = recording()
    let turned = DevicePerturbation(gainSpread: 0.2).apply(
      to: original, channels: channels, seed: 5)
    let ratio = turned.columns[3][0] / original.columns[3][0]
    XCTAssertTrue((0.8...1.2).contains(ratio), "\(ratio)")
    XCTAssertNotEqual(ratio, 1, accuracy: 1e-6)
    for t in 0..<original.sampleCount {
      XCTAssertEqual(turned.columns[3][t], ratio * original.columns[3][t], accuracy: 1e-4)
      XCTAssertEqual(turned.columns[4][t], ratio * original.columns[4][t], accuracy: 1e-4)
    }
  }

  func testNoise_StaysBelowTheLimitAndDiffersPerRecording() {
    let original = recording(n: 4000)
    let p = DevicePerturbation(noiseStandardDeviation: 0.05)
    var levels: [Double] = []
    for seed: UInt64 in [1, 2, 3] {
      let noisy = p.apply(to: original, channels: channels, seed: seed)
      let d = zip(noisy.columns[0], original.columns[0]).map { Double($0 - $1) }
      levels.append((d.map { $0 * $0 }.reduce(0, +) / Double(d.count)).squareRoot())
    }
    XCTAssertTrue(levels.allSatisfy { $0 < 0.05 * 1.05 }, "\(levels)")
    XCTAssertGreaterThan(Set(levels.map { ($0 * 1e4).rounded() }).count, 1, "\(levels)")
  }

  func testSway_TiltsSlowlyWithinTheLevelAndKeepsMagnitudes() {
    // A phone at rest for 200 s at 10 Hz: the wobble must move gravity off its axis by a few
    // degrees RMS, slowly, without changing its length.
    let n = 2000
    let still = Recording(
      session: "s", subject: "1", source: "synthetic",
      timestamps: (0..<n).map { Double($0) / 10 },
      columns: [[Float](repeating: 0, count: n), [Float](repeating: 0, count: n),
        [Float](repeating: -1, count: n), [Float](repeating: 1, count: n)],
      labelIndices: [Int32](repeating: 0, count: n), sampleRateHz: 10)
    let vectorChannels = Array(channels.prefix(4))
    var rmsDegrees: [Double] = []
    for seed: UInt64 in 1...8 {
      let r = DevicePerturbation(maxSwayDegrees: 4).apply(
        to: still, channels: vectorChannels, seed: seed)
      var sumSquares = 0.0, largestStep = 0.0
      for t in 0..<n {
        let (x, y, z) = (Double(r.columns[0][t]), Double(r.columns[1][t]), Double(r.columns[2][t]))
        XCTAssertEqual((x * x + y * y + z * z).squareRoot(), 1, accuracy: 1e-5)
        XCTAssertEqual(Double(r.columns[3][t]), 1, accuracy: 1e-5)
        let tilt = acos(min(1, -z)) * 180 / .pi
        sumSquares += tilt * tilt
        if t > 0 {
          largestStep = max(largestStep, abs(Double(r.columns[0][t] - r.columns[0][t - 1])))
        }
      }
      rmsDegrees.append((sumSquares / Double(n)).squareRoot())
      // At most 0.5 Hz: three sinusoids of at most 4 * sqrt(2/9) degrees move an axis by
      // under 0.035 g in 0.1 s; a wobble redrawn per sample would jump about 0.1 g.
      XCTAssertLessThan(largestStep, 0.035, "seed \(seed)")
    }
    XCTAssertTrue(rmsDegrees.allSatisfy { $0 < 4 * 1.6 }, "\(rmsDegrees)")
    XCTAssertGreaterThan(rmsDegrees.max()!, 1, "\(rmsDegrees)")
    XCTAssertGreaterThan(Set(rmsDegrees.map { ($0 * 100).rounded() }).count, 4, "\(rmsDegrees)")
  }

  func testApply_IsDeterministicPerSeedAndIdentityLeavesDataAlone() {
    let dataset = Dataset(channels: channels, labels: ["a"], recordings: [recording(), recording(seed: 4)])
    let p = DevicePerturbation(maxRotationDegrees: 30, gainSpread: 0.1, noiseStandardDeviation: 0.01)
    XCTAssertEqual(p.apply(to: dataset, seed: 7), p.apply(to: dataset, seed: 7))
    XCTAssertNotEqual(p.apply(to: dataset, seed: 7), p.apply(to: dataset, seed: 8))
    XCTAssertEqual(DevicePerturbation().apply(to: dataset, seed: 7), dataset)
  }

  func testSmallRotationLimit_BoundsTheAngle() {
    let original = recording()
    let turned = DevicePerturbation(maxRotationDegrees: 10).apply(
      to: original, channels: channels, seed: 2)
    for t in 0..<20 {
      let a = (0..<3).map { Double(original.columns[$0][t]) }
      let b = (0..<3).map { Double(turned.columns[$0][t]) }
      let dot: Double = zip(a, b).map(*).reduce(0, +)
      let aa: Double = a.map { $0 * $0 }.reduce(0, +)
      let bb: Double = b.map { $0 * $0 }.reduce(0, +)
      let cosine = dot / (aa * bb).squareRoot()
      XCTAssertLessThanOrEqual(acos(min(1, cosine)) * 180 / .pi, 10.01)
    }
  }
}
