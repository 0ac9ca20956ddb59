// The read-ahead thread under ingest's block reader: released mid-file, or under a loader that
// throws mid-file (a bad cell in a gzip input read in many blocks), it leaves no thread running.

import Foundation
@testable import MotusGzip
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class ReadAheadLoaderTests: TemporaryFolderTestCase {
  func testLoaderThrowingMidFile_LeavesNoThread() throws {
    restoreAfterTest(get: { ChunkSplitter.chunkBytes }, set: { ChunkSplitter.chunkBytes = $0 })
    ChunkSplitter.chunkBytes = 4096  // many blocks
    var lines = String(decoding: walkRunCSV(rows: 20_000), as: UTF8.self).split(separator: "\n")
    lines[10_000] = "200.0,s1,walk,x7"
    let path = try writeBytes(
      Gzip.compress(Array((lines.joined(separator: "\n") + "\n").utf8)), "bad.csv.gz")
    XCTAssertThrowsError(try DatasetLoader.load([path], options: LoadOptions())) { error in
      XCTAssertTrue("\(error)".contains("bad.csv.gz:10001:"), "\(error)")
    }
    XCTAssertNil(DatasetLoader.loadSessions([path], options: LoadOptions()) { _ in })
    XCTAssertEqual(InputReadAhead.runningThreads, 0)
  }

  func testReleasedMidFile_ItsThreadEnds() throws {
    let path = try writeBytes(Gzip.compress(walkRunCSV(rows: 200_000)), "big.csv.gz")
    XCTAssertEqual(InputReadAhead.runningThreads, 0)
    let done = expectation(description: "released")
    // On a thread of its own, so that a release that hung fails the test rather than hangs it.
    Thread.detachNewThread {
      do {
        let blocks = try XCTUnwrap(InputBlocks(path: path))
        try blocks.refill(dropping: 0, minimum: 1 << 16)
        XCTAssertEqual(InputReadAhead.runningThreads, 1)
        // The ring is full now and its thread waits for room: released mid-file.
        usleep(50_000)
      } catch {
        XCTFail("\(error)")
      }
      done.fulfill()
    }
    wait(for: [done], timeout: 30)
    XCTAssertEqual(InputReadAhead.runningThreads, 0)
  }
}
