// The recent-windows summaries (`FeatureContext`) against the per-window features they
// summarise, computed by hand. Signals are SYNTHETIC.

import Foundation
import MotusData
import MotusFeatures
import MotusIngest
import XCTest

final class FeatureContextTests: XCTestCase {
  private func spec(context windows: Int?) -> FeatureSpec {
    var spec = FeatureSpec.standard(
      recipes: [.copy("a")], channels: ["a"], sampleRateHz: 20, windowLength: 40, hopLength: 10)
    spec.spectral = [.logBandPowers, .dominantFrequency]
    spec.statistics = [.mean, .std]
    if let windows {
      spec.context = FeatureContext.recentIntensity(
        windowCount: windows, windowFeatures: spec.windowFeatureNames)
    }
    return spec
  }

  /// A chirp whose loudness changes every few windows, so the summaries move.
  private func signal(_ n: Int) -> [[Float]] {
    let column = (0..<n).map { t -> Float in
      let loudness = 1 + Double(t / 70)
      let phase = Double(t) * (0.3 + 0.002 * Double(t))
      return Float(loudness * sin(phase))
    }
    return [column]
  }

  func testNames_SummariseTheStdAndLogBandsOfTheWindow() throws {
    let spec = spec(context: 4)
    let context = try XCTUnwrap(spec.context)
    XCTAssertEqual(context.features.first, "a:std")
    XCTAssertTrue(context.features.dropFirst().allSatisfy { $0.hasPrefix("a:log_band_") })
    XCTAssertFalse(context.features.contains("a:mean"))
    XCTAssertEqual(
      spec.featureNames.count, spec.windowFeatureNames.count + 3 * context.features.count)
    XCTAssertEqual(spec.featureNames.last, "recent4:max:\(context.features.last!)")
    XCTAssertEqual(try FeatureExtractor(spec: spec).featureCount, spec.featureNames.count)
  }

  func testSummaries_AreMinMeanMaxOfTheLastWindowsAndRestart() throws {
    let windows = 4
    let columns = signal(400)
    var plain = try FeatureExtractor(spec: spec(context: nil))
    var extractor = try FeatureExtractor(spec: spec(context: windows))
    let context = try XCTUnwrap(extractor.spec.context)
    let names = plain.featureNames
    let sources = context.features.map { names.firstIndex(of: $0)! }
    let starts = Array(stride(from: 0, through: 400 - 40, by: 10))
    let own = starts.map { plain.extract(columns: columns, start: $0) }
    var worst: Float = 0
    for (i, start) in starts.enumerated() {
      // Restart half way, as a recording boundary or a stream gap does.
      if i == 20 { extractor.restartContext() }
      let row = extractor.extract(columns: columns, start: start)
      XCTAssertEqual(Array(row.prefix(names.count)), own[i])
      let first = i >= 20 ? max(20, i - windows + 1) : max(0, i - windows + 1)
      let recent = own[first...i]
      var expected: [Float] = []
      for statistic in [ContextStatistic.min, .mean, .max] {
        for s in sources {
          let values = recent.map { $0[s] }
          switch statistic {
          case .min: expected.append(values.min()!)
          case .max: expected.append(values.max()!)
          case .mean:
            expected.append(Float(values.reduce(0.0) { $0 + Double($1) } / Double(values.count)))
          }
        }
      }
      for (a, b) in zip(row.dropFirst(names.count), expected) { worst = max(worst, abs(a - b)) }
    }
    print("context summaries: max |difference| = \(worst)")
    XCTAssertLessThanOrEqual(worst, 1e-6)
  }

  func testValidate_RefusesUnknownFeaturesOneWindowAndRepeatedStatistics() throws {
    var spec = spec(context: 4)
    spec.context?.features = ["a:kurtosis"]
    XCTAssertThrowsError(try spec.validate()) { XCTAssertTrue("\($0)".contains("a:kurtosis")) }
    spec = self.spec(context: 4)
    spec.context?.windowCount = 1
    XCTAssertThrowsError(try spec.validate()) { XCTAssertTrue("\($0)".contains("1 windows")) }
    spec = self.spec(context: 4)
    spec.context?.statistics = [.max, .max]
    XCTAssertThrowsError(try spec.validate())
    // Another context's summary is not a feature of the window either.
    spec = self.spec(context: 4)
    spec.context?.features = ["recent4:min:a:std"]
    XCTAssertThrowsError(try spec.validate())
  }

  func testCoding_RoundTripsAndAbsentContextDecodesAsNone() throws {
    let spec = spec(context: 6)
    let data = try JSONEncoder().encode(spec)
    XCTAssertEqual(try JSONDecoder().decode(FeatureSpec.self, from: data), spec)
    let plain = try JSONEncoder().encode(self.spec(context: nil))
    XCTAssertFalse(String(decoding: plain, as: UTF8.self).contains("context"))
    XCTAssertNil(try JSONDecoder().decode(FeatureSpec.self, from: plain).context)
  }

  func testChoice_SpanInSecondsBecomesWindowsOfTheHop() throws {
    var choice = FeatureChoice()
    choice.featureChannels = ["a"]
    choice.window = .samples(40)
    choice.hop = .samples(10)
    choice.context = .seconds(3)  // 60 samples at 20 Hz: 6 hops, 7 windows
    let spec = try choice.spec(recipes: [.copy("a")], sampleRateHz: 20)
    XCTAssertEqual(spec.context?.windowCount, 7)
    choice.statistics = [.mean]
    choice.spectral = [.dominantFrequency]
    XCTAssertThrowsError(try choice.spec(recipes: [.copy("a")], sampleRateHz: 20)) {
      XCTAssertEqual($0 as? FeatureChoiceError, .contextWithoutFeatures)
    }
  }
}
