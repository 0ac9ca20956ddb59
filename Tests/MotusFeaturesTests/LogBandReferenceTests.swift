// `log_band` on real windows against NumPy: log10 of the band powers NumPy/SciPy computed
// (Fixtures/reference.json) plus the floor. The allowed difference is the band tolerance of
// NumPyReferenceTests carried through the log: |d log10(b + f)| = |db| / ((b + f) ln 10).

import Foundation
import MotusData
import MotusFeatures
import MotusTestSupport
import XCTest

final class LogBandReferenceTests: XCTestCase {
  func testLogBands_MatchLog10OfNumPyBandPowers() throws {
    guard SharedData.isAvailable else { throw XCTSkip("../shared/datasets is absent") }
    let fixture = try ReferenceFixture.load()
    var compared = 0
    for refCase in fixture.cases {
      var spec = FeatureSpec.standard(
        recipes: refCase.recipes, channels: refCase.channels, sampleRateHz: refCase.sampleRateHz,
        windowLength: refCase.windowLength, hopLength: refCase.hopLength)
      spec.statistics = []
      spec.spectral = [.logBandPowers]
      var extractor = try FeatureExtractor(spec: spec)
      let rawNames = Array(
        Set(refCase.recipes.flatMap { $0.operation == .copy ? $0.inputs : [] })
      ).sorted()
      let plan = try ChannelPlan(recipes: refCase.recipes, rawChannels: rawNames)
      for window in refCase.windows {
        let raw = try SharedCSVReader.rows(
          file: SharedData.root.appendingPathComponent(refCase.file), session: window.session,
          start: window.start, count: refCase.windowLength, columns: rawNames)
        let got = Dictionary(
          uniqueKeysWithValues: zip(
            extractor.featureNames, extractor.extract(columns: plan.apply(columns: raw), start: 0)
          ))
        var channelPower: [String: Double] = [:]
        for (name, value) in zip(refCase.featureNames, window.features)
        where name.contains(":band_") {
          channelPower[String(name.split(separator: ":")[0]), default: 0] += value
        }
        for (name, band) in zip(refCase.featureNames, window.features)
        where name.contains(":band_") {
          let logName = name.replacingOccurrences(of: ":band_", with: ":log_band_")
          let actual = Double(try XCTUnwrap(got[logName], logName))
          let expected = log10(band + spec.logPowerFloor)
          let scale = channelPower[String(name.split(separator: ":")[0])] ?? 1
          let bandTolerance = 1e-4 * abs(band) + 1e-5 * scale
          // Plus Float rounding of the output itself.
          let tolerance =
            bandTolerance / ((band + spec.logPowerFloor) * log(10)) + 1e-6 * abs(expected)
          XCTAssertEqual(
            actual, expected, accuracy: tolerance,
            "\(window.session)@\(window.start) \(logName): swift \(actual), numpy \(expected)")
          compared += 1
        }
      }
    }
    XCTAssertGreaterThan(compared, 0)
  }
}
