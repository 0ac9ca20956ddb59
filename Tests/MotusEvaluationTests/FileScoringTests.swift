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
      XCTAssertNil(loaded.dataset, "windowed as read")
      XCTAssertFalse(loaded.resampled)
      let streamed = try Evaluation.run(
        model: model, loaded: loaded, minimumPurity: 0.8, smoothing: smoothing)
      let whole = try Evaluation.run(
        model: model,
        dataset: XCTUnwrap(
          Evaluation.loadForScoring(DataSource(files: [path]), model: model, whole: true).dataset),
        minimumPurity: 0.8, smoothing: smoothing)
      XCTAssertGreaterThan(whole.windowCount, 100)
      XCTAssertEqual(try streamed.jsonData(), try whole.jsonData(), "\(smoothing)")
      XCTAssertEqual(streamed.csv(), whole.csv(), "\(smoothing)")
    }
  }

  func testOffRateDataIsLoadedWholeAndResampled() throws {
    let model = try StreamAgreement.model()
    let path = try file(rateHz: 25)
    let loaded = try Evaluation.loadForScoring(DataSource(files: [path]), model: model)
    XCTAssertNotNil(loaded.dataset, "loaded whole")
    XCTAssertTrue(loaded.resampled)
    var options = LoadOptions()
    options.modelRecipes = model.featureSpec.recipes
    options.sampleRateHz = model.featureSpec.sampleRateHz
    let expected = try DatasetLoader.load([path], options: options)
    XCTAssertEqual(loaded.dataset, expected.dataset)
  }
}
