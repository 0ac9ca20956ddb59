import MotusData
import MotusFeatures
import MotusIngest
import XCTest

final class WindowTableTests: XCTestCase {
  func testSlidingWindow_StartsAndCount() {
    let window = SlidingWindow(length: 4, hop: 2)
    XCTAssertEqual(Array(window.starts(sampleCount: 10)), [0, 2, 4, 6])
    XCTAssertEqual(window.count(sampleCount: 3), 0)
    XCTAssertEqual(window.count(sampleCount: 4), 1)
    XCTAssertEqual(Array(SlidingWindow(length: 3, hop: 3).starts(sampleCount: 9)), [0, 3, 6])
  }

  func testMajorityLabel_PurityAndTies() {
    let m = SlidingWindow.majorityLabel([2, 2, 1, 2] as [Int32])
    XCTAssertEqual(m.label, 2)
    XCTAssertEqual(m.purity, 0.75)
    // A tie goes to the smaller label index, whatever the order.
    XCTAssertEqual(SlidingWindow.majorityLabel([3, 1, 3, 1] as [Int32]).label, 1)
    XCTAssertEqual(SlidingWindow.majorityLabel([1, 3, 1, 3] as [Int32]).label, 1)
    XCTAssertEqual(SlidingWindow.majorityLabel([5] as [Int32]).purity, 1)
    let uniform = SlidingWindow.majorityLabel([4, 4, 4] as [Int32])
    XCTAssertEqual(uniform.label, 4)
    XCTAssertEqual(uniform.purity, 1)
  }

  private func dataset() -> Dataset {
    // 10 samples: labels 0 0 0 0 0 1 1 1 1 1; and a 3-sample recording (too short).
    let long = Recording(
      session: "s1", subject: "7", source: "test", timestamps: (0..<10).map { Double($0) / 2 },
      columns: [(0..<10).map { Float($0) }], labelIndices: [0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
      sampleRateHz: 2)
    let short = Recording(
      session: "s2", subject: "8", source: "test", timestamps: [0, 0.5, 1],
      columns: [[1, 2, 3]], labelIndices: [0, 0, 0], sampleRateHz: 2)
    return Dataset(channels: ["x"], labels: ["sit", "walk"], recordings: [long, short])
  }

  private func extractor() throws -> FeatureExtractor {
    try FeatureExtractor(
      spec: FeatureSpec(
        recipes: [.copy("x")], channels: ["x"], sampleRateHz: 2, windowLength: 4, hopLength: 2,
        statistics: [.mean, .max], spectral: [], bandEdgesHz: []))
  }

  func testMake_LabelsPurityAndSkippedRecordings() throws {
    let table = try WindowTable.make(dataset: dataset(), extractor: extractor())
    XCTAssertEqual(table.windowCount, 4)
    XCTAssertEqual(table.starts, [0, 2, 4, 6])
    XCTAssertEqual(table.startTimes, [0, 1, 2, 3])
    // Windows 0-3, 2-5, 4-7, 6-9: labels 0000, 0001, 0111, 1111.
    XCTAssertEqual(table.labelIndices, [0, 0, 1, 1])
    XCTAssertEqual(table.purity, [1, 0.75, 0.75, 1])
    XCTAssertEqual(table.label(at: 2), "walk")
    XCTAssertEqual(table.session(at: 0), "s1")
    XCTAssertEqual(table.subject(at: 0), "7")
    XCTAssertEqual(table.skippedRecordingCount, 1)
    XCTAssertEqual(table.featureNames, ["x:mean", "x:max"])
    XCTAssertEqual(table.features.rowCount, 4)
    XCTAssertEqual(table.features.row(1), [3.5, 5])
  }

  func testMake_DropsImpureWindows() throws {
    let table = try WindowTable.make(dataset: dataset(), extractor: extractor(), minimumPurity: 0.8)
    XCTAssertEqual(table.starts, [0, 6])
    XCTAssertEqual(table.droppedImpureCount, 2)
    XCTAssertEqual(table.features.row(1), [7.5, 9])
  }

  func testMake_RejectsChannelAndRateMismatch() throws {
    var other = dataset()
    other.channels = ["y"]
    XCTAssertThrowsError(try WindowTable.make(dataset: other, extractor: extractor()))
    var slow = dataset()
    slow.recordings[0].sampleRateHz = 1
    XCTAssertThrowsError(try WindowTable.make(dataset: slow, extractor: extractor())) { error in
      XCTAssertTrue("\(error)".contains("HINT:"))
    }
  }
}
