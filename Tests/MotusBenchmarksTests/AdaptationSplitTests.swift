// bench adapt's split of a held-out group's windows into lent, scored and reference rows, on
// a hand-made table (synthetic, no features needed): halves of the fold's people, or, for a
// fold of one person, the people of the group's other folds.

import MotusData
@testable import MotusIngest
import MotusLinearAlgebra
import XCTest

@testable import MotusBenchmarks

final class AdaptationSplitTests: XCTestCase {
  /// Recordings 0-3 of people p1-p4 at one placement, 4-5 training recordings of p5 and p6;
  /// two windows each, then one perturbed copy's window (recording index 6 + 0).
  private func fixture() -> (table: WindowTable, dataset: Dataset) {
    let subjects = ["p1", "p2", "p3", "p4", "p5", "p6"]
    let recordings = subjects.map {
      Recording(
        session: "\($0)_la", subject: $0, source: "s", timestamps: [0], columns: [[0]],
        labelIndices: [0], sampleRateHz: 15)
    }
    let windowRecordings = (0..<6).flatMap { [$0, $0] } + [6]
    let n = windowRecordings.count
    let table = WindowTable(
      features: Matrix(rowCount: n, columnCount: 1, values: [Float](repeating: 0, count: n)),
      featureNames: ["f"], labelIndices: [Int32](repeating: 0, count: n),
      purity: [Float](repeating: 1, count: n), recordingIndices: windowRecordings,
      starts: Array(0..<n), startTimes: (0..<n).map(Double.init), labels: ["a"],
      recordingSessions: recordings.map(\.session) + ["copy"],
      recordingSubjects: subjects + ["p1"], skippedRecordingCount: 0, droppedImpureCount: 0)
    return (table, Dataset(channels: ["x"], labels: ["a"], recordings: recordings))
  }

  func testAFoldOfSeveralPeopleLendsItsFirstHalfAndScoresTheRest() throws {
    let (table, dataset) = fixture()
    let training = (0..<6).map { $0 >= 4 }
    let split = try XCTUnwrap(
      AdaptationBenchmark.split(
        table, test: [0, 1, 2, 3], lenders: [], isTraining: training, dataset: dataset))
    XCTAssertEqual(split.lent, [0, 1, 2, 3], "p1 and p2's windows")
    XCTAssertEqual(split.scored, [4, 5, 6, 7], "p3 and p4's")
    XCTAssertEqual(split.reference, [8, 9, 10, 11], "the training recordings', no copy")
  }

  func testAFoldOfOnePersonBorrowsFromTheOtherFoldsPeople() throws {
    let (table, dataset) = fixture()
    let training = (0..<6).map { $0 >= 4 }
    XCTAssertNil(
      AdaptationBenchmark.split(
        table, test: [0], lenders: [], isTraining: training, dataset: dataset))
    let split = try XCTUnwrap(
      AdaptationBenchmark.split(
        table, test: [0], lenders: [1, 4], isTraining: training, dataset: dataset))
    XCTAssertEqual(split.lent, [2, 3], "p2's windows; p5's are training and never lent")
    XCTAssertEqual(split.scored, [0, 1])
    XCTAssertEqual(split.reference, [8, 9, 10, 11])
  }
}
