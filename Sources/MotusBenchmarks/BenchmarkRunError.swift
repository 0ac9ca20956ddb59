// A child process a benchmark runs (`InputReadBenchmark`) that could not start or failed.

/// A benchmark run that could not start or did not succeed.
public struct BenchmarkRunError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
