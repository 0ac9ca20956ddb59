// The one line rule (`LineCheck`, `Limits.lineBytes`, `Limits.blankLineRun`) in every reader of
// text: a line over the limit, or a run of blank lines over its bound, is an error naming the
// file and line as soon as the text read passes it. Limits are injected small where a reader
// takes them; otherwise files sized to the real limit are written in a temporary folder.

import Foundation
@testable import MotusIngest
import MotusGzip
import MotusTestSupport
import XCTest

@testable import MotusData

final class LineLimitTests: XCTestCase {
  var folder: CSVFolder!

  override func setUpWithError() throws { folder = try CSVFolder() }
  override func tearDown() { folder.remove() }

  private func check(_ text: String, limit: Int = 8, blanks: Int = 3, pieces: Int = 1) throws {
    var lines = LineCheck(file: "f.csv", lineLimit: limit, blankLimit: blanks)
    let bytes = Array(text.utf8)
    let step = max(1, (bytes.count + pieces - 1) / pieces)
    for start in stride(from: 0, to: bytes.count, by: step) {
      try bytes[start..<min(start + step, bytes.count)].withUnsafeBufferPointer {
        try lines.check($0)
      }
    }
  }

  private func limitError(_ body: () throws -> Void) -> LimitError? {
    do {
      try body()
    } catch let error as LimitError {
      return error
    } catch {
      XCTFail("not a LimitError: \(error)")
    }
    return nil
  }

  func testLineCheck_LineOverTheLimitNamesItsLineWhateverThePieces() throws {
    for pieces in [1, 2, 3, 7, 40] {
      // Lines of exactly the limit pass, with LF, CRLF or a CR split from its LF.
      XCTAssertNoThrow(try check("12345678\n12345678\r\nab\r\n12345678", pieces: pieces))
      let error = limitError { try check("a,b\r\n1,2\r\n123456789\n", pieces: pieces) }
      XCTAssertEqual(
        error, .lineTooLong(file: "f.csv", line: 3, limitBytes: 8, binary: false), "\(pieces)")
      let binary = limitError { try check("a\n\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}") }
      XCTAssertEqual(binary, .lineTooLong(file: "f.csv", line: 2, limitBytes: 8, binary: true))
    }
    XCTAssertTrue(
      "\(LimitError.lineTooLong(file: "f.csv", line: 3, limitBytes: 1 << 20, binary: false))"
        .hasPrefix("f.csv:3: the line is longer than 1 MiB (1048576 bytes)"))
  }

  func testLineCheck_LoneCRLineEndsAreLinesToo() throws {
    // A file with CR line ends is many short lines, not one long one.
    XCTAssertNoThrow(try check(String(repeating: "1234567\r", count: 50), pieces: 9))
    let error = limitError { try check("1,2\r3,4\r123456789\r") }
    XCTAssertEqual(error, .lineTooLong(file: "f.csv", line: 3, limitBytes: 8, binary: false))
  }

  func testLineCheck_RunOfBlankLinesOverTheBoundIsAnError() throws {
    for pieces in [1, 4, 13] {
      XCTAssertNoThrow(try check("a\n\n\n\nb\n\r\n\n\r\nc\n", pieces: pieces))
      let error = limitError { try check("a\n\n\r\n\n\nb\n", pieces: pieces) }
      XCTAssertEqual(error, .blankLines(file: "f.csv", line: 5, limit: 3), "\(pieces)")
      let crs = limitError { try check("a\r" + String(repeating: "\r", count: 20), pieces: pieces) }
      XCTAssertEqual(crs, .blankLines(file: "f.csv", line: 5, limit: 3), "\(pieces)")
    }
  }

  /// gzip of `text` then `repeating` `count` times: a small file of much text.
  private func gzipFile(_ name: String, _ text: String, _ repeating: String, _ count: Int) throws
    -> String
  {
    let bytes = Array(text.utf8) + Array(String(repeating: repeating, count: count).utf8)
    let path = folder.url.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(Gzip.compress(bytes)))
    return path
  }

  func testBlockReads_StopAsSoonAsALinePassesTheLimit() throws {
    let path = try gzipFile("bomb.csv.gz", "timestamp,a\n0,1\n", "a", 20 << 20)
    let blocks = try XCTUnwrap(InputBlocks(path: path, lineLimit: 1000))
    let error = limitError { try blocks.refill(dropping: 0, minimum: 64 << 20) }
    XCTAssertEqual(
      error, .lineTooLong(file: path, line: 3, limitBytes: 1000, binary: false))
    XCTAssertLessThanOrEqual(blocks.bytesRead, 5 << 20, "read the whole line before the error")
  }

  func testWholeReads_StopAsSoonAsALinePassesTheLimit() throws {
    let path = try gzipFile("bomb.csv.gz", "timestamp,a\n", "\n", 20 << 20)
    let error = limitError { _ = try InputFile.readText(path, blankLimit: 100) }
    XCTAssertEqual(error, .blankLines(file: path, line: 102, limit: 100))
    let long = try gzipFile("long.csv.gz", "timestamp,a\n", "1", 20 << 20)
    XCTAssertEqual(
      limitError { _ = try InputFile.readText(long, lineLimit: 100) },
      .lineTooLong(file: long, line: 2, limitBytes: 100, binary: false))
  }

  /// The batch loader at the real limits, read in blocks (a file) and whole (an app export).
  func testLoader_RealLimitsInBlockAndAppReads() throws {
    let header = "timestamp,session,subject,label,a\n0,s,1,walk,1\n"
    let long = try folder.write(
      "long.csv", header + String(repeating: "1", count: Limits.lineBytes + 1) + "\n")
    XCTAssertEqual(
      limitError { _ = try DatasetLoader.load([long], options: options()) },
      .lineTooLong(file: long, line: 3, limitBytes: Limits.lineBytes, binary: false))
    let exact = try folder.write(
      "exact.csv", header + "0.1,s,1,walk,1" + String(repeating: "0", count: Limits.lineBytes - 14)
        + "\n")
    XCTAssertThrowsError(try DatasetLoader.load([exact], options: options())) {
      XCTAssertFalse($0 is LimitError, "\($0)")  // a value out of range, not the line rule
    }
    let blank = try folder.write(
      "blank.csv",
      header + String(repeating: "\n", count: Limits.blankLineRun + 1) + "0.1,s,1,walk,1\n")
    XCTAssertEqual(
      limitError { _ = try DatasetLoader.load([blank], options: options()) },
      .blankLines(file: blank, line: Limits.blankLineRun + 3, limit: Limits.blankLineRun))
    // A Physics Toolbox export, which the app reader reads whole.
    let app = try folder.write(
      "linear.csv",
      "time,ax (m/s^2),ay (m/s^2),az (m/s^2),aT (m/s^2)\r\n0.003,-0.98,-1.96,-2.94,3.66\r\n"
        + String(repeating: "\r\n", count: Limits.blankLineRun + 1))
    XCTAssertEqual(
      limitError {
        _ = try DatasetLoader.load(
          [app], options: options { $0.appLabels = AppExportLabels(label: "walking") })
      },
      .blankLines(file: app, line: Limits.blankLineRun + 3, limit: Limits.blankLineRun))
  }
}
