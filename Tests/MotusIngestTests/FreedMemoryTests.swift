import CMallocCounter
import MotusData
import MotusIngest
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class FreedMemoryTests: XCTestCase {
  /// After the command line's setting, a block of a few MB comes from the heap (no map of its
  /// own, so freed ones are reused); glibc's default maps blocks from 128 KB up. Blocks above
  /// the threshold are not checked: the heap serves them too when it holds that much free.
  func testBlocksUpToTheThresholdComeFromTheHeap() throws {
    #if canImport(Glibc)
      XCTAssertTrue(FreedMemory.reuseFreedBlocks())
      let before = motus_mapped_block_count()
      try XCTSkipIf(before < 0, "mallinfo2 unavailable")
      let small = try XCTUnwrap(malloc(FreedMemory.reuseBlocksUpTo / 2))
      defer { free(small) }
      XCTAssertEqual(motus_mapped_block_count(), before)
    #else
      XCTAssertFalse(FreedMemory.reuseFreedBlocks())
    #endif
  }
}
