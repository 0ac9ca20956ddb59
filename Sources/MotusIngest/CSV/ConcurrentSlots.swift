// Work shared between threads whose results land in slots by index, so the output does not
// depend on the scheduling: chunk parsing and session finishing here, model training in the
// benchmarks.

import Foundation

/// One result per index, filled concurrently.
public final class ConcurrentSlots<Value>: @unchecked Sendable {
  private let lock = NSLock()
  public private(set) var values: [Value?]

  public init(count: Int) { values = [Value?](repeating: nil, count: count) }

  public func set(_ index: Int, _ value: Value) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }

  /// The value at `index`, removed from the slots.
  public func take(_ index: Int) -> Value? {
    lock.lock()
    defer { lock.unlock() }
    let value = values[index]
    values[index] = nil
    return value
  }
}

extension ConcurrentSlots where Value == Int {
  /// A shared counter in slot 0: the next index below `count`, or nil when all are taken.
  public func increment(below count: Int) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    let index = values[0] ?? 0
    guard index < count else { return nil }
    values[0] = index + 1
    return index
  }

  /// Adds one to slot 0 and returns the new value (a count of finished jobs).
  public func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    let value = (values[0] ?? 0) + 1
    values[0] = value
    return value
  }
}

/// `body(0) ..< body(count)` on up to `parallelism` threads, results in index order.
///
/// - Throws: The error of the lowest-numbered job that threw, after every job has finished
///   (typed, so that a body that cannot throw needs no `try`).
public func parallelMap<Value, Failure: Error>(
  count: Int, parallelism: Int, _ body: @Sendable (Int) throws(Failure) -> Value
) throws(Failure) -> [Value] {
  let slots = ConcurrentSlots<Result<Value, Failure>>(count: count)
  let next = ConcurrentSlots<Int>(count: 1)
  DispatchQueue.concurrentPerform(iterations: max(1, min(parallelism, count))) { _ in
    while let index = next.increment(below: count) {
      slots.set(index, Result { () throws(Failure) -> Value in try body(index) })
    }
  }
  var values: [Value] = []
  values.reserveCapacity(count)
  for slot in slots.values { values.append(try slot!.get()) }
  return values
}
