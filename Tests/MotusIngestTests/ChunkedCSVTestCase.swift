// The set-up of the tests that cut CSV files into many chunks or blocks: a fresh folder, and
// `ChunkSplitter.chunkBytes` put back after each test, which lowers it.

@testable import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

class ChunkedCSVTestCase: XCTestCase {
  var folder: CSVFolder!

  override func setUpWithError() throws {
    folder = try CSVFolder()
    restoreAfterTest(get: { ChunkSplitter.chunkBytes }, set: { ChunkSplitter.chunkBytes = $0 })
  }

  override func tearDown() { folder.remove() }
}
