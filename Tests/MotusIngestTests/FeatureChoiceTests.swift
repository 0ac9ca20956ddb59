// FeatureChoice: the window and feature choices turned into a FeatureSpec for given recipes and
// rate: which channels get features under each rule, which vectors are split, the default hop,
// the errors and their hints, and WindowSpan's conversion to samples.

import Foundation
import MotusData
import MotusFeatures
import MotusIngest
import XCTest

final class FeatureChoiceTests: XCTestCase {
  /// Device-motion style channels: acceleration, gravity, rotation rate and attitude axes,
  /// plus two magnitudes.
  private let names =
    ["acceleration", "gravity", "rotationRate", "attitude"].flatMap { v in
      ["x", "y", "z"].map { "\(v).\($0)" }
    } + ["|acceleration|", "|rotationRate|"]

  private var recipes: [ChannelRecipe] {
    names.map { name in
      guard name.hasPrefix("|") else { return ChannelRecipe.copy(name) }
      let vector = String(name.dropFirst().dropLast())
      return ChannelRecipe(
        name: name, operation: .magnitude, inputs: ["x", "y", "z"].map { "\(vector).\($0)" })
    }
  }

  private func axes(_ vector: String) -> [String] { ["x", "y", "z"].map { "\(vector).\($0)" } }

  /// A choice with a short explicit window (the defaults may change; these tests do not rely
  /// on them) and two statistics, so feature names are few.
  private func choice(_ body: (inout FeatureChoice) -> Void = { _ in }) -> FeatureChoice {
    var c = FeatureChoice()
    c.window = .samples(64)
    c.statistics = [.mean, .std]
    c.spectral = []
    body(&c)
    return c
  }

  // MARK: Channel rules

