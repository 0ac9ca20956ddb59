// Every way the loader rejects input names the file, the 1-based line and column, and a hint.

import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class DatasetLoaderErrorTests: XCTestCase {
  var folder: CSVFolder!

  override func setUpWithError() throws { folder = try CSVFolder() }
  override func tearDown() { folder.remove() }

  private let header = "timestamp,session,subject,label,a,b\n"

  func testLoad_RejectsNonNumericCell() throws {
    let path = try folder.write("x.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1,abc\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    XCTAssertEqual(error?.file, path)
    XCTAssertEqual(error?.line, 3)
    XCTAssertEqual(error?.column, 6)
    XCTAssertEqual(error?.location?.columnName, "b")
    XCTAssertTrue(error?.description.contains("'abc'") ?? false, "\(String(describing: error))")
  }

  func testLoad_RejectsNaNAndInfinity() throws {
    // 1e400, a numeral too large for a double, is out of range instead (BadInputTests).
    for bad in ["nan", "NaN", "inf", "-Infinity"] {
      let path = try folder.write("x.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,\(bad),2\n")
      let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
      guard case .nonFinite(let text, let at)? = error else {
        XCTFail("\(bad): \(String(describing: error))")
        continue
      }
      XCTAssertEqual(text, bad)
      XCTAssertEqual(at.line, 3)
      XCTAssertEqual(at.column, 5)
    }
  }

  func testLoad_RejectsTimestampGoingBackwards() throws {
    let path = try folder.write(
      "x.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1,2\n0.05,s,1,walk,1,2\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    guard case .timestampNotIncreasing(let session, let previous, let current, let at)? = error
    else { return XCTFail("\(String(describing: error))") }
    XCTAssertEqual(session, "s")
    XCTAssertEqual(previous, 0.1)
    XCTAssertEqual(current, 0.05)
    XCTAssertEqual(at.line, 4)
    XCTAssertEqual(at.column, 1)
  }

  func testLoad_RejectsRepeatedTimestampButAllowsItInAnotherSession() throws {
    let ok = try folder.write("ok.csv", header + "0,s,1,walk,1,2\n0,t,1,walk,1,2\n")
    XCTAssertThrowsError(try DatasetLoader.load([ok], options: options())) { error in
      // Both sessions are one row long, so nothing is left; that is not a time error.
      guard case .nothingLeft = error as? CSVError else { return XCTFail("\(error)") }
    }
    let bad = try folder.write("bad.csv", header + "0,s,1,walk,1,2\n0,s,1,walk,1,2\n")
    let error = expectCSVError { _ = try DatasetLoader.load([bad], options: options()) }
    XCTAssertEqual(error?.line, 3)
  }

  func testLoad_RejectsRaggedRows() throws {
    let short = try folder.write("short.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1\n")
    let e1 = expectCSVError { _ = try DatasetLoader.load([short], options: options()) }
    guard case .raggedRow(let at, let expected, let found)? = e1 else {
      return XCTFail("\(String(describing: e1))")
    }
    XCTAssertEqual([at.line, at.column, expected, found], [3, 6, 6, 5])

    let long = try folder.write("long.csv", header + "0,s,1,walk,1,2,3,4\n")
    let e2 = expectCSVError { _ = try DatasetLoader.load([long], options: options()) }
    guard case .raggedRow(let at2, _, let found2)? = e2 else {
      return XCTFail("\(String(describing: e2))")
    }
    XCTAssertEqual([at2.line, at2.column, found2], [2, 7, 8])
  }

  func testLoad_RejectsMissingAndDuplicateColumns() throws {
    let noTime = try folder.write("a.csv", "time,session,label,a\n0,s,walk,1\n")
    let e1 = expectCSVError { _ = try DatasetLoader.load([noTime], options: options()) }
    guard case .missingColumn(let name, let option, let file, _)? = e1 else {
      return XCTFail("\(String(describing: e1))")
    }
    XCTAssertEqual([name, option, file], ["timestamp", "--time-column", noTime])

    let duplicate = try folder.write("b.csv", "timestamp,label,a,b,a\n0,walk,1,2,3\n")
    let e2 = expectCSVError { _ = try DatasetLoader.load([duplicate], options: options()) }
    guard case .duplicateColumn(let dup, let at, let first)? = e2 else {
      return XCTFail("\(String(describing: e2))")
    }
    XCTAssertEqual(dup, "a")
    XCTAssertEqual([at.line, at.column, first], [1, 5, 3])

    // A session column named explicitly but absent is a typo, not "one session per file".
    let e3 = expectCSVError {
      _ = try DatasetLoader.load([noTime], options: options { $0.timeColumn = "time"
        $0.sessionColumn = "recording" })
    }
    guard case .missingColumn("recording", "--session-column", _, _)? = e3 else {
      return XCTFail("\(String(describing: e3))")
    }
  }

  func testLoad_RejectsMissingLabelColumnOnlyWhenLabelsAreRequired() throws {
    let path = try folder.write("x.csv", "timestamp,a\n0,1\n0.1,2\n0.2,3\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    guard case .missingColumn("label", "--label-column", _, _)? = error else {
      return XCTFail("\(String(describing: error))")
    }
    let result = try DatasetLoader.load([path], options: options { $0.requireLabels = false })
    XCTAssertEqual(result.dataset.labels, [LoadOptions.unlabelled])
    XCTAssertEqual(result.dataset.recordings.map(\.session), ["x"])
    XCTAssertEqual(result.dataset.recordings.first?.subject, "unknown")
  }

  func testLoad_RejectsEmptyFileAndHeaderOnly() throws {
    let empty = try folder.write("empty.csv", "")
    let e1 = expectCSVError { _ = try DatasetLoader.load([empty], options: options()) }
    XCTAssertEqual(e1, .emptyFile(file: empty))
    let blank = try folder.write("blank.csv", "\n\n")
    let e2 = expectCSVError { _ = try DatasetLoader.load([blank], options: options()) }
    XCTAssertEqual(e2, .emptyFile(file: blank))
    let headerOnly = try folder.write("h.csv", header)
    let e3 = expectCSVError { _ = try DatasetLoader.load([headerOnly], options: options()) }
    XCTAssertEqual(e3, .noDataRows(file: headerOnly))
  }

  func testLoad_RejectsNoFilesAndFolderWithoutCSV() throws {
    XCTAssertEqual(expectCSVError { _ = try DatasetLoader.load([], options: options()) }, .noFiles)
    try folder.write("notes.txt", "hello")
    let e = expectCSVError { _ = try DatasetLoader.load([folder.url.path], options: options()) }
    XCTAssertEqual(e, .noCSVFiles(folder: folder.url.path))
    let missing = folder.url.appendingPathComponent("nope.csv").path
    guard case .unreadable(missing, _)? = expectCSVError({
      _ = try DatasetLoader.load([missing], options: options())
    }) else { return XCTFail("missing file not reported") }
  }

  func testLoad_RejectsUnknownLabelInMapListingLabelsPresent() throws {
    let path = try folder.write(
      "x.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1,2\n0,t,1,sit,1,2\n0.1,t,1,sit,1,2\n")
    let error = expectCSVError {
      _ = try DatasetLoader.load(
        [path], options: options { $0.labelMap = ["sitting": "stationary"] })
    }
    XCTAssertEqual(error, .unknownLabelInMap(label: "sitting", present: ["sit", "walk"]))
    XCTAssertTrue(error?.description.contains("sit, walk") ?? false)

    let kept = expectCSVError {
      _ = try DatasetLoader.load([path], options: options { $0.keepLabels = ["run"] })
    }
    XCTAssertEqual(kept, .unknownKeptLabel(label: "run", present: ["sit", "walk"]))
  }

  func testLoad_RejectsUnterminatedQuote() throws {
    let path = try folder.write("x.csv", header + "0,s,1,walk,1,2\n0.1,\"s,1,walk,1,2\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    guard case .unterminatedQuote(let at)? = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual([at.line, at.column], [3, 2])
  }

  func testLoad_RejectsSubjectChangingInsideSession() throws {
    let path = try folder.write("x.csv", header + "0,s,1,walk,1,2\n0.1,s,2,walk,1,2\n")
    let error = expectCSVError { _ = try DatasetLoader.load([path], options: options()) }
    XCTAssertEqual(error?.line, 3)
    XCTAssertEqual(error?.column, 3)
  }

  func testLoad_RejectsPatternMatchingNothingAndNegationWithoutAcceleration() throws {
    let path = try folder.write("x.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1,2\n")
    let e1 = expectCSVError {
      _ = try DatasetLoader.load([path], options: options { $0.channelPatterns = ["gyro.*"] })
    }
    XCTAssertEqual(e1, .noChannelMatches(pattern: "gyro.*", available: ["a", "b"]))
    let e2 = expectCSVError {
      _ = try DatasetLoader.load([path], options: options { $0.negateAcceleration = true })
    }
    XCTAssertEqual(e2, .negateWithoutAcceleration(available: ["a", "b"]))
  }

  func testLoad_RejectsSecondFileWithoutTheFirstFilesChannels() throws {
    let first = try folder.write("1.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1,2\n")
    let second = try folder.write("2.csv", "timestamp,session,subject,label,a\n0,t,1,walk,1\n")
    guard case .channelUnavailable(second, _)? = expectCSVError({
      _ = try DatasetLoader.load([first, second], options: options())
    }) else { return XCTFail("second file's missing channel not reported") }
  }

  func testLoad_ReportsEverythingSkippedWhenNothingIsLeft() throws {
    let path = try folder.write("x.csv", header + "0,s,1,walk,1,2\n0.1,s,1,walk,1,2\n")
    let error = expectCSVError {
      _ = try DatasetLoader.load(
        [path], options: options { $0.subjects = SubjectFilter(ranges: [5...6]) })
    }
    XCTAssertEqual(error, .nothingLeft(reasons: ["1 subject not in --subjects"]))
  }
}
