// A file parsed in many chunks on several threads gives the same dataset, and the same
// errors at the same lines, as one pass over it.

@testable import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class ChunkedParsingTests: ChunkedCSVTestCase {

  private let header = "timestamp,session,subject,label,a,b\n"

  /// `rows` rows of `session`, times from `from` in steps of 0.02 s.
  private func rows(_ session: String, subject: String = "1", from: Int = 0, count: Int) -> String {
    (from..<(from + count)).map { i in
      "\(Double(i) * 0.02),\(session),\(subject),\(i % 50 < 25 ? "walk" : "run"),\(i % 7),\(Double(i % 11) / 4)\n"
    }.joined()
  }

  /// Loads `text` once in one chunk and once in chunks of `chunk` bytes.
  private func loadBoth(_ text: String, chunk: Int = 200) throws -> (
    single: Result<LoadResult, Error>, chunked: Result<LoadResult, Error>
  ) {
    let path = try folder.write("x.csv", text)
    ChunkSplitter.chunkBytes = 1 << 30
    let single = Result { try DatasetLoader.load([path], options: options()) }
    ChunkSplitter.chunkBytes = chunk
    let chunked = Result { try DatasetLoader.load([path], options: options()) }
    return (single, chunked)
  }

  /// The error both ways, checked to be the same; nil (and a failure) when either loaded.
  private func sameError(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws
    -> CSVError?
  {
    let (single, chunked) = try loadBoth(text)
    guard case .failure(let a as CSVError) = single, case .failure(let b as CSVError) = chunked
    else {
      XCTFail("expected errors, got \(single) and \(chunked)", file: file, line: line)
      return nil
    }
    XCTAssertEqual(a.description, b.description, file: file, line: line)
    return b
  }

  func testChunkedLoadGivesTheSameDataset() throws {
    let text = header + rows("s1", count: 300) + rows("s2", subject: "2", count: 200)
      + rows("s1", from: 300, count: 150) + rows("s3", count: 40)
    XCTAssertGreaterThan(
      ChunkSplitter.split(Array(text.utf8), chunkBytes: 200), 10, "the file is cut into chunks")
    let (single, chunked) = try loadBoth(text)
    let a = try single.get(), b = try chunked.get()
    XCTAssertEqual(a.dataset, b.dataset)
    XCTAssertEqual(a.report, b.report)
    XCTAssertEqual(a.dataset.recordings.count, 3)
  }

  func testCRLFAndMissingCellsGiveTheSameDataset() throws {
    let text = (header + rows("s1", count: 200).replacingOccurrences(of: ",3,", with: ",,")
      + rows("s2", count: 200)).replacingOccurrences(of: "\n", with: "\r\n")
    let (single, chunked) = try loadBoth(text)
    XCTAssertEqual(try single.get().dataset, try chunked.get().dataset)
    XCTAssertEqual(try single.get().report, try chunked.get().report)
  }

  func testNonNumericCellInALaterChunkNamesItsLine() throws {
    var lines = (header + rows("s1", count: 400)).split(separator: "\n", omittingEmptySubsequences: false)
    lines[300] = "6.0,s1,1,walk,1,abc"  // line 301
    let error = try sameError(lines.joined(separator: "\n"))
    XCTAssertEqual(error?.line, 301)
    XCTAssertEqual(error?.column, 6)
  }

  func testLineNumbersCountCRLFAndLoneCR() throws {
    var text = (header + rows("s1", count: 200)).replacingOccurrences(of: "\n", with: "\r\n")
    text += rows("s1", from: 200, count: 100).replacingOccurrences(of: "\n", with: "\r")
    text += "9,s1,1,walk,x,1\n"  // line 1 + 300 + 1
    let error = try sameError(text)
    XCTAssertEqual(error?.line, 302)
  }

  func testRaggedRowInALaterChunk() throws {
    let text = header + rows("s1", count: 250) + "5.0,s1,1,walk,1,2,3\n"
    let error = try sameError(text)
    XCTAssertEqual(error?.line, 252)
  }

  func testTimestampGoingBackAcrossAChunkBoundary() throws {
    // s1 resumes many chunks later with a time it already had.
    let text = header + rows("s1", count: 100) + rows("s2", count: 200) + rows("s1", from: 50, count: 10)
    let error = try sameError(text)
    guard case .timestampNotIncreasing(let session, _, _, let at)? = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual(session, "s1")
    XCTAssertEqual(at.line, 302)
  }

  func testSubjectChangingAcrossAChunkBoundary() throws {
    let text = header + rows("s1", count: 100) + rows("s2", count: 200)
      + rows("s1", subject: "7", from: 100, count: 10)
    let error = try sameError(text)
    guard case .subjectChanges(let session, let first, let now, let at)? = error else {
      return XCTFail("\(String(describing: error))")
    }
    XCTAssertEqual([session, first, now], ["s1", "1", "7"])
    XCTAssertEqual(at.line, 302)
  }

  func testTheEarliestOfTwoErrorsInDifferentChunksWins() throws {
    var lines = (header + rows("s1", count: 400)).split(separator: "\n", omittingEmptySubsequences: false)
    lines[350] = "7.0,s1,1,walk,1,abc"
    lines[120] = "2.4,s1,1,walk,1,2,3"
    let error = try sameError(lines.joined(separator: "\n"))
    XCTAssertEqual(error?.line, 121)
  }

  func testQuotedFieldsAreParsedInOnePiece() throws {
    let text = header + rows("s1", count: 200) + "4.0,\"s1\",1,walk,1,2\n"
    XCTAssertEqual(ChunkSplitter.split(Array(text.utf8), chunkBytes: 200), 1)
    let (single, chunked) = try loadBoth(text)
    XCTAssertEqual(try single.get().dataset, try chunked.get().dataset)
  }
}

extension ChunkSplitter {
  /// How many pieces `bytes` (a header line, then rows) would be cut into.
  fileprivate static func split(_ bytes: [UInt8], chunkBytes: Int) -> Int {
    let saved = Self.chunkBytes
    defer { Self.chunkBytes = saved }
    Self.chunkBytes = chunkBytes
    let headerEnd = (bytes.firstIndex(of: UInt8(ascii: "\n")) ?? 0) + 1
    return bytes.withUnsafeBufferPointer {
      split($0.baseAddress!, start: headerEnd, count: bytes.count, firstLine: 2).count
    }
  }
}
