// `log_band`: log10(band power + logPowerFloor) per band, off by default; its names, values,
// validation and the coding of specs made before the floor existed.

import Foundation
import MotusData
import MotusFeatures
import MotusTestSupport
import XCTest

final class LogBandPowerTests: XCTestCase {
  private func spec(
    channels: [String], rate: Double, n: Int, spectral: [SpectralFeature],
    edges: [Double]? = nil, floor: Double = FeatureSpec.defaultLogPowerFloor
  ) -> FeatureSpec {
    FeatureSpec(
      recipes: channels.map { ChannelRecipe.copy($0) }, channels: channels, sampleRateHz: rate,
      windowLength: n, hopLength: n, spectral: spectral,
      bandEdgesHz: edges ?? FeatureSpec.defaultBandEdges(sampleRateHz: rate),
      logPowerFloor: floor)
  }

  private func features(_ spec: FeatureSpec, _ columns: [[Float]]) throws -> [String: Float] {
    var extractor = try FeatureExtractor(spec: spec)
    let row = extractor.extract(columns: columns, start: 0)
    return Dictionary(uniqueKeysWithValues: zip(extractor.featureNames, row))
  }

  /// Uniform noise in [-1, 1) plus a tone, deterministic.
  private func signal(_ n: Int, seed: UInt64) -> [Float] {
    var state = seed
    return (0..<n).map { t in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let noise = Double(state >> 11) / Double(1 << 53) * 2 - 1
      return Float(sin(Double(t) * 0.9) + 0.5 * noise)
    }
  }

  func testDefaults_LeaveLogBandsOut() {
    XCTAssertEqual(
      SpectralFeature.defaults.map(\.rawValue),
      ["band", "dominant_hz", "dominant_share", "centroid_hz", "entropy"])
    XCTAssertTrue(SpectralFeature.allCases.contains(.logBandPowers))
    let standard = FeatureSpec.standard(
      recipes: [.copy("x")], channels: ["x"], sampleRateHz: 50, windowLength: 128,
      hopLength: 64)
    XCTAssertEqual(standard.spectral, SpectralFeature.defaults)
    XCTAssertFalse(standard.featureNames.contains { $0.contains("log_band") })
  }

  func testFeatureNames_FollowBandNaming() {
    let s = spec(
      channels: ["x"], rate: 8, n: 8, spectral: [.bandPowers, .logBandPowers, .spectralEntropy],
      edges: [0, 0.5, 2, 4])
    XCTAssertEqual(
      s.featureNames.filter { !$0.contains(":") || $0.contains("band") || $0.contains("entropy") }
        .suffix(7),
      [
        "x:band_0-0.5Hz", "x:band_0.5-2Hz", "x:band_2-4Hz", "x:log_band_0-0.5Hz",
        "x:log_band_0.5-2Hz", "x:log_band_2-4Hz", "x:entropy",
      ])
    XCTAssertEqual(FeatureSpec.logBandName(lo: 0.5, hi: 7.5), "log_band_0.5-7.5Hz")
  }

  func testValues_HandComputedOnAlternatingSignal() throws {
    // As in FeatureExtractorTests: P[4] = 2 (4 Hz), P[3] = 0.5 (3 Hz), other bins 0.
    let alternating: [Float] = [1, -1, 1, -1, 1, -1, 1, -1]
    let f = try features(
      spec(channels: ["x"], rate: 8, n: 8, spectral: [.logBandPowers], edges: [0, 2, 3, 4]),
      [alternating])
    XCTAssertEqual(f["x:log_band_0-2Hz"] ?? .nan, -4, accuracy: 1e-4)
    XCTAssertEqual(f["x:log_band_3-4Hz"] ?? .nan, Float(log10(2.5 + 1e-4)), accuracy: 1e-5)
    let floored = try features(
      spec(
        channels: ["x"], rate: 8, n: 8, spectral: [.logBandPowers], edges: [0, 2, 3, 4],
        floor: 0.5),
      [alternating])
    XCTAssertEqual(floored["x:log_band_2-3Hz"] ?? .nan, Float(log10(0.5)), accuracy: 1e-5)
    XCTAssertEqual(floored["x:log_band_3-4Hz"] ?? .nan, Float(log10(3.0)), accuracy: 1e-5)
  }

  func testValues_EqualLogOfBandPowersAndReference() throws {
    for (n, rate) in [(128, 50.0), (38, 15.0), (17, 8.0)] {
      let columns = [signal(n, seed: 3), signal(n, seed: 4).map { 0.01 * $0 }]
      let s = spec(
        channels: ["a", "b"], rate: rate, n: n, spectral: SpectralFeature.allCases)
      var extractor = try FeatureExtractor(spec: s)
      let fast = extractor.extract(columns: columns, start: 0)
      let plain = FeatureExtractor.referenceFeatures(spec: s, columns: columns, start: 0)
      let named = Dictionary(uniqueKeysWithValues: zip(extractor.featureNames, fast))
      var logCount = 0
      for (i, name) in extractor.featureNames.enumerated() {
        XCTAssertEqual(
          Double(fast[i]), plain[i], accuracy: 1e-4 * max(1, abs(plain[i])), "n \(n) \(name)")
        guard let range = name.range(of: ":log_band_") else { continue }
        logCount += 1
        let band = name.replacingCharacters(in: range, with: ":band_")
        let expected = log10(Double(named[band] ?? .nan) + s.logPowerFloor)
        XCTAssertEqual(Double(fast[i]), expected, accuracy: 1e-5, "n \(n) \(name)")
      }
      XCTAssertEqual(logCount, 2 * (s.bandEdgesHz.count - 1))
    }
  }

