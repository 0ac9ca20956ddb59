// LoadResult.keepingSubjects: the recordings and the report both describe what is left.

@testable import MotusData
@testable import MotusIngest
import XCTest

final class KeepingSubjectsTests: XCTestCase {
  private func result() -> LoadResult {
    var report = LoadReport()
    var recordings: [Recording] = []
    for subject in 1...3 {
      let labels = [Int32](repeating: Int32(subject - 1) % 2, count: 10 * subject)
      recordings.append(
        Recording(
          session: "s\(subject)", subject: "\(subject)", source: "f.csv",
          timestamps: labels.indices.map { Double($0) / 10 }, columns: [labels.map(Float.init)],
          labelIndices: labels, sampleRateHz: 10))
      report.sessions.append(
        LoadReport.Session(
          name: "s\(subject)", subject: "\(subject)", file: "f.csv", rowCount: labels.count,
          detectedRateHz: 10, recordingCount: 1))
    }
    report.recordingCount = 3
    report.labelSampleCounts = ["sit": 40, "walk": 20]
    return LoadResult(
      dataset: Dataset(channels: ["a"], labels: ["sit", "walk"], recordings: recordings),
      recipes: [.copy("a")], report: report)
  }

  func testKeepAndDrop_LeaveMatchingRecordingsAndRecountTheReport() throws {
    let filtered = result().keepingSubjects(
      try SubjectFilter(parsing: "1-2"), dropping: try SubjectFilter(parsing: "2"))
    XCTAssertEqual(filtered.dataset.recordings.map(\.subject), ["1"])
    XCTAssertEqual(filtered.report.sessions.map(\.name), ["s1"])
    XCTAssertEqual(filtered.report.recordingCount, 1)
    XCTAssertEqual(filtered.report.labelSampleCounts, ["sit": 10])
    XCTAssertEqual(try XCTUnwrap(filtered.report.labelDurationsSeconds["sit"]), 1, accuracy: 1e-9)
  }

  func testNoFilters_ChangeNothing() {
    let original = result()
    let same = original.keepingSubjects(nil, dropping: nil)
    XCTAssertEqual(same.dataset, original.dataset)
    XCTAssertEqual(same.report.labelSampleCounts, ["sit": 40, "walk": 20])
  }
}
