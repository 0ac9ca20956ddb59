// Which of OpenBLAS's kernels Motus trains with. OpenBLAS loads the kernels of the processor it
// finds (Haswell's AVX2, SkylakeX's or Cooperlake's AVX-512, ...) and each sums in its own
// order, so on another machine the same fit would differ in its last bits and write another
// model file. OpenBLAS reads the choice once, from OPENBLAS_CORETYPE, as it loads: before any
// Swift code runs. A program that wants one choice everywhere sets it and starts itself again
// (`MotusCommand.main`); `scripts/test.sh` exports it for the tests.

#if canImport(Glibc)
  import Glibc
#endif

public enum BLASKernels {
  /// The kernels model files are made with on x86-64: AVX2 and FMA, which every x86-64
  /// processor since 2013 has (Intel Haswell, AMD Zen).
  public static let pinnedCoreType = "Haswell"
  public static let environmentVariable = "OPENBLAS_CORETYPE"

  /// `OPENBLAS_CORETYPE=pinnedCoreType` when OpenBLAS should be started with it: on x86-64
  /// Linux, with AVX2 and FMA (`/proc/cpuinfo`), when nobody chose already (a value the user set
  /// is kept). nil otherwise, and then OpenBLAS picks as it always does.
  public static func pinningEnvironment() -> (name: String, value: String)? {
    #if arch(x86_64) && os(Linux)
      guard getenv(environmentVariable) == nil, processorHasAVX2AndFMA() else { return nil }
      return (environmentVariable, pinnedCoreType)
    #else
      return nil
    #endif
  }

  /// Whether the first processor listed in `/proc/cpuinfo` has the avx2 and fma flags.
  static func processorHasAVX2AndFMA() -> Bool {
    guard let file = fopen("/proc/cpuinfo", "r") else { return false }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line {
      let text = String(cString: line)
      guard text.hasPrefix("flags") else { continue }
      let flags = Set(text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }))
      return flags.contains("avx2") && flags.contains("fma")
    }
    return false
  }
}
