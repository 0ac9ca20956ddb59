// Feeding a whole recording to the engine, sample by sample: the one loop that callers holding
// channel-major columns (benchmarks, the demo, tests) share.

extension StreamingClassifier {
  /// Appends every sample of `columns` (channel-major, `inputChannels` order) at `timestamps`,
  /// in `range` (default: all), then, with `finishing`, ends the stream.
  public func feed(
    timestamps: [Double], columns: [[Float]], range: Range<Int>? = nil, finishing: Bool = true,
    events: (StreamEvent) -> Void
  ) {
    precondition(columns.allSatisfy { $0.count == timestamps.count }, "one value per timestamp")
    var row = [Float](repeating: 0, count: columns.count)
    for t in range ?? timestamps.indices {
      for c in row.indices { row[c] = columns[c][t] }
      row.withUnsafeBufferPointer { append(timestamp: timestamps[t], values: $0, events: events) }
    }
    if finishing { finish(events: events) }
  }
}
