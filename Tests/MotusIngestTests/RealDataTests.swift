// Loads the real QROWD/TR file from ../shared/datasets (skipped when it is absent).

import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class RealDataTests: XCTestCase {
  func testLoad_QrowdTR_SessionsLabelsAndRate() throws {
    let path = SharedData.qrowd.path
    guard FileManager.default.fileExists(atPath: path) else {
      throw XCTSkip("\(path) is absent")
    }
    let result = try DatasetLoader.load([path], options: LoadOptions())
    let d = result.dataset
    // 7 classes x 3 users (see ../shared/datasets/README.md).
    XCTAssertEqual(d.labels, ["bike", "bus", "car", "run", "still", "train", "walk"])
    XCTAssertEqual(d.subjects, ["1", "2", "3"])
    XCTAssertEqual(result.report.sessions.count, 21)
    XCTAssertEqual(d.recordings.count, 21)
    XCTAssertTrue(result.report.skipped.isEmpty)
    XCTAssertEqual(d.channels, ["acceleration.x", "acceleration.y", "acceleration.z"])
    for r in d.recordings {
      XCTAssertEqual(r.sampleRateHz, 15, accuracy: 0.01, r.session)
      XCTAssertTrue(r.session.hasPrefix(d.labels[Int(r.labelIndices[0])]), r.session)
    }
    XCTAssertEqual(d.sampleCount, result.report.rowsRead)
    // The README's row counts per label, in thousands.
    XCTAssertEqual(Double(result.report.labelSampleCounts["car"] ?? 0) / 1000, 56, accuracy: 1)
    XCTAssertEqual(Double(result.report.labelSampleCounts["run"] ?? 0) / 1000, 21, accuracy: 1)

    var mapped = LoadOptions()
    mapped.labelMap = ["car": "automotive", "bus": "automotive", "train": "automotive"]
    mapped.keepLabels = ["automotive", "walk"]
    mapped.subjects = try SubjectFilter(parsing: "1-2")
    mapped.sampleRateHz = 10
    let subset = try DatasetLoader.load([path], options: mapped)
    XCTAssertEqual(subset.dataset.labels, ["automotive", "walk"])
    XCTAssertEqual(subset.dataset.recordings.count, 8)
    XCTAssertTrue(subset.dataset.recordings.allSatisfy { $0.sampleRateHz == 10 })
  }
}
