// glibc keeps freed blocks below its mmap threshold in its arenas instead of handing them back:
// a table built from many small parts, or a part of a split table, stays in the resident set
// after it is freed, beside whatever is allocated next. `malloc_trim` returns those pages.

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

  #if canImport(Glibc)
    /// Looked up at run time: glibc exports it, but its header is not part of the Glibc module.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
  #endif
}
