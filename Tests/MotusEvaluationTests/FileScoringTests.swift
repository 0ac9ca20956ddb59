// Scoring files windowed as they are read gives the scores of loading them whole; data off
// the model's rate is still loaded whole and resampled. Every recording here is SYNTHETIC
// (ActivitySimulator).

import Foundation
@testable import MotusData
import MotusEvaluation
@testable import MotusIngest
import MotusStreaming
import MotusTestSupport
import XCTest

final class FileScoringTests: TemporaryFolderTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    restoreAfterTest(get: { ChunkSplitter.chunkBytes }, set: { ChunkSplitter.chunkBytes = $0 })
    ChunkSplitter.chunkBytes = 4096  // many blocks
  }

  private func file(rateHz: Double) throws -> String {
    var text = ""
    for (i, r) in StreamAgreement.trainingRecordings(rateHz: rateHz).enumerated() {
      text += r.csv(includeHeader: i == 0)
    }
    return try write(text, "synthetic-\(Int(rateHz)).csv")
  }

  func testWindowedAsReadScoresAsTheWholeLoad() throws {
    let model = try StreamAgreement.model()
    let path = try file(rateHz: 50)
    for smoothing in [Smoothing.none, .hiddenMarkov(switchProbability: 0.05)] {
      let loaded = try Evaluation.loadForScoring(
        DataSource(files: [path]), model: model, minimumPurity: 0.8, smoothing: smoothing)
      guard case .scored(let windowed, let scores) = loaded else {
        return XCTFail("data at the model's rate is windowed and scored as read")
      }
      XCTAssertEqual(windowed.table.featureNames, [], "features dropped once scored")
      XCTAssertEqual(scores.probabilities.rowCount, windowed.table.windowCount)
      let streamed = try Evaluation.run(
        model: model, loaded: loaded, minimumPurity: 0.8, smoothing: smoothing)
      let wholeLoad = try Evaluation.loadForScoring(
        DataSource(files: [path]), model: model, whole: true)
      guard case .whole(let whole) = wholeLoad else { return XCTFail("asked to load whole") }
      XCTAssertFalse(whole.resampled)
      let scoredWhole = try Evaluation.run(
        model: model, dataset: whole.result.dataset, minimumPurity: 0.8, smoothing: smoothing)
      XCTAssertGreaterThan(scoredWhole.windowCount, 100)
      XCTAssertEqual(try streamed.jsonData(), try scoredWhole.jsonData(), "\(smoothing)")
      XCTAssertEqual(streamed.csv(), scoredWhole.csv(), "\(smoothing)")
      let runOnWhole = try Evaluation.run(
        model: model, loaded: wholeLoad, minimumPurity: 0.8, smoothing: smoothing)
      XCTAssertEqual(try runOnWhole.jsonData(), try scoredWhole.jsonData())
    }
  }

  func testOffRateDataIsLoadedWholeAndResampled() throws {
    let model = try StreamAgreement.model()
    let path = try file(rateHz: 25)
    let loaded = try Evaluation.loadForScoring(DataSource(files: [path]), model: model)
    guard case .whole(let whole) = loaded else { return XCTFail("off-rate data is loaded whole") }
    XCTAssertTrue(whole.resampled)
    var options = LoadOptions()
    options.modelRecipes = model.featureSpec.recipes
    options.sampleRateHz = model.featureSpec.sampleRateHz
    let expected = try DatasetLoader.load([path], options: options)
    XCTAssertEqual(whole.result.dataset, expected.dataset)
  }

  func testSampleRateOtherThanTheModelsIsRefusedByTheSource() throws {
    let model = try StreamAgreement.model()
    var options = LoadOptions()
    options.sampleRateHz = 2 * model.featureSpec.sampleRateHz
    XCTAssertThrowsError(
      try Evaluation.loadForScoring(
        DataSource(files: [try file(rateHz: 50)], options: options), model: model)
    ) { error in
      XCTAssertEqual(
        error as? DataSourceError,
        .sampleRateMismatch(
          requestedHz: options.sampleRateHz!, modelHz: model.featureSpec.sampleRateHz))
    }
  }
}
