// Independent jobs (one model to train and stream each) on a fixed number of threads. Each
// job's result lands in its own slot, so the output does not depend on the scheduling.

import Foundation

/// `body(0) ..< body(count)` on up to `parallelism` threads, in index order.
///
/// - Throws: The error of the lowest-numbered job that threw, after every job has finished.
func parallelMap<Value>(
  count: Int, parallelism: Int, _ body: @Sendable (Int) throws -> Value
) throws -> [Value] {
  let slots = ResultBox<Result<Value, Error>>(count: count)
  let next = Counter()
  DispatchQueue.concurrentPerform(iterations: max(1, min(parallelism, count))) { _ in
    while true {
      let index = next.increment() - 1
      guard index < count else { return }
      slots.set(index, Result { try body(index) })
    }
  }
  return try slots.values.map { try $0!.get() }
}

/// Thread-safe slots for results computed concurrently.
final class ResultBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var values: [Value?]

  init(count: Int) { values = [Value?](repeating: nil, count: count) }

  func set(_ index: Int, _ value: Value) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  /// Adds one and returns the new value.
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value
  }
}
