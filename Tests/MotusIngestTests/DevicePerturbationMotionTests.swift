// The wearer's side of a simulated device change: `intensity=` (motion scaled about the slow
// part of each vector) and `tempo=` (the recording played faster or slower). Parsing, what each
// must change and keep, and that perturbations without them draw and give what they did
// before. Recordings are synthetic.

import Foundation
@testable import MotusIngest
import XCTest

@testable import MotusData

final class DevicePerturbationMotionTests: XCTestCase {
  private let channels = [
    "acceleration.x", "acceleration.y", "acceleration.z", "|acceleration|",
    "gravity.x", "gravity.y", "gravity.z", "attitude.roll",
  ]

  // MARK: Parsing

  func testParsing_IntensityAndTempoRoundTrip() throws {
    let p = try DevicePerturbation(parsing: "tempo=0.2, intensity=0.3,rotation=90")
    XCTAssertEqual(
      p, DevicePerturbation(maxRotationDegrees: 90, intensitySpread: 0.3, tempoSpread: 0.2))
    XCTAssertEqual(p.description, "rotation=90,gain=0,noise=0,intensity=0.3,tempo=0.2")
    XCTAssertEqual(try DevicePerturbation(parsing: p.description), p)
    XCTAssertFalse(p.isIdentity)
    XCTAssertFalse(DevicePerturbation(intensitySpread: 0.1).isIdentity)
    XCTAssertFalse(DevicePerturbation(tempoSpread: 0.1).isIdentity)
    XCTAssertTrue(DevicePerturbation(intensitySpread: 0, tempoSpread: 0).isIdentity)
    // Without them the text is what it was, so model files keep their bytes.
    let plain = DevicePerturbation(maxRotationDegrees: 180, gainSpread: 0.1)
    XCTAssertEqual(plain.description, "rotation=180,gain=0.1,noise=0")
  }

  func testParsing_Limits() throws {
    XCTAssertEqual(
      try DevicePerturbation(parsing: "intensity=0.99").intensitySpread, 0.99)
    XCTAssertEqual(try DevicePerturbation(parsing: "tempo=0.5").tempoSpread, 0.5)
    XCTAssertEqual(try DevicePerturbation(parsing: "tempo=0").tempoSpread, 0)
    for bad in [
      "intensity=1", "intensity=1.5", "intensity=-0.1", "intensity=nan", "tempo=0.51",
      "tempo=1", "tempo=-0.2", "tempo=inf", "tempo",
    ] {
      XCTAssertThrowsError(try DevicePerturbation(parsing: bad), bad) { error in
        let text = "\(error)"
        XCTAssertTrue(text.contains("'\(bad)'"), text)
        XCTAssertTrue(text.contains("intensity=SPREAD,tempo=SPREAD"), text)
        XCTAssertTrue(text.contains("tempo at most 0.5"), text)
      }
    }
  }

  // MARK: Intensity

  /// Labelled synthetic: 10 s at 20 Hz. Acceleration is a slow drift plus an oscillation of
  /// period 7 samples on x and z, constant on y; gravity is constant.
  private func moving(n: Int = 200) -> (recording: Recording, slow: [Float], wave: [Float]) {
    let slow = (0..<n).map { 1 + 0.1 * Float($0) / Float(n) }
    let wave = (0..<n).map { Float(0.3 * sin(2 * Double.pi * Double($0) / 7)) }
    let zWave = (0..<n).map { Float(0.2 * sin(2 * Double.pi * Double($0) / 7 + 1)) }
    let x = zip(slow, wave).map { $0 + $1 }
    let y = [Float](repeating: -0.5, count: n)
    let magnitude = (0..<n).map { t -> Float in
      let squares: Float = x[t] * x[t] + y[t] * y[t] + zWave[t] * zWave[t]
      return squares.squareRoot()
    }
    let recording = Recording(
      session: "s", subject: "1", source: "synthetic", timestamps: (0..<n).map { Double($0) / 20 },
      columns: [
        x, y, zWave, magnitude, [Float](repeating: 0, count: n), [Float](repeating: 0, count: n),
        [Float](repeating: -1, count: n), (0..<n).map { Float($0) },
      ],
      labelIndices: [Int32](repeating: 0, count: n), sampleRateHz: 20)
    return (recording, slow, wave)
  }

