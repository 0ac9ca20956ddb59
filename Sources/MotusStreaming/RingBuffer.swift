// A fixed-capacity multi-channel ring buffer: the last `capacity` samples of every channel.
// Storage is allocated once in init; `append` and `copyWindow` never allocate.

/// The most recent `capacity` samples of `channelCount` channels.
public struct RingBuffer: Sendable {
  public let channelCount: Int
  public let capacity: Int
  // storage[c * capacity + slot]
  private var storage: [Float]
  private var nextSlot = 0
  /// Samples held, at most `capacity`.
  public private(set) var count = 0

  public init(channelCount: Int, capacity: Int) {
    precondition(channelCount > 0 && capacity > 0, "bad ring \(channelCount)x\(capacity)")
    self.channelCount = channelCount
    self.capacity = capacity
    self.storage = [Float](repeating: 0, count: channelCount * capacity)
  }

  public var isFull: Bool { count == capacity }

  public mutating func removeAll() {
    count = 0
    nextSlot = 0
  }

  /// Appends one sample, one value per channel, overwriting the oldest when full.
  /// - Complexity: O(channelCount).
  public mutating func append(_ sample: UnsafeBufferPointer<Float>) {
    precondition(sample.count >= channelCount, "sample has \(sample.count) of \(channelCount) channels")
    storage.withUnsafeMutableBufferPointer { s in
      for c in 0..<channelCount { s[c * capacity + nextSlot] = sample[c] }
    }
    nextSlot = nextSlot + 1 == capacity ? 0 : nextSlot + 1
    count = Swift.min(count + 1, capacity)
  }

  /// Copies the held samples, oldest first, into `columns[c][0..<count]`.
  /// - Complexity: O(channelCount · capacity); no allocation when `columns` is uniquely owned.
  public func copyWindow(into columns: inout [[Float]]) {
    precondition(columns.count >= channelCount, "need \(channelCount) columns")
    let oldest = count == capacity ? nextSlot : 0
    let firstRun = count == capacity ? capacity - oldest : count
    storage.withUnsafeBufferPointer { s in
      for c in 0..<channelCount {
        precondition(columns[c].count >= count, "column \(c) shorter than \(count)")
        columns[c].withUnsafeMutableBufferPointer { dst in
          let base = c * capacity
          for i in 0..<firstRun { dst[i] = s[base + oldest + i] }
          for i in 0..<(count - firstRun) { dst[firstRun + i] = s[base + i] }
        }
      }
    }
  }
}
