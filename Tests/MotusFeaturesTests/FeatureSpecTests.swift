import Foundation
import MotusData
import MotusFeatures
import XCTest

final class FeatureSpecTests: XCTestCase {
  func testWindowTiming_SecondsFromSamplesAndRate() {
    let spec = FeatureSpec.standard(
      recipes: [.copy("a")], channels: ["a"], sampleRateHz: 50, windowLength: 128, hopLength: 64)
    XCTAssertEqual(spec.windowSeconds, 2.56)
    XCTAssertEqual(spec.hopSeconds, 1.28)
  }

  private let motionSenseChannels =
    ["userAcceleration", "gravity", "rotationRate"].flatMap { v in
      ["x", "y", "z"].map { "\(v).\($0)" }
    }
    + ["attitude.roll", "attitude.pitch", "attitude.yaw"]

  private func motionSenseSpec() -> FeatureSpec {
    let recipes =
      motionSenseChannels.map { ChannelRecipe.copy($0) } + [
        ChannelRecipe(
          name: "|userAcceleration|", operation: .magnitude,
          inputs: ["userAcceleration.x", "userAcceleration.y", "userAcceleration.z"]),
        ChannelRecipe(
          name: "|rotationRate|", operation: .magnitude,
          inputs: ["rotationRate.x", "rotationRate.y", "rotationRate.z"]),
      ]
    return FeatureSpec.standard(
      recipes: recipes, channels: recipes.map(\.name), sampleRateHz: 50, windowLength: 128,
      hopLength: 64)
  }

  func testStandard_InfersVectorsGravityAndBands() throws {
    let spec = motionSenseSpec()
    XCTAssertEqual(
      spec.vectors.map(FeatureSpec.vectorName), ["userAcceleration", "gravity", "rotationRate"])
    XCTAssertEqual(spec.gravity ?? [], ["gravity.x", "gravity.y", "gravity.z"])
    XCTAssertEqual(spec.bandEdgesHz, [0, 0.5, 1, 2, 3, 5, 8, 12, 16, 20, 25])
    XCTAssertEqual(FeatureSpec.defaultBandEdges(sampleRateHz: 15), [0, 0.5, 1, 2, 3, 5, 7.5])
    try spec.validate()
  }

  func testFeatureNames_OrderAndExamples() {
    let names = motionSenseSpec().featureNames
    // 14 channels x (17 statistics + 10 bands + 4 spectral) + 3 x 3 correlations + 2 angles.
    XCTAssertEqual(names.count, 14 * 31 + 9 + 2)
    XCTAssertEqual(Set(names).count, names.count)
    XCTAssertEqual(names.first, "userAcceleration.x:mean")
    for example in [
      "userAcceleration.x:std", "|rotationRate|:band_2-3Hz", "|rotationRate|:band_0-0.5Hz",
      "userAcceleration:corr_xy", "userAcceleration:gravity_angle", "attitude.yaw:acf_lag",
      "rotationRate:gravity_angle",
    ] {
      XCTAssertTrue(names.contains(example), example)
    }
    XCTAssertFalse(names.contains("gravity:gravity_angle"))
    XCTAssertEqual(names.last, "rotationRate:gravity_angle")
  }

