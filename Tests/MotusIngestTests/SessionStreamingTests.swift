// A load that hands sessions over as the file is read gives the recordings, report and
// vocabulary of a whole load, and declines (nil) whenever it could not promise that.

@testable import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class SessionStreamingTests: ChunkedCSVTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    // Blocks of a few hundred bytes: past the first block (which holds at least 1,002 lines to
    // choose the channels from), every file here is read in many blocks.
    ChunkSplitter.chunkBytes = 200
  }

  private let header = "timestamp,session,subject,label,a,b\n"

  /// `count` rows of `session` from time step `from` (50 Hz), labels `first` then `second`
  /// every 25 rows; `gapAt` adds 10 s to the times from that row on.
  private func rows(
    _ session: String, subject: String = "1", from: Int = 0, count: Int, first: String = "walk",
    second: String = "run", gapAt: Int? = nil
  ) -> String {
    (from..<(from + count)).map { i in
      let t = Double(i) * 0.02 + (gapAt.map { i >= $0 ? 10 : 0 } ?? 0)
      return
        "\(t),\(session),\(subject),\(i % 50 < 25 ? first : second),\(i % 7),\(Double(i % 11) / 4)\n"
    }.joined()
  }

  /// `loadSessions` of `paths`, with the recordings relabelled to the final vocabulary, and
  /// the number of batches; nil when it declined.
  private func streamed(_ paths: [String], options: LoadOptions = LoadOptions()) -> (
    load: LoadOutline, recordings: [Recording], batches: Int
  )? {
    var handed: [(recording: Recording, labels: [String])] = []
    var batches = 0
    let load = DatasetLoader.loadSessions(paths, options: options) { batch in
      batches += 1
      // Label names now: a batch's indices point into its own label list.
      handed += batch.recordings.map { r in (r, r.labelIndices.map { batch.labels[Int($0)] }) }
    }
    guard let load else { return nil }
    let recordings = handed.map { item -> Recording in
      var r = item.recording
      r.labelIndices = item.labels.map { Int32(load.labels.firstIndex(of: $0)!) }
      return r
    }
    return (load, recordings, batches)
  }

  private func assertSame(
    _ paths: [String], options: LoadOptions = LoadOptions(), minimumBatches: Int = 2,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let whole = try DatasetLoader.load(paths, options: options)
    guard let streamed = streamed(paths, options: options) else {
      return XCTFail("the load declined to stream", file: file, line: line)
    }
    XCTAssertEqual(streamed.recordings, whole.dataset.recordings, file: file, line: line)
    XCTAssertEqual(streamed.load.labels, whole.dataset.labels, file: file, line: line)
    XCTAssertEqual(streamed.load.report, whole.report, file: file, line: line)
    XCTAssertEqual(streamed.load.recipes, whole.recipes, file: file, line: line)
    XCTAssertEqual(
      streamed.load.recordings, whole.dataset.recordings.map(RecordingOutline.init),
      file: file, line: line)
    XCTAssertGreaterThanOrEqual(
      streamed.batches, minimumBatches, "sessions handed over as read", file: file, line: line)
  }

  func testStreamedLoadEqualsTheWholeLoad() throws {
    // Labels first seen as walk then run (natural order: run, walk); a gap splits s2; s4 is
    // one row; s5 carries only a label the keep list drops in the second load.
    let text =
      header + rows("s0", count: 1100) + rows("s1", count: 300)
      + rows("s2", subject: "2", count: 200, gapAt: 120)
      + rows("s3", count: 150, first: "sit", second: "walk") + rows("s4", count: 1)
      + rows("s5", subject: "3", count: 80, first: "jog", second: "jog")
    let path = try folder.write("x.csv", text)
    try assertSame([path], minimumBatches: 3)

    var options = LoadOptions()
    options.labelMap = ["walk": "moving", "run": "moving"]
    options.keepLabels = ["moving", "sit"]
    options.subjects = try SubjectFilter(parsing: "1-2")
    try assertSame([path], options: options)

    options = LoadOptions()
    options.sampleRateHz = 25
    try assertSame([path], options: options)
  }

  func testFilesWithDistinctSessionsStreamOneAfterAnother() throws {
    let a = try folder.write("a.csv", header + rows("s1", count: 1100) + rows("s2", count: 300))
    let b = try folder.write("b.csv", header + rows("s3", count: 200, first: "cycle"))
    try assertSame([a, b])
  }

  func testDeclinesWhatItCannotPromise() throws {
    // A session whose rows come back after another session's.
    let back = try folder.write(
      "back.csv",
      header + rows("s1", count: 1100) + rows("s2", count: 300)
        + rows("s1", from: 1100, count: 100))
    XCTAssertTrue(streamed([back]) == nil, "a session reappears")
    XCTAssertEqual(
      try DatasetLoader.load([back], options: LoadOptions()).dataset.recordings.count, 2)

    // One session name in two files: the whole load names them after their files.
    let a = try folder.write("a.csv", header + rows("s1", count: 1100) + rows("s2", count: 300))
    let b = try folder.write("b.csv", header + rows("s1", count: 300))
    XCTAssertTrue(streamed([a]) != nil, "each file alone streams")
    XCTAssertTrue(streamed([a, b]) == nil, "a session name in two files")

    // An error anywhere (here a cell late in the file): the whole load reports it.
    let bad = try folder.write(
      "bad.csv", header + rows("s1", count: 1100) + rows("s2", count: 300) + "99,s3,1,walk,x,1\n")
    XCTAssertTrue(streamed([bad]) == nil, "bad cell")

    // A label map key the data lacks is found only at the end.
    var options = LoadOptions()
    options.labelMap = ["swim": "moving"]
    XCTAssertTrue(streamed([a], options: options) == nil, "unknown label map key")

    // The consumer's own error.
    struct Refused: Error {}
    XCTAssertNil(DatasetLoader.loadSessions([a], options: LoadOptions()) { _ in throw Refused() })
  }
}
