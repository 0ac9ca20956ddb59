// CPU time of the calling thread, in seconds: the fit timing that other processes on a busy
// machine do not inflate (OpenBLAS runs single-threaded, on the calling thread).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum ThreadCPUTime {
  static func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }
}
