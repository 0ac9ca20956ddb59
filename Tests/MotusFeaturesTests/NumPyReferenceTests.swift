// Compares FeatureExtractor and FFTPlan with values NumPy/SciPy computed independently
// (Reference/make_reference.py -> Fixtures/reference.json) on real windows of the shared data.
//
// Tolerance: |swift - numpy| <= 1e-4 * |numpy| + 1e-5 * scale, where scale is the channel's
// total spectral power for band powers (Float FFT error is relative to the whole spectrum)
// and 1 otherwise. acf_lag and mean_crossing_rate are discrete and must match exactly.

import Foundation
import MotusData
import MotusFeatures
import MotusTestSupport
import XCTest

struct ReferenceFixture: Decodable {
  struct FFTCase: Decodable {
    let length: Int
    let real: [Double]
    let imag: [Double]
  }
  struct Window: Decodable {
    let session: String
    let start: Int
    let features: [Double]
  }
  struct Case: Decodable {
    let file: String
    let sampleRateHz: Double
    let windowLength: Int
    let hopLength: Int
    let recipes: [ChannelRecipe]
    let channels: [String]
    let bandEdgesHz: [Double]
    let featureNames: [String]
    let windows: [Window]
  }
  let version: Int
  let fft: [FFTCase]
  let cases: [Case]

  static func load() throws -> ReferenceFixture {
    guard
      let url = Bundle.module.url(
        forResource: "reference", withExtension: "json", subdirectory: "Fixtures")
    else { throw XCTSkip("Fixtures/reference.json missing from the test bundle") }
    return try JSONDecoder().decode(ReferenceFixture.self, from: Data(contentsOf: url))
  }

  /// The synthetic FFT input both sides build: two tones plus a ramp, rounded to Float.
  static func fftSignal(_ n: Int) -> [Float] {
    (0..<n).map { t in
      let phase = 2 * Double.pi * Double(t) / Double(n)
      return Float(sin(3 * phase) + 0.5 * cos(5 * phase + 0.3) + 0.1 * Double(t) / Double(n))
    }
  }
}

final class NumPyReferenceTests: XCTestCase {
  func testFFT_MatchesNumPyOnSyntheticSignal() throws {
    let fixture = try ReferenceFixture.load()
    XCTAssertEqual(fixture.version, 1)
    XCTAssertFalse(fixture.fft.isEmpty)
    for fftCase in fixture.fft {
      let plan = FFTPlan(length: fftCase.length)
      var re = ReferenceFixture.fftSignal(fftCase.length)
      var im = [Float](repeating: 0, count: fftCase.length)
      plan.forward(real: &re, imag: &im)
      let scale = fftCase.real.map(abs).max() ?? 1
      let difference = max(
        maxAbsoluteDifference(re, fftCase.real.map(Float.init)),
        maxAbsoluteDifference(im, fftCase.imag.map(Float.init)))
      print("FFT n=\(fftCase.length) vs numpy.fft.fft: max |diff| = \(difference)")
      XCTAssertLessThan(Double(difference), 1e-5 * scale, "n = \(fftCase.length)")
    }
  }

  func testFeatures_MatchNumPyOnSharedData() throws {
    guard SharedData.isAvailable else { throw XCTSkip("../shared/datasets is absent") }
    let fixture = try ReferenceFixture.load()
    for refCase in fixture.cases {
      let spec = FeatureSpec.standard(
        recipes: refCase.recipes, channels: refCase.channels, sampleRateHz: refCase.sampleRateHz,
        windowLength: refCase.windowLength, hopLength: refCase.hopLength)
      XCTAssertEqual(spec.featureNames, refCase.featureNames, refCase.file)
      XCTAssertEqual(spec.bandEdgesHz, refCase.bandEdgesHz, refCase.file)
      var extractor = try FeatureExtractor(spec: spec)
      let rawNames = Array(
        Set(refCase.recipes.flatMap { $0.operation == .copy ? $0.inputs : [] })
      ).sorted()
      let plan = try ChannelPlan(recipes: refCase.recipes, rawChannels: rawNames)
      // Per feature kind, the worst difference, for the printed summary.
      var worst: [String: (difference: Double, name: String)] = [:]
      for window in refCase.windows {
        let raw = try SharedCSVReader.rows(
          file: SharedData.root.appendingPathComponent(refCase.file), session: window.session,
          start: window.start, count: refCase.windowLength, columns: rawNames)
        let columns = plan.apply(columns: raw)
        let got = extractor.extract(columns: columns, start: 0)
        XCTAssertEqual(got.count, window.features.count)
        var channelPower: [String: Double] = [:]
        for (name, value) in zip(refCase.featureNames, window.features)
        where name.contains(":band_") {
          channelPower[channelOf(name), default: 0] += value
        }
        for (i, name) in refCase.featureNames.enumerated() {
          let expected = window.features[i], actual = Double(got[i])
          let kind = String(name.split(separator: ":").last ?? "")
          let difference = abs(actual - expected)
          let where_ = "\(window.session)@\(window.start) \(name)"
          if kind == "acf_lag" || kind == "mean_crossing_rate" {
            XCTAssertEqual(actual, expected, accuracy: 1e-6 * max(1, abs(expected)), where_)
          } else {
            let scale = kind.hasPrefix("band_") ? channelPower[channelOf(name)] ?? 1 : 1
            XCTAssertLessThanOrEqual(
              difference, 1e-4 * abs(expected) + 1e-5 * scale,
              "\(where_): swift \(actual), numpy \(expected)")
          }
          let key = kind.hasPrefix("band_") ? "band" : kind
          if difference > (worst[key]?.difference ?? -1) { worst[key] = (difference, where_) }
        }
      }
      print(
        "\(refCase.file): \(refCase.windows.count) windows x \(spec.featureNames.count) features")
      for (key, value) in worst.sorted(by: { $0.key < $1.key }) {
        print("  max |diff| \(key): \(value.difference) (\(value.name))")
      }
    }
  }

  private func channelOf(_ name: String) -> String {
    String(name.split(separator: ":").first ?? "")
  }
}