  func testScaledMotion_ScalesTheDeviationFromTheCentredOneSecondMean() {
    // At 20 Hz the centred mean spans 2 * 10 + 1 = 21 samples: three whole periods of the
    // oscillation, which it removes exactly, and a symmetric window, which keeps the linear
    // drift. So away from the ends the slow part is the drift and the deviation the wave.
    let (original, slow, wave) = moving()
    let scaled = DevicePerturbation.scaledMotion(original, by: 1.5, channels: channels)
    for t in 10..<190 {
      XCTAssertEqual(scaled.columns[0][t], slow[t] + 1.5 * wave[t], accuracy: 1e-5, "t = \(t)")
      XCTAssertEqual(scaled.columns[1][t], -0.5, accuracy: 1e-6)
      XCTAssertEqual(scaled.columns[2][t], 1.5 * original.columns[2][t], accuracy: 1e-5)
    }
    XCTAssertEqual(scaled.columns[3], original.columns[3], "magnitudes are the device step's")
    XCTAssertEqual(scaled.columns[6], original.columns[6], "a constant vector has no motion")
    XCTAssertEqual(scaled.columns[7], original.columns[7], "not a vector")
    XCTAssertEqual(DevicePerturbation.scaledMotion(original, by: 1, channels: channels), original)
  }

  func testCentredMean_ClipsAtTheEnds() {
    // Half-width 1: [mean(1, 2), mean(1, 2, 3), mean(2, 3, 10), mean(3, 10)].
    XCTAssertEqual(
      DevicePerturbation.centredMean([1, 2, 3, 10], halfWidth: 1), [1.5, 2, 5, 6.5])
  }

  func testIntensity_ScalesTheOscillationByOneDrawnFactorWithinTheSpread() {
    let (original, slow, wave) = moving()
    let p = DevicePerturbation(intensitySpread: 0.4)
    var factors: [Float] = []
    for seed: UInt64 in 1...8 {
      let r = p.apply(to: original, channels: channels, seed: seed)
      XCTAssertEqual(r.sampleCount, original.sampleCount)
      // The drawn factor, from the largest swing; every interior sample must agree with it.
      let peak = (10..<190).max { abs(wave[$0]) < abs(wave[$1]) } ?? 10
      let factor = (r.columns[0][peak] - slow[peak]) / wave[peak]
      for t in 10..<190 {
        XCTAssertEqual(r.columns[0][t] - slow[t], factor * wave[t], accuracy: 1e-5)
        XCTAssertEqual(r.columns[1][t], -0.5, accuracy: 1e-6)
      }
      // Magnitudes recomputed from the new axes.
      for t in 0..<r.sampleCount {
        let (x, y, z) = (r.columns[0][t], r.columns[1][t], r.columns[2][t])
        XCTAssertEqual(r.columns[3][t], (x * x + y * y + z * z).squareRoot(), accuracy: 1e-6)
      }
      XCTAssertEqual(r.columns[6], original.columns[6])
      factors.append(factor)
    }
    XCTAssertTrue(factors.allSatisfy { (0.6...1.4).contains($0) }, "\(factors)")
    XCTAssertTrue(factors.contains { $0 < 0.95 } && factors.contains { $0 > 1.05 }, "\(factors)")
  }

  // MARK: Tempo