  func testBandBinRanges_AreTheBinsAScanOfEveryBinFinds() {
    // The rule as written: bins with lo <= f < hi, the last band also f == hi.
    func scanned(_ spec: FeatureSpec) -> [Range<Int>] {
      let edges = spec.bandEdgesHz, bins = spec.windowLength / 2 + 1
      return (0..<(edges.count - 1)).map { b in
        let ks = (0..<bins).filter { k in
          let f = Double(k) * spec.sampleRateHz / Double(spec.windowLength)
          return f >= edges[b] && (f < edges[b + 1] || (b == edges.count - 2 && f == edges[b + 1]))
        }
        return ks.isEmpty ? 0..<0 : ks[0]..<(ks[ks.count - 1] + 1)
      }
    }
    var generator = SplitMix64(seed: 4)
    for _ in 0..<200 {
      let n = 2 + Int(generator.next() % 300)
      let rates: [Double] = [15, 50, 100, 7]
      let rate = rates[Int(generator.next() % 4)]
      var edges = [0.0]
      for _ in 0..<Int(generator.next() % 12) {
        // Edges on bin frequencies half the time, so f == edge ties are exercised.
        let onBin = generator.next() % 2 == 0
        let units = Double(generator.next() % 1000)
        let step: Double =
          onBin ? Double(1 + Int(units) % 5) * rate / Double(n) : units / 1000 * rate / 8
        edges.append(edges[edges.count - 1] + step)
      }
      if generator.next() % 3 == 0 { edges.append(rate / 2) }
      let spec = FeatureSpec(
        recipes: [.copy("a")], channels: ["a"], sampleRateHz: rate, windowLength: n, hopLength: 1,
        statistics: [], spectral: [.bandPowers], bandEdgesHz: edges)
      XCTAssertEqual(spec.bandBinRanges, scanned(spec), "n \(n), rate \(rate), edges \(edges)")
    }
  }

  func testBandBinRanges_OfTheLongestWindowAndThousandsOfBandsAreQuick() {
    // A scan of every bin per band took 131 M steps per call here (found by fuzzing export).
    let spec = FeatureSpec(
      recipes: [.copy("a")], channels: ["a"], sampleRateHz: 100,
      windowLength: FeatureSpec.maximumWindowLength, hopLength: 1, statistics: [],
      spectral: [.bandPowers], bandEdgesHz: (0...4000).map { Double($0) / 80 })
    let started = Date()
    for _ in 0..<20 { XCTAssertEqual(spec.bandBinRanges.count, 4000) }
    XCTAssertLessThan(Date().timeIntervalSince(started), 1)
  }

  func testCodable_RoundTripIsEqual() throws {
    let spec = motionSenseSpec()
    let data = try JSONEncoder().encode(spec)
    XCTAssertEqual(try JSONDecoder().decode(FeatureSpec.self, from: data), spec)
  }

  func testValidate_RejectsBadFieldsWithHints() {
    var spec = motionSenseSpec()
    func expect(_ change: (inout FeatureSpec) -> Void, _ expected: FeatureSpecError) {
      var bad = spec
      change(&bad)
      XCTAssertThrowsError(try bad.validate()) { error in
        XCTAssertEqual(error as? FeatureSpecError, expected)
        XCTAssertTrue("\(error)".contains("HINT:"), "\(error)")
      }
    }
    expect({ $0.windowLength = 0 }, .windowNotPositive(0))
    expect({ $0.hopLength = 0 }, .hopOutOfRange(hop: 0, window: 128))
    expect({ $0.hopLength = 129 }, .hopOutOfRange(hop: 129, window: 128))
    expect({ $0.bandEdgesHz = [0, 2, 1] }, .bandEdgesNotAscending([0, 2, 1]))
    expect({ $0.bandEdgesHz = [0, 30] }, .bandEdgeAboveNyquist(edge: 30, nyquist: 25))
    expect({ $0.bandEdgesHz = [0] }, .tooFewBandEdges([0]))
    expect(
      { $0.channels.append("magnetometer.x") },
      .unknownChannel("magnetometer.x", available: spec.recipes.map(\.name)))
    spec.hopLength = 128
    XCTAssertNoThrow(try spec.validate())
  }
}

final class NominalRateTests: XCTestCase {
  func testNominalRate_SnapsMeasuredRatesOnly() {
    XCTAssertEqual(FeatureSpec.nominalRate(14.999999999999304), 15)
    XCTAssertEqual(FeatureSpec.nominalRate(50.0000001), 50)
    XCTAssertEqual(FeatureSpec.nominalRate(49.7), 49.7)
    XCTAssertEqual(FeatureSpec.nominalRate(33.3333), 33.3333)
  }
}
