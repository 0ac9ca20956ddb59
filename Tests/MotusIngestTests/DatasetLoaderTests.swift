// What the loader builds from small synthetic CSV texts (hand-written rows, not real data).

import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class DatasetLoaderTests: XCTestCase {
  var folder: CSVFolder!

  override func setUpWithError() throws { folder = try CSVFolder() }
  override func tearDown() { folder.remove() }

  /// Synthetic rows at `rateHz`: `a = i`, `b = 10 * i`.
  private func rows(
    session: String, subject: String, label: String, count: Int, rateHz: Double = 10,
    start: Int = 0
  ) -> String {
    (start..<(start + count)).map { i in
      "\(Double(i) / rateHz),\(session),\(subject),\(label),\(i),\(10 * i)\n"
    }.joined()
  }

  private let header = "timestamp,session,subject,label,a,b\n"

  func testLoad_LongLayout_SessionsSubjectsLabelsAndRates() throws {
    let path = try folder.write(
      "x.csv",
      header + rows(session: "s1", subject: "2", label: "walk", count: 5)
        + rows(session: "s2", subject: "10", label: "sit", count: 4, rateHz: 20))
    let result = try DatasetLoader.load([path], options: options())
    let d = result.dataset
    XCTAssertEqual(d.channels, ["a", "b"])
    XCTAssertEqual(d.channels, result.recipes.map(\.name))
    XCTAssertEqual(d.labels, ["sit", "walk"])
    XCTAssertEqual(d.subjects, ["2", "10"])
    XCTAssertEqual(d.recordings.map(\.session), ["s1", "s2"])
    XCTAssertEqual(d.recordings[0].columns, [[0, 1, 2, 3, 4], [0, 10, 20, 30, 40]])
    XCTAssertEqual(d.recordings[0].labelIndices, [1, 1, 1, 1, 1])
    XCTAssertEqual(d.recordings[1].labelIndices, [0, 0, 0, 0])
    XCTAssertEqual(d.recordings[0].sampleRateHz, 10, accuracy: 1e-9)
    XCTAssertEqual(d.recordings[1].sampleRateHz, 20, accuracy: 1e-9)
    XCTAssertEqual(result.report.rowsRead, 9)
    XCTAssertEqual(result.report.detectedRatesHz["s2"] ?? 0, 20, accuracy: 1e-9)
    XCTAssertEqual(result.report.labelSampleCounts, ["walk": 5, "sit": 4])
    XCTAssertEqual(result.report.labelDurationsSeconds["walk"] ?? 0, 0.5, accuracy: 1e-9)
  }

  func testLoad_ReadsCRLFByteOrderMarkAndQuotedFields() throws {
    let text = "\u{FEFF}timestamp,session,subject,label,a,b\r\n"
      + "0,\"s,1\",1,\"say \"\"hi\"\"\",1,\"2\"\r\n"
      + "0.1,\"s,1\",1,\"say \"\"hi\"\"\",3,4\r\n"
      + "\r\n"
    let path = try folder.write("x.csv", text)
    let result = try DatasetLoader.load([path], options: options())
    XCTAssertEqual(result.dataset.channels, ["a", "b"])
    XCTAssertEqual(result.dataset.labels, ["say \"hi\""])
    XCTAssertEqual(result.dataset.recordings.map(\.session), ["s,1"])
    XCTAssertEqual(result.dataset.recordings[0].columns, [[1, 3], [2, 4]])
  }

  func testLoad_EmptyLabelCellsQuotedOrNotAreDroppedAndCounted() throws {
    let body = "0,s,1,w,1,2\n0.1,s,1,,1,2\n0.2,s,1,\"\",1,2\n0.3,s,1,w,1,2\n0.4,s,1,w,1,2\n"
    let path = try folder.write("x.csv", header + body)
    let result = try DatasetLoader.load([path], options: options())
    XCTAssertEqual(result.dataset.labels, ["w"])
    XCTAssertEqual(result.report.rowsDroppedByLabel, 2)
    XCTAssertEqual(result.dataset.sampleCount, 3)
  }

  func testLoad_QuotedFieldSpanningLinesKeepsLineNumbersRight() throws {
    let text = header + "0,s,1,\"multi\nline\",1,2\n0.1,s,1,\"multi\nline\",1,x\n"
    let path = try folder.write("x.csv", text)
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    XCTAssertEqual(error?.line, 4)
    XCTAssertEqual(error?.column, 6)
  }

  func testLoad_WithoutSessionColumn_OneSessionPerFileFromAFolder() throws {
    try folder.write("walk10.csv", "timestamp,label,a\n0,walk,1\n0.1,walk,2\n")
    try folder.write("walk2.csv", "timestamp,label,a\n0,walk,5\n0.1,walk,6\n0.2,walk,7\n")
    try folder.write("readme.txt", "not data")
    let result = try DatasetLoader.load([folder.url.path], options: options())
    // Natural order: walk2 before walk10.
    XCTAssertEqual(result.dataset.recordings.map(\.session), ["walk2", "walk10"])
    XCTAssertEqual(result.dataset.recordings.map(\.subject), ["unknown", "unknown"])
    XCTAssertEqual(result.report.files.count, 2)
  }

  func testLoad_NamedColumnsAndSameSessionNameInTwoFiles() throws {
    let a = try folder.write("a.csv", "t,rec,who,act,v\n0,r,p1,x,1\n1,r,p1,x,2\n")
    let b = try folder.write("b.csv", "t,rec,who,act,v\n0,r,p2,y,1\n1,r,p2,y,2\n")
    let result = try DatasetLoader.load(
      [a, b],
      options: options {
        $0.timeColumn = "t"
        $0.sessionColumn = "rec"
        $0.subjectColumn = "who"
        $0.labelColumn = "act"
      })
    XCTAssertEqual(result.dataset.recordings.map(\.session), ["a/r", "b/r"])
    XCTAssertEqual(result.dataset.subjects, ["p1", "p2"])
    XCTAssertEqual(result.dataset.channels, ["v"])
  }

  func testLoad_DerivedAccelerationAndMagnitudes() throws {
    let text = "timestamp,label,userAcceleration.x,userAcceleration.y,userAcceleration.z,"
      + "gravity.x,gravity.y,gravity.z\n"
      + "0,w,0.1,0.2,0.3,0,0,-1\n0.1,w,3,0,4,0,0,-1\n"
    let path = try folder.write("x.csv", text)
    let result = try DatasetLoader.load(
      [path], options: options { $0.channelPatterns = ["|userAcceleration|", "acceleration.*"] })
    XCTAssertEqual(
      result.dataset.channels,
      ["|userAcceleration|", "acceleration.x", "acceleration.y", "acceleration.z"])
    let columns = result.dataset.recordings[0].columns
    XCTAssertEqual(columns[0][1], 5, accuracy: 1e-6)  // |(3, 0, 4)|
    XCTAssertEqual(columns[3][0], -0.7, accuracy: 1e-6)  // 0.3 + -1
    XCTAssertEqual(columns[1][1], 3, accuracy: 1e-6)

    // Asking only for |acceleration| adds the derived axes it is computed from.
    let magnitudeOnly = try DatasetLoader.load(
      [path], options: options { $0.channelPatterns = ["|acceleration|"] })
    XCTAssertEqual(
      magnitudeOnly.dataset.channels,
      ["acceleration.x", "acceleration.y", "acceleration.z", "|acceleration|"])
    XCTAssertEqual(magnitudeOnly.report.notes.count, 1)
    // acceleration = (3, 0, 4) + (0, 0, -1) = (3, 0, 3).
    XCTAssertEqual(
      magnitudeOnly.dataset.recordings[0].columns[3][1], Float(18).squareRoot(), accuracy: 1e-6)
  }

  func testLoad_NegatesRawAccelerationOnly() throws {
    let text = "timestamp,label,acceleration.x,acceleration.y,acceleration.z,other\n"
      + "0,w,0,0,1,7\n0.1,w,0.5,0,1,8\n"
    let path = try folder.write("x.csv", text)
    let result = try DatasetLoader.load(
      [path], options: options { $0.negateAcceleration = true })
    let columns = result.dataset.recordings[0].columns
    XCTAssertEqual(columns[0], [0, -0.5])
    XCTAssertEqual(columns[2], [-1, -1])
    XCTAssertEqual(columns[3], [7, 8])
    XCTAssertEqual(result.recipes.map(\.scale), [-1, -1, -1, 1])
  }

  func testLoad_ChannelGlobsSelectInPatternOrder() throws {
    let text = "timestamp,label,rotationRate.x,userAcceleration.x,userAcceleration.y,note\n"
      + "0,w,1,2,3,hello\n0.1,w,1,2,3,there\n"
    let path = try folder.write("x.csv", text)
    let all = try DatasetLoader.load([path], options: options())
    XCTAssertEqual(
      all.dataset.channels, ["rotationRate.x", "userAcceleration.x", "userAcceleration.y"])
    XCTAssertEqual(all.report.notes, ["ignored non-numeric columns: note"])
    let some = try DatasetLoader.load(
      [path], options: options { $0.channelPatterns = ["userAcceleration.?", "rotation*"] })
    XCTAssertEqual(
      some.dataset.channels, ["userAcceleration.x", "userAcceleration.y", "rotationRate.x"])
  }

  func testLoad_LabelMapAndKeepLabels() throws {
    let path = try folder.write(
      "x.csv",
      header + rows(session: "a", subject: "1", label: "sitting", count: 3)
        + rows(session: "b", subject: "1", label: "standing", count: 3)
        + rows(session: "c", subject: "1", label: "jogging", count: 3)
        + rows(session: "d", subject: "1", label: "walking", count: 3))
    let result = try DatasetLoader.load(
      [path],
      options: options {
        $0.labelMap = ["sitting": "stationary", "standing": "stationary", "jogging": "running"]
        $0.keepLabels = ["stationary", "running"]
      })
    XCTAssertEqual(result.dataset.labels, ["running", "stationary"])
    XCTAssertEqual(result.dataset.recordings.map(\.session), ["a", "b", "c"])
    XCTAssertEqual(result.dataset.recordings.map { $0.labelIndices[0] }, [1, 1, 0])
    XCTAssertEqual(result.report.rowsDroppedByLabel, 3)
    XCTAssertEqual(result.report.skipped.map(\.reason), ["no rows with a kept label"])
  }

  func testLoad_SubjectFiltersSkipSessionsAndReportThem() throws {
    var text = header
    for s in 1...6 { text += rows(session: "s\(s)", subject: "\(s)", label: "w", count: 3) }
    let path = try folder.write("x.csv", text)
    let result = try DatasetLoader.load(
      [path],
      options: options {
        $0.subjects = try? SubjectFilter(parsing: "1-4,6")
        $0.excludeSubjects = try? SubjectFilter(parsing: "2")
      })
    XCTAssertEqual(result.dataset.subjects, ["1", "3", "4", "6"])
    XCTAssertEqual(result.report.skipped.map(\.session), ["s2", "s5"])
    XCTAssertEqual(
      result.report.skippedByReason.map(\.count), [1, 1])
    XCTAssertEqual(result.report.sessions.map(\.recordingCount), [1, 0, 1, 1, 0, 1])
  }

  func testLoad_SplitsSessionAtGapsLongerThanGapFactor() throws {
    // 10 Hz, then a 0.5 s step (5 periods), then a 0.25 s step (2.5 periods).
    let times = [0, 0.1, 0.2, 0.3, 0.8, 0.9, 1.0, 1.25, 1.35, 1.45]
    let body = times.enumerated().map { "\($0.element),s,1,w,\($0.offset),0\n" }.joined()
    let path = try folder.write("x.csv", header + body)
    let result = try DatasetLoader.load([path], options: options())
    XCTAssertEqual(result.dataset.recordings.map(\.session), ["s", "s#2"])
    XCTAssertEqual(result.dataset.recordings.map(\.sampleCount), [4, 6])
    // 0.25 s is also the absolute floor (GapRule): a step must exceed both to split.
    let tight = try DatasetLoader.load(
      [path], options: options { $0.gapFactor = 2; $0.minimumGapSeconds = 0.2 })
    XCTAssertEqual(tight.dataset.recordings.map(\.session), ["s", "s#2", "s#3"])
    XCTAssertEqual(tight.report.sessions.first?.recordingCount, 3)
    let floored = try DatasetLoader.load([path], options: options { $0.gapFactor = 2 })
    XCTAssertEqual(floored.dataset.recordings.map(\.session), ["s", "s#2"])
  }

  func testLoad_DroppedLabelsLeaveAGapThatSplits() throws {
    let body = rows(session: "s", subject: "1", label: "w", count: 5)
      + rows(session: "s", subject: "1", label: "x", count: 5, start: 5)
      + rows(session: "s", subject: "1", label: "w", count: 5, start: 10)
    let path = try folder.write("x.csv", header + body)
    let result = try DatasetLoader.load([path], options: options { $0.keepLabels = ["w"] })
    XCTAssertEqual(result.dataset.recordings.map(\.session), ["s", "s#2"])
    XCTAssertEqual(result.dataset.recordings[1].columns[0].first, 10)
  }

  func testLoad_EmptyCellsAreCountedAndInterpolatedInTime() throws {
    let body = "0,s,1,w,1,\n0.1,s,1,w,,5\n0.3,s,1,w,4,6\n0.4,s,1,w,,7\n"
    let path = try folder.write("x.csv", header + body)
    let result = try DatasetLoader.load([path], options: options())
    XCTAssertEqual(result.report.missingValues, ["a": 2, "b": 1])
    let columns = result.dataset.recordings[0].columns
    XCTAssertEqual(columns[0][1], 2, accuracy: 1e-6)  // 1 + (4 - 1) * 0.1 / 0.3
    XCTAssertEqual(columns[0][3], 4)  // held after the last value
    XCTAssertEqual(columns[1][0], 5)  // held before the first value
  }

  func testLoad_ResamplesToTargetRateWithNearestLabels() throws {
    let body = rows(session: "s", subject: "1", label: "w", count: 50, rateHz: 100)
      + rows(session: "s", subject: "1", label: "r", count: 50, rateHz: 100, start: 50)
    let path = try folder.write("x.csv", header + body)
    let result = try DatasetLoader.load([path], options: options { $0.sampleRateHz = 50 })
    let r = result.dataset.recordings[0]
    XCTAssertEqual(r.sampleRateHz, 50)
    XCTAssertEqual(r.sampleCount, 50)
    XCTAssertEqual(r.timestamps[1] - r.timestamps[0], 0.02, accuracy: 1e-12)
    // Labels: first half "w" (index 1), second half "r" (index 0).
    XCTAssertEqual(r.labelIndices[0..<25].allSatisfy { $0 == 1 }, true)
    XCTAssertEqual(r.labelIndices[25..<50].allSatisfy { $0 == 0 }, true)
    // A ramp survives the linear-phase filter away from the ends.
    XCTAssertEqual(r.columns[0][20], 40, accuracy: 1e-3)
  }
}
