// C functions glibc exports but the Glibc module does not declare (<malloc.h>, <sys/vfs.h>),
// looked up at run time.

#if canImport(Glibc)
  import Glibc

  package enum GlibcFunction {
    /// The function `name` as `type`; nil when this C library lacks it.
    package static func lookUp<Function>(_ name: String, as type: Function.Type) -> Function? {
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
      return unsafeBitCast(symbol, to: type)
    }
  }
#endif