  func testPlayedAt_InterpolatesAndLabelsTakeTheNearestSample() {
    // Labelled synthetic: a ramp 0, 1, ..., 100 at 10 Hz; label 0 for t < 50, then 1.
    let n = 101
    let ramp = Recording(
      session: "s", subject: "1", source: "synthetic",
      timestamps: (0..<n).map { 5 + Double($0) / 10 },
      columns: [(0..<n).map { Float($0) }], labelIndices: (0..<n).map { $0 < 50 ? 0 : 1 },
      sampleRateHz: 10)
    // Twice as fast: (101 - 1) / 2 + 1 = 51 samples, sample k at original position 2k.
    let fast = DevicePerturbation.playedAt(tempo: 2, ramp)
    XCTAssertEqual(fast.sampleCount, 51)
    XCTAssertEqual(fast.columns[0], (0..<51).map { Float(2 * $0) })
    for (k, time) in fast.timestamps.enumerated() {
      XCTAssertEqual(time, 5 + Double(k) / 10, accuracy: 1e-9, "same start and rate")
    }
    XCTAssertEqual(fast.labelIndices, (0..<51).map { $0 < 25 ? 0 : 1 })
    // Half as fast: 100 / 0.5 + 1 = 201 samples at positions k / 2; position 49.5 (k = 99)
    // rounds to sample 50.
    let slow = DevicePerturbation.playedAt(tempo: 0.5, ramp)
    XCTAssertEqual(slow.sampleCount, 201)
    XCTAssertEqual(slow.columns[0], (0..<201).map { Float($0) / 2 })
    XCTAssertEqual(slow.labelIndices, (0..<201).map { $0 < 99 ? 0 : 1 })
    XCTAssertEqual(slow.sampleRateHz, 10)
    XCTAssertEqual(DevicePerturbation.playedAt(tempo: 1, ramp), ramp)
  }

  func testTempo_ChangesLengthAndCadenceByOneDrawnFactor() {
    // Labelled synthetic: 20 s at 50 Hz of a 2 Hz sinusoid on every axis (4 zero crossings a
    // second); the first half labelled 0, the second 1.
    let n = 1000
    let wave = (0..<n).map { Float(sin(2 * Double.pi * 2 * Double($0) / 50 + 0.3)) }
    let original = Recording(
      session: "s", subject: "1", source: "synthetic", timestamps: (0..<n).map { Double($0) / 50 },
      columns: [wave, wave, wave, wave.map { abs($0) * Float(3).squareRoot() }],
      labelIndices: (0..<n).map { $0 < 500 ? 0 : 1 }, sampleRateHz: 50)
    let vector = Array(channels.prefix(4))
    let p = DevicePerturbation(tempoSpread: 0.3)
    var tempos: [Double] = []
    for seed: UInt64 in 1...8 {
      let r = p.apply(to: original, channels: vector, seed: seed)
      let count = r.sampleCount
      XCTAssertEqual(r.timestamps.count, count)
      XCTAssertTrue(r.columns.allSatisfy { $0.count == count })
      XCTAssertEqual(r.labelIndices.count, count)
      XCTAssertEqual(
        r.timestamps[count - 1] - r.timestamps[0], Double(count - 1) / 50, accuracy: 1e-9)
      // count = floor(999 / tempo) + 1.
      let tempo = 999 / Double(count - 1)
      XCTAssertTrue((0.7...1.3).contains(tempo), "tempo \(tempo)")
      // The same cycles in 1 / tempo of the time: crossings per second times tempo.
      var crossings = 0
      for t in 1..<count where (r.columns[0][t - 1] < 0) != (r.columns[0][t] < 0) {
        crossings += 1
      }
      let rate = Double(crossings) / (Double(count) / 50)
      XCTAssertEqual(rate / 4, tempo, accuracy: 0.03, "seed \(seed)")
      // Labels follow: the change moves to about sample 500 / tempo.
      // (First k with k * tempo >= 499.5; tempo is known to about 1 part in 700 here.)
      let change = r.labelIndices.firstIndex(of: 1) ?? 0
      XCTAssertEqual(Double(change), 500 / tempo, accuracy: 3)
      XCTAssertEqual(r.labelIndices.last, 1)
      tempos.append(tempo)
    }
    XCTAssertTrue(tempos.contains { $0 < 0.95 } && tempos.contains { $0 > 1.05 }, "\(tempos)")
  }

