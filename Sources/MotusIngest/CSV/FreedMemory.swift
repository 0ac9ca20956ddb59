// glibc keeps freed blocks below its mmap threshold in its arenas instead of handing them back:
// a table built from many small parts, or a part of a split table, stays in the resident set
// after it is freed, beside whatever is allocated next. `malloc_trim` returns those pages.
//
// The opposite cost: by default glibc maps each block above a moving threshold (128 KB at
// first) afresh and returns it on free, and hands back the top of a heap above 128 KB free.
// The loader's arrays (a few hundred KB to a few MB, grown by doubling, freed as sessions are
// handed over) then arrive as new pages, each faulted in and zeroed by the kernel, and more
// so when each thread allocates from its own arena. Fixed, larger thresholds reuse them.

import MotusData

#if canImport(Glibc)
  import Glibc
#endif

/// Returns memory the allocator holds but no longer uses to the system, after large frees.
public enum FreedMemory {
  /// Gives back every whole free page the allocator keeps; a no-op without glibc.
  public static func release() {
    #if canImport(Glibc)
      _ = trim?(0)
    #endif
  }

  /// Blocks up to this size come from memory freed earlier rather than fresh pages.
  public static let reuseBlocksUpTo = 4 << 20
  /// Free memory at the top of a heap kept for reuse, up to this much.
  public static let keepFreeUpTo = 64 << 20

  /// Makes the allocator reuse freed blocks of up to `reuseBlocksUpTo` bytes and keep up to
  /// `keepFreeUpTo` free, for a whole process (the command line sets it at start; a library
  /// leaves the policy to its app). False where it cannot be set (no glibc).
  @discardableResult
  public static func reuseFreedBlocks() -> Bool {
    #if canImport(Glibc)
      guard let setOption = mallocOption else { return false }
      // M_MMAP_THRESHOLD and M_TRIM_THRESHOLD from <malloc.h>; 1 means the value was taken.
      let mmapThreshold: Int32 = -3
      let trimThreshold: Int32 = -1
      return setOption(mmapThreshold, Int32(reuseBlocksUpTo)) == 1
        && setOption(trimThreshold, Int32(keepFreeUpTo)) == 1
    #else
      return false
    #endif
  }

  #if canImport(Glibc)
    // Looked up at run time: glibc exports these, but <malloc.h> is not in the Glibc module.
    private static let mallocOption = GlibcFunction.lookUp(
      "mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)
    private static let trim = GlibcFunction.lookUp(
      "malloc_trim", as: (@convention(c) (Int) -> Int32).self)
  #endif
}
