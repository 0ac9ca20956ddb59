// Windowing sessions as the file is read gives the table of loading whole and then windowing:
// the same rows, labels (ties included), spec, recordings and report, on synthetic and real data.

@testable import MotusData
import MotusFeatures
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class WindowedLoadTests: TemporaryFolderTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    restoreAfterTest(get: { ChunkSplitter.chunkBytes }, set: { ChunkSplitter.chunkBytes = $0 })
    ChunkSplitter.chunkBytes = 512  // many blocks after the first
  }

  /// `count` rows of `session` at `rateHz`; the label switches every `run` rows between `a`
  /// and `b`, so windows of 2 * run samples that start on a switch tie.
  private func rows(
    _ session: String, count: Int, from: Int = 0, rateHz: Double = 50, run: Int = 8,
    a: String = "walk", b: String = "run"
  ) -> String {
    (from..<(from + count)).map { i in
      let label = (i / run) % 2 == 0 ? a : b
      return "\(Double(i) / rateHz),\(session),1,\(label),\(sin(Double(i) * 0.3)),\(i % 9)\n"
    }.joined()
  }

  private let header = "timestamp,session,subject,label,x,y\n"

  /// Windows of 16 samples, hop 8: with label runs of 8, every window is a 50/50 tie.
  private func choice() -> FeatureChoice {
    var choice = FeatureChoice()
    choice.window = .samples(16)
    choice.hop = .samples(8)
    choice.channelRule = .all
    choice.statistics = [.mean, .std]
    choice.spectral = [.bandPowers]
    return choice
  }

  private func loadBoth(_ paths: [String], options: LoadOptions = LoadOptions()) throws -> (
    streamed: WindowedLoad, whole: WindowedLoad
  ) {
    let choice = choice()
    let chooseSpec: DataSource.SpecChoice = { try choice.spec(recipes: $0, recordingRates: $1) }
    let streamed = try DataSource(files: paths, options: options).windows(
      minimumPurity: 0.4, chooseSpec: chooseSpec)
    let result = try DatasetLoader.load(paths, options: options)
    let whole = try WindowedLoad(
      result: result, spec: choice.spec(for: result), minimumPurity: 0.4)
    return (streamed, whole)
  }

  private func assertSame(_ a: WindowedLoad, _ b: WindowedLoad, line: UInt = #line) {
    XCTAssertEqual(a.table, b.table, line: line)
    XCTAssertEqual(a.spec, b.spec, line: line)
    XCTAssertEqual(a.outline.recordings, b.outline.recordings, line: line)
    XCTAssertEqual(a.outline.labels, b.outline.labels, line: line)
    XCTAssertEqual(a.outline.report, b.outline.report, line: line)
  }

  func testStreamedTableEqualsTheWholeLoadsTableTiesIncluded() throws {
    // "walk" is read before "run", but ties go to "run", first in natural order.
    let path = try write(
      header + rows("s1", count: 1200) + rows("s2", count: 300, a: "sit", b: "walk")
        + rows("s3", count: 5) + rows("s4", count: 200, a: "run", b: "jog"), "x.csv")
    let (streamed, whole) = try loadBoth([path])
    XCTAssertTrue(streamed.streamed)
    XCTAssertFalse(whole.streamed)
    assertSame(streamed, whole)
    XCTAssertEqual(whole.table.labels, ["jog", "run", "sit", "walk"])
    let firstWindowLabel = whole.table.label(at: 0)
    XCTAssertEqual(firstWindowLabel, "run", "a tie goes to the label first in natural order")
    XCTAssertEqual(whole.table.skippedRecordingCount, 1)

    var options = LoadOptions()
    options.labelMap = ["jog": "run"]
    options.keepLabels = ["run", "walk"]
    let (mappedStreamed, mappedWhole) = try loadBoth([path], options: options)
    XCTAssertTrue(mappedStreamed.streamed)
    assertSame(mappedStreamed, mappedWhole)
  }

  func testFallsBackToTheWholeLoadWhenASessionReappears() throws {
    let path = try write(
      header + rows("s1", count: 3000) + rows("s2", count: 2000)
        + rows("s1", count: 100, from: 3000), "x.csv")
    let (streamed, whole) = try loadBoth([path])
    XCTAssertFalse(streamed.streamed)
    assertSame(streamed, whole)
  }

  func testMixedRatesFailAsTheWholeLoadDoes() throws {
    let path = try write(
      header + rows("s1", count: 1200) + rows("s2", count: 300, rateHz: 25), "x.csv")
    XCTAssertThrowsError(try loadBoth([path])) { error in
      guard case FeatureChoiceError.mixedRates = error else {
        return XCTFail("expected mixed rates, got \(error)")
      }
    }
  }

  func testRealDataStreamsToTheSameTable() throws {
    let path = SharedData.qrowd.path
    guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(path) is absent") }
    ChunkSplitter.chunkBytes = 256 << 10
    let options = LoadOptions()
    let spec: DataSource.SpecChoice = {
      try FeatureChoice().spec(recipes: $0, recordingRates: $1)
    }
    let streamed = try DataSource(files: [path], options: options).windows(chooseSpec: spec)
    let result = try DatasetLoader.load([path], options: options)
    let whole = try WindowedLoad(result: result, spec: FeatureChoice().spec(for: result))
    XCTAssertTrue(streamed.streamed)
    assertSame(streamed, whole)
    XCTAssertEqual(whole.outline.recordings.count, 21)
  }
}
