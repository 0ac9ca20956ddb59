// Sizes a spec may have (it comes from a model file too), and windows whose features are not
// finite: an error naming the window, never a NaN in a table.

import MotusData
import MotusFeatures
import MotusIngest
import XCTest

final class FeatureSpecLimitsTests: XCTestCase {
  private let spec = FeatureSpec(
    recipes: [.copy("x")], channels: ["x"], sampleRateHz: 50, windowLength: 8, hopLength: 4,
    statistics: [.mean, .std, .kurtosis], spectral: [.bandPowers], bandEdgesHz: [0, 5, 25])

  func testValidate_RefusesSizesBeyondTheLimits() {
    func expect(_ change: (inout FeatureSpec) -> Void, _ expected: FeatureSpecError) {
      var bad = spec
      change(&bad)
      XCTAssertThrowsError(try bad.validate()) { error in
        XCTAssertEqual(error as? FeatureSpecError, expected)
        XCTAssertTrue("\(error)".contains("HINT:"), "\(error)")
      }
    }
    expect({ $0.windowLength = 1 << 40 }, .windowTooLong(1 << 40, limit: 65_536))
    expect({ $0.sampleRateHz = 1e300 }, .sampleRateOutOfRange(1e300))
    expect({ $0.sampleRateHz = 0.01 }, .sampleRateOutOfRange(0.01))
    expect(
      { $0.bandEdgesHz = (0...70_000).map { Double($0) / 3000 } }, .tooManyFeatures(limit: 65_536))
    expect(
      { $0.recipes = [ChannelRecipe(name: "x", operation: .copy, inputs: ["a", "b"])] },
      .invalidRecipe(name: "x", reason: "copy of 2 inputs"))
    expect(
      { $0.recipes = [.copy("x", scale: .infinity)] },
      .invalidRecipe(name: "x", reason: "scale inf"))
    XCTAssertNoThrow(try spec.validate())
  }

  func testCheckedFeatureCount_MatchesTheNames() {
    XCTAssertEqual(spec.checkedFeatureCount, spec.featureNames.count)
    var vectors = spec
    vectors.recipes = ["a.x", "a.y", "a.z"].map { ChannelRecipe.copy($0) }
    vectors.channels = ["a.x", "a.y", "a.z"]
    vectors.vectors = [["a.x", "a.y", "a.z"]]
    vectors.decomposedVectors = [["a.x", "a.y", "a.z"]]
    XCTAssertEqual(vectors.checkedFeatureCount, vectors.featureNames.count)
  }

  func testWindowTable_NamesTheWindowWhoseFeatureIsNotFinite() throws {
    // Built directly: the loader would refuse 1e30 at its cell already.
    var values = [Float](repeating: 0.5, count: 40)
    values[21] = 1e30
    let recording = Recording(
      session: "walk-1", subject: "3", source: "walk.csv",
      timestamps: (0..<40).map { Double($0) / 50 }, columns: [values],
      labelIndices: [Int32](repeating: 0, count: 40), sampleRateHz: 50)
    let dataset = Dataset(channels: ["x"], labels: ["walk"], recordings: [recording])
    XCTAssertThrowsError(
      try WindowTable.make(dataset: dataset, extractor: FeatureExtractor(spec: spec))
    ) { error in
      guard case .nonFiniteFeature(_, "walk-1", "walk.csv", let start)? = error as? FeatureSpecError
      else { return XCTFail("\(error)") }
      XCTAssertEqual(start, 0.32, accuracy: 1e-9, "the first window holding sample 21")
      XCTAssertTrue("\(error)".contains("HINT:"), "\(error)")
    }
  }
}