  func testGain_ShiftsLogBandsByTwiceLogGain() throws {
    let n = 128
    let x = signal(n, seed: 7)
    // A negligible floor: the property is exact for band powers far above it.
    let s = spec(channels: ["x"], rate: 50, n: n, spectral: [.logBandPowers], floor: 1e-12)
    let base = try features(s, [x]).filter { $0.key.contains(":log_band_") }
    XCTAssertEqual(base.count, s.bandEdgesHz.count - 1)
    for gain: Float in [0.25, 3.7, 9.81] {
      let scaled = try features(s, [x.map { $0 * gain }])
      for (name, value) in base {
        XCTAssertEqual(
          (scaled[name] ?? .nan) - value, 2 * log10(gain), accuracy: 1e-4, "gain \(gain) \(name)")
      }
    }
  }

  func testValidate_RejectsFloorOnlyWhenLogBandsUseIt() throws {
    for bad in [0, -1e-4, Double.nan, Double.infinity] {
      let s = spec(channels: ["x"], rate: 50, n: 128, spectral: [.logBandPowers], floor: bad)
      XCTAssertThrowsError(try s.validate()) { error in
        guard case .logPowerFloorNotPositive = error as? FeatureSpecError else {
          return XCTFail("\(error)")
        }
        XCTAssertTrue("\(error)".contains("HINT:"), "\(error)")
      }
    }
    XCTAssertNoThrow(
      try spec(channels: ["x"], rate: 50, n: 128, spectral: [.bandPowers], floor: 0).validate())
    let noEdges = spec(channels: ["x"], rate: 50, n: 128, spectral: [.logBandPowers], edges: [1])
    XCTAssertThrowsError(try noEdges.validate()) { error in
      XCTAssertEqual(error as? FeatureSpecError, .tooFewBandEdges([1]))
    }
  }

  func testDecode_SpecWrittenBeforeTheFloorGetsTheDefault() throws {
    let old = """
      {"bandEdgesHz":[0,1,2,4],"channels":["x"],"hopLength":4,\
      "recipes":[{"inputs":["x"],"name":"x","operation":"copy","scale":1}],\
      "sampleRateHz":8,"spectral":["band","entropy"],"statistics":["mean","std"],\
      "vectors":[],"windowLength":8}
      """
    let decoded = try JSONDecoder().decode(FeatureSpec.self, from: Data(old.utf8))
    XCTAssertEqual(decoded.logPowerFloor, FeatureSpec.defaultLogPowerFloor)
    XCTAssertEqual(decoded.spectral, [.bandPowers, .spectralEntropy])
    XCTAssertNil(decoded.gravity)
    // Re-encoding gives the same bytes: the floor key is left out when unused.
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    XCTAssertEqual(String(decoding: try encoder.encode(decoded), as: UTF8.self), old)
  }

  func testCoding_RoundTripsFloorWhenUsedOrNotDefault() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for (spectral, floor, written) in [
      ([SpectralFeature.logBandPowers], FeatureSpec.defaultLogPowerFloor, true),
      ([.bandPowers, .logBandPowers], 0.003, true),
      ([.bandPowers], 0.003, false),
      ([.bandPowers], FeatureSpec.defaultLogPowerFloor, false),
    ] {
      let s = spec(channels: ["x"], rate: 8, n: 8, spectral: spectral, floor: floor)
      let data = try encoder.encode(s)
      let hasKey = String(decoding: data, as: UTF8.self).contains("logPowerFloor")
      XCTAssertEqual(hasKey, written || floor != FeatureSpec.defaultLogPowerFloor, "\(spectral)")
      XCTAssertEqual(try JSONDecoder().decode(FeatureSpec.self, from: data), s)
    }
  }

  /// Each shipped `.motus` file's header holds its spec exactly as this code encodes it, so
  /// the files read and re-write unchanged.
  func testShippedModels_SpecReEncodesToTheSameBytes() throws {
    let models = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("models")
    let files = try FileManager.default.contentsOfDirectory(atPath: models.path)
      .filter { $0.hasSuffix(".motus") }
    guard !files.isEmpty else { throw XCTSkip("no shipped models in \(models.path)") }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for file in files {
      let bytes = [UInt8](try Data(contentsOf: models.appendingPathComponent(file)))
      let length = bytes[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) }
      let header = Data(bytes[16..<(16 + length)])
      let object = try XCTUnwrap(
        JSONSerialization.jsonObject(with: header) as? [String: Any], file)
      let specObject = try XCTUnwrap(object["featureSpec"], file)
      let specData = try JSONSerialization.data(withJSONObject: specObject)
      let spec = try JSONDecoder().decode(FeatureSpec.self, from: specData)
      XCTAssertNoThrow(try spec.validate(), file)
      let encoded = try encoder.encode(spec)
      let headerText = String(decoding: header, as: UTF8.self)
      XCTAssertTrue(
        headerText.contains("\"featureSpec\":" + String(decoding: encoded, as: UTF8.self)), file)
      let standardizer = try XCTUnwrap(object["standardizer"] as? [String: Any], file)
      XCTAssertEqual(spec.featureNames.count, (standardizer["mean"] as? [Any])?.count, file)
    }
  }
}
