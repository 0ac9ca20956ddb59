// Ctrl-C, `kill` and `timeout` during a benchmark that runs child processes: the command
// line's signal handler calls `stopForSignal`, which kills the running child (SIGKILL, so a
// stopped or stuck child ends too) and records the signal; the benchmark, back from its wait,
// reaps the child, throws `BenchmarkInterrupted`, and its scratch folder is removed as the error
// unwinds. Nothing is removed from inside the handler, which may only do async-signal-safe
// work.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The stop request and the running child, shared with a signal handler.
public enum BenchmarkInterruption {
  // [0]: the signal that asked to stop (0: none); [1]: the running child (0: none).
  nonisolated(unsafe) static let state: UnsafeMutablePointer<Int32> = {
    let p = UnsafeMutablePointer<Int32>.allocate(capacity: 2)
    p.initialize(repeating: 0, count: 2)
    return p
  }()

  /// Sets up the shared state, so that a signal handler never has to.
  public static func prepare() { _ = state }

  /// From a signal handler: records `number` and kills the running child. Async-signal-safe.
  public static func stopForSignal(_ number: Int32) {
    state[0] = number
    let child = state[1]
    if child > 0 { kill(child, SIGKILL) }
  }

  /// The signal that asked to stop, or nil.
  public static var requested: Int32? { state[0] == 0 ? nil : state[0] }

  /// The child a signal must kill (0: none).
  static var child: pid_t {
    get { state[1] }
    set { state[1] = newValue }
  }

  /// Throws `BenchmarkInterrupted` once a signal asked to stop.
  static func checkpoint() throws {
    if let signal = requested { throw BenchmarkInterrupted(signal: signal) }
  }
}
