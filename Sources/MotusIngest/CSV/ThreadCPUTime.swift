// CPU time of the calling thread: what benchmarks and fit timings report, because other
// processes on a busy machine inflate the wall clock but not this (the work runs on the calling
// thread; OpenBLAS is single-threaded).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

public enum ThreadCPUTime {
  /// CPU seconds consumed so far by the calling thread; differences time a piece of work.
  public static func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }
}
