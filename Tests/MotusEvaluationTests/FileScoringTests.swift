// Scoring files windowed as they are read gives the scores of loading them whole; data off
// the model's rate is still loaded whole and resampled. Every recording here is SYNTHETIC
// (ActivitySimulator).

import Foundation
@testable import MotusData
import MotusEvaluation
import MotusStreaming
import MotusTestSupport
import XCTest

final class FileScoringTests: XCTestCase {
  private var folder: URL!
  private var savedChunkBytes = 0

  override func setUpWithError() throws {
    folder = try makeTemporaryDirectory()
    savedChunkBytes = ChunkSplitter.chunkBytes
    ChunkSplitter.chunkBytes = 4096  // many blocks
  }

  override func tearDown() {
    ChunkSplitter.chunkBytes = savedChunkBytes
    try? FileManager.default.removeItem(at: folder)
  }

  private func file(rateHz: Double) throws -> String {
    let url = folder.appendingPathComponent("synthetic-\(Int(rateHz)).csv")
    var text = ""
    for (i, r) in StreamAgreement.trainingRecordings(rateHz: rateHz).enumerated() {
      text += r.csv(includeHeader: i == 0)
    }
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func testWindowedAsReadScoresAsTheWholeLoad() throws {
    let model = try StreamAgreement.model()
    let path = try file(rateHz: 50)
    for smoothing in [Smoothing.none, .hiddenMarkov(switchProbability: 0.05)] {
      let loaded = try Evaluation.loadForScoring(
        [path], model: model, options: LoadOptions(), minimumPurity: 0.8, smoothing: smoothing)
      XCTAssertNil(loaded.dataset, "windowed as read")
      XCTAssertFalse(loaded.resampled)
      let streamed = try Evaluation.run(
        model: model, loaded: loaded, minimumPurity: 0.8, smoothing: smoothing)
      let whole = try Evaluation.run(
        model: model,
        dataset: Evaluation.load([path], model: model, options: LoadOptions()).result.dataset,
        minimumPurity: 0.8, smoothing: smoothing)
      XCTAssertGreaterThan(whole.windowCount, 100)
      XCTAssertEqual(try streamed.jsonData(), try whole.jsonData(), "\(smoothing)")
      XCTAssertEqual(streamed.csv(), whole.csv(), "\(smoothing)")
    }
  }

  func testOffRateDataIsLoadedWholeAndResampled() throws {
    let model = try StreamAgreement.model()
    let path = try file(rateHz: 25)
    let loaded = try Evaluation.loadForScoring([path], model: model, options: LoadOptions())
    XCTAssertNotNil(loaded.dataset, "loaded whole")
    XCTAssertTrue(loaded.resampled)
    let expected = try Evaluation.load([path], model: model, options: LoadOptions())
    XCTAssertEqual(loaded.dataset, expected.result.dataset)
  }
}