  // MARK: Earlier perturbations unchanged

  /// What `apply` computed before intensity and tempo existed, written out for rotation, gain
  /// and noise: the rotation, gain and noise level are the first draws of the seed's
  /// generator, then per vector the noise draws, x, y, z per sample.
  private func referenceApply(
    _ p: DevicePerturbation, to recording: Recording, seed: UInt64
  ) -> Recording {
    var generator = SplitMix64(seed: seed)
    let m = p.randomRotation(using: &generator)
    let gain = Float(1 + p.gainSpread * (2 * generator.uniform() - 1))
    let noise = p.noiseStandardDeviation * generator.uniform()
    var result = recording
    for (axes, magnitude) in [([0, 1, 2], 3 as Int?), ([4, 5, 6], nil)] {
      var out = axes.map { recording.columns[$0] }
      for t in 0..<recording.sampleCount {
        let (a, b, c) = (out[0][t], out[1][t], out[2][t])
        for r in 0..<3 { out[r][t] = gain * (m[3 * r] * a + m[3 * r + 1] * b + m[3 * r + 2] * c) }
      }
      for t in 0..<recording.sampleCount {
        for r in 0..<3 { out[r][t] += Float(noise * generator.gaussian()) }
      }
      for (r, c) in axes.enumerated() { result.columns[c] = out[r] }
      if let magnitude {
        result.columns[magnitude] = (0..<recording.sampleCount).map { t -> Float in
          let (x, y, z) = (out[0][t], out[1][t], out[2][t])
          return (x * x + y * y + z * z).squareRoot()
        }
      }
    }
    return result
  }

  func testWithoutIntensityOrTempo_OutputIsWhatItWas() {
    let (original, _, _) = moving()
    for (p, seed) in [
      (
        DevicePerturbation(maxRotationDegrees: 180, gainSpread: 0.1, noiseStandardDeviation: 0.01),
        3
      ),
      (DevicePerturbation(maxRotationDegrees: 20, gainSpread: 0.3), 11),
      (DevicePerturbation(noiseStandardDeviation: 0.05), 5),
    ] as [(DevicePerturbation, UInt64)] {
      let actual = p.apply(to: original, channels: channels, seed: seed)
      XCTAssertEqual(actual, referenceApply(p, to: original, seed: seed), "\(p)")
    }
  }

  func testIntensityAndTempoDraws_ComeAfterTheDeviceDraws() {
    // A still recording has no motion to scale, so with intensity added the output must be
    // byte-identical: the rotation, gain and sway draws are unchanged.
    let n = 100
    let still = Recording(
      session: "s", subject: "1", source: "synthetic", timestamps: (0..<n).map { Double($0) / 20 },
      columns: [
        [Float](repeating: 0.1, count: n), [Float](repeating: -0.2, count: n),
        [Float](repeating: -0.97, count: n), [Float](repeating: 1, count: n),
        [Float](repeating: 0, count: n), [Float](repeating: 0.6, count: n),
        [Float](repeating: -0.8, count: n), [Float](repeating: 0.5, count: n),
      ],
      labelIndices: [Int32](repeating: 0, count: n), sampleRateHz: 20)
    let device = DevicePerturbation(maxRotationDegrees: 180, gainSpread: 0.2, maxSwayDegrees: 3)
    var withIntensity = device
    withIntensity.intensitySpread = 0.5
    for seed: UInt64 in [1, 2, 3] {
      let before = device.apply(to: still, channels: channels, seed: seed)
      XCTAssertNotEqual(before, still)
      XCTAssertEqual(withIntensity.apply(to: still, channels: channels, seed: seed), before)
    }
  }

  func testIdentity_LeavesDataAlone() {
    let (original, _, _) = moving()
    let dataset = Dataset(channels: channels, labels: ["a"], recordings: [original, original])
    let p = DevicePerturbation(intensitySpread: 0, tempoSpread: 0)
    XCTAssertEqual(p.apply(to: dataset, seed: 4), dataset)
  }
}