  func testOrientationFree_MagnitudesAndSplitOfEveryVectorButGravityAndAttitude() throws {
    let spec = try choice { $0.channelRule = .orientationFree }.spec(
      recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(spec.channels, ["|acceleration|", "|rotationRate|"])
    XCTAssertEqual(spec.vectors, [], "no per-axis correlations: the axes get no features")
    XCTAssertEqual(spec.decomposedVectors, [axes("acceleration"), axes("rotationRate")])
    XCTAssertEqual(spec.recipes, recipes, "every recipe is still computed")
    XCTAssertEqual(
      spec.featureNames,
      [
        "|acceleration|:mean", "|acceleration|:std", "|rotationRate|:mean", "|rotationRate|:std",
        "acceleration.vertical:mean", "acceleration.vertical:std",
        "acceleration.horizontal:mean", "acceleration.horizontal:std",
        "rotationRate.vertical:mean", "rotationRate.vertical:std",
        "rotationRate.horizontal:mean", "rotationRate.horizontal:std",
      ])
    XCTAssertFalse(spec.featureNames.contains { $0.hasPrefix("gravity") })
    XCTAssertFalse(spec.featureNames.contains { $0.hasPrefix("attitude") })
  }

  func testOrientationFree_NeedsAllThreeAxesToSplit() throws {
    // rotationRate.z missing: rotation rate cannot be split (and its magnitude is a copy).
    let partial = recipes.filter { $0.name != "rotationRate.z" }
    let spec = try choice { $0.channelRule = .orientationFree }.spec(
      recipes: partial, sampleRateHz: 50)
    XCTAssertEqual(spec.decomposedVectors, [axes("acceleration")])
  }

  func testFeatureChannels_OverrideTheRuleButKeepItsSplit() throws {
    let spec = try choice {
      $0.channelRule = .orientationFree
      $0.featureChannels = ["acceleration.*"]
    }.spec(recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(spec.channels, axes("acceleration"))
    XCTAssertEqual(spec.vectors, [axes("acceleration")], "all three axes chosen: correlations")
    XCTAssertEqual(spec.decomposedVectors, [axes("acceleration"), axes("rotationRate")])
    XCTAssertTrue(spec.featureNames.contains("acceleration.x:std"))
    XCTAssertTrue(spec.featureNames.contains("acceleration:corr_xy"))
    XCTAssertTrue(spec.featureNames.contains("acceleration:gravity_angle"))
    XCTAssertFalse(spec.featureNames.contains { $0.hasPrefix("|") })
  }

  func testDecomposeEmpty_SplitsNothing() throws {
    let spec = try choice {
      $0.channelRule = .orientationFree
      $0.decompose = []
    }.spec(recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(spec.decomposedVectors, [])
    XCTAssertEqual(spec.channels, ["|acceleration|", "|rotationRate|"])
    XCTAssertEqual(spec.featureNames.count, 2 * 2)
  }

  func testDecomposeNamed_SplitsExactlyThoseVectors() throws {
    let spec = try choice {
      $0.channelRule = .all
      $0.decompose = ["rotationRate"]
    }.spec(recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(spec.decomposedVectors, [axes("rotationRate")])
  }

  func testAllRule_EveryChannelAndVectorNoSplit() throws {
    let spec = try choice { $0.channelRule = .all }.spec(recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(spec.channels, names)
    XCTAssertEqual(
      spec.vectors, [axes("acceleration"), axes("gravity"), axes("rotationRate"), axes("attitude")])
    XCTAssertEqual(spec.gravity, axes("gravity"))
    XCTAssertEqual(spec.decomposedVectors, [])
  }

  // MARK: Window, hop and the other choices

  func testHop_DefaultsToAThirdOfTheWindow() throws {
    let samples = try choice { $0.window = .samples(96) }.spec(recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(samples.windowLength, 96)
    XCTAssertEqual(samples.hopLength, 32)
    // 2.56 s at 50 Hz = 128 samples; 128 / 3 = 42 (integer division).
    let seconds = try choice { $0.window = .seconds(2.56) }.spec(
      recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(seconds.windowLength, 128)
    XCTAssertEqual(seconds.hopLength, 42)
    XCTAssertEqual(FeatureChoice.defaultHopLength(windowLength: 2), 1, "never 0")
    let given = try choice {
      $0.window = .seconds(2)
      $0.hop = .seconds(0.5)
    }.spec(recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(given.windowLength, 100)
    XCTAssertEqual(given.hopLength, 25)
  }

  func testWindowCount_IsTheSpecsWindowCountAtTheDataRate() throws {
    for rate in [50.0, 100, 20] {
      let spec = try FeatureChoice().spec(recipes: recipes, sampleRateHz: rate)
      let placement = SlidingWindow(length: spec.windowLength, hop: spec.hopLength)
      for sampleCount in [0, spec.windowLength - 1, spec.windowLength, 10 * spec.windowLength + 7] {
        XCTAssertEqual(
          FeatureChoice().windowCount(sampleCount: sampleCount, rateHz: rate),
          placement.count(sampleCount: sampleCount), "\(sampleCount) samples at \(rate) Hz")
      }
    }
    var short = FeatureChoice()
    short.window = .samples(10)
    short.hop = .samples(4)
    XCTAssertEqual(short.windowCount(sampleCount: 30, rateHz: 50), 6)
    XCTAssertEqual(FeatureChoice.defaultWindow, .seconds(FeatureChoice.defaultWindowSeconds))
  }

  func testChoices_CarryIntoTheSpec() throws {
    let spec = try choice {
      $0.spectral = [.logBandPowers]
      $0.bandEdgesHz = [0, 2, 5]
      $0.logPowerFloor = 0.01
      $0.channelRule = .all
      $0.featureChannels = ["|acceleration|"]
      $0.statistics = [.max]
    }.spec(recipes: recipes, sampleRateHz: 50)
    XCTAssertEqual(
      spec.featureNames,
      ["|acceleration|:max", "|acceleration|:log_band_0-2Hz", "|acceleration|:log_band_2-5Hz"])
    XCTAssertEqual(spec.logPowerFloor, 0.01)
    XCTAssertEqual(spec.sampleRateHz, 50)
  }

  func testSpecForLoadResult_UsesTheRecordingsRate() throws {
    let spec = try choice { $0.window = .seconds(1) }.spec(for: loadResult(rates: [20, 20.2]))
    XCTAssertEqual(spec.sampleRateHz, 20.2, "the median of two rates is the upper one")
    XCTAssertEqual(spec.windowLength, 20)
  }

  // MARK: Errors

  func testUnmatchedChannels_NamesThePatternsAndTheChoices() {
    let c = choice { $0.featureChannels = ["|acceleration|", "magnet*", "nothing"] }
    XCTAssertThrowsError(try c.spec(recipes: recipes, sampleRateHz: 50)) { error in
      XCTAssertEqual(
        error as? FeatureChoiceError, .unmatchedChannels(["magnet*", "nothing"], available: names))
      let text = "\(error)"
      XCTAssertTrue(text.contains("'--feature-channels': magnet*, nothing"), text)
      XCTAssertTrue(text.contains("HINT: choose among acceleration.x"), text)
    }
  }

  func testVectorWithoutAxes_NamesTheMissingAxes() {
    let c = choice { $0.decompose = ["magnetometer"] }
    XCTAssertThrowsError(try c.spec(recipes: recipes, sampleRateHz: 50)) { error in
      XCTAssertEqual(
        error as? FeatureChoiceError, .vectorWithoutAxes("magnetometer", axes: axes("magnetometer"))
      )
      let text = "\(error)"
      XCTAssertTrue(text.contains("'--decompose': magnetometer needs magnetometer.x"), text)
      XCTAssertTrue(text.contains("HINT"), text)
    }
  }

  func testNoFeatures_WhenNothingIsLeft() {
    let none = choice {
      $0.statistics = []
      $0.spectral = []
    }
    XCTAssertThrowsError(try none.spec(recipes: recipes, sampleRateHz: 50)) { error in
      XCTAssertEqual(error as? FeatureChoiceError, .noFeatures)
      XCTAssertTrue("\(error)".contains("HINT"), "\(error)")
    }
    // Orientation-free on data with neither magnitudes nor 3-axis vectors leaves nothing.
    let plain = [ChannelRecipe.copy("pressure"), .copy("acceleration.x")]
    XCTAssertThrowsError(
      try choice { $0.channelRule = .orientationFree }.spec(recipes: plain, sampleRateHz: 50)
    ) { error in
      XCTAssertEqual(error as? FeatureChoiceError, .noFeatures)
      XCTAssertTrue("\(error)".contains("--feature-channels all"), "\(error)")
    }
    XCTAssertNoThrow(try choice { $0.channelRule = .all }.spec(recipes: plain, sampleRateHz: 50))
  }

  func testMixedRates_NameTheRangeAndSuggestTheMedian() {
    XCTAssertThrowsError(try choice().spec(for: loadResult(rates: [50, 50, 60]))) { error in
      XCTAssertEqual(
        error as? FeatureChoiceError, .mixedRates(lowHz: 50, highHz: 60, medianHz: 50))
      let text = "\(error)"
      XCTAssertTrue(text.contains("from 50.0 to 60.0 Hz"), text)
      XCTAssertTrue(text.contains("HINT: resample with --sample-rate 50"), text)
    }
    // Within 2 % of the median is one rate.
    XCTAssertNoThrow(try choice().spec(for: loadResult(rates: [50, 50.9, 50])))
  }

  func testNoRecordings_Throws() {
    XCTAssertThrowsError(try choice().spec(for: loadResult(rates: []))) { error in
      XCTAssertEqual(error as? FeatureChoiceError, .noRecordings)
      XCTAssertTrue("\(error)".contains("HINT"), "\(error)")
    }
  }

  func testSpecErrors_StillComeFromTheSpec() {
    let c = choice {
      $0.window = .samples(10)
      $0.hop = .samples(11)
    }
    XCTAssertThrowsError(try c.spec(recipes: recipes, sampleRateHz: 50)) { error in
      XCTAssertEqual(error as? FeatureSpecError, .hopOutOfRange(hop: 11, window: 10))
    }
  }

  // MARK: WindowSpan

  func testWindowSpan_SamplesRoundToNearest() {
    XCTAssertEqual(WindowSpan.seconds(2.56).samples(atRate: 50), 128)
    // 0.25 s at 10 Hz is 2.5 samples: halves round away from zero.
    XCTAssertEqual(WindowSpan.seconds(0.25).samples(atRate: 10), 3)
    XCTAssertEqual(WindowSpan.seconds(0.24).samples(atRate: 10), 2)
    XCTAssertEqual(WindowSpan.seconds(0.26).samples(atRate: 10), 3)
    XCTAssertEqual(WindowSpan.samples(7).samples(atRate: 10), 7)
    XCTAssertEqual(WindowSpan.samples(7).samples(atRate: 1000), 7)
  }

  func testWindowSpan_HugeAndNonFiniteSecondsSaturate() {
    let cap = Int.max / 2
    XCTAssertEqual(WindowSpan.seconds(1e300).samples(atRate: 50), cap)
    XCTAssertEqual(WindowSpan.seconds(.infinity).samples(atRate: 50), cap)
    XCTAssertEqual(WindowSpan.seconds(.nan).samples(atRate: 50), cap)
    XCTAssertEqual(WindowSpan.seconds(1).samples(atRate: .greatestFiniteMagnitude), cap)
    XCTAssertFalse(WindowSpan.seconds(.nan).isPositive)
    XCTAssertFalse(WindowSpan.seconds(.infinity).isPositive)
    XCTAssertFalse(WindowSpan.seconds(0).isPositive)
    XCTAssertFalse(WindowSpan.samples(0).isPositive)
    XCTAssertTrue(WindowSpan.samples(1).isPositive)
    XCTAssertTrue(WindowSpan.seconds(0.01).isPositive)
  }

  func testWindowSpan_HugeNegativeSecondsSaturateBelowZero() {
    let cap = Int.max / 2
    XCTAssertEqual(WindowSpan.seconds(-1e300).samples(atRate: 50), -cap)
    XCTAssertEqual(WindowSpan.seconds(-.infinity).samples(atRate: 50), -cap)
    XCTAssertEqual(WindowSpan.seconds(1).samples(atRate: -.greatestFiniteMagnitude), -cap)
    XCTAssertEqual(WindowSpan.seconds(-2).samples(atRate: 50), -100)
    // So a negative window is the spec's error, not a trap.
    XCTAssertThrowsError(
      try choice { $0.window = .seconds(-1e300) }.spec(recipes: recipes, sampleRateHz: 50)
    ) { error in
      XCTAssertEqual(error as? FeatureSpecError, .windowNotPositive(-cap))
    }
  }

  func testWindowSpan_DescriptionIsTheCommandLineForm() {
    XCTAssertEqual(WindowSpan.seconds(2.56).description, "2.56s")
    XCTAssertEqual(WindowSpan.samples(128).description, "128")
  }

  // MARK: Helpers

  /// Labelled synthetic recordings of 100 constant samples, one per rate.
  private func loadResult(rates: [Double]) -> LoadResult {
    let recordings = rates.enumerated().map { i, rate in
      Recording(
        session: "s\(i)", subject: "1", source: "synthetic",
        timestamps: (0..<100).map { Double($0) / rate },
        columns: names.map { _ in [Float](repeating: 0, count: 100) },
        labelIndices: [Int32](repeating: 0, count: 100), sampleRateHz: rate)
    }
    return LoadResult(
      dataset: Dataset(channels: names, labels: ["still"], recordings: recordings),
      recipes: recipes, report: LoadReport())
  }
}
