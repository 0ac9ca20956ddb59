// The debounce apps put after a hand-written classifier: report the most frequent of the
// last `length` window labels (ties go to the most recent of the tied labels).

/// Majority vote over the last few labels of a stream, label by label.
public struct LabelVote<Label: Hashable & Sendable>: Sendable {
  public let length: Int
  private var recent: [Label] = []
  private var next = 0

  /// - Parameter length: Labels voted over (1 = no smoothing).
  public init(length: Int) {
    precondition(length >= 1, "length must be >= 1, got \(length)")
    self.length = length
    recent.reserveCapacity(length)
  }

  /// Adds a label; returns the vote over the last `length` labels.
  /// - Complexity: O(length).
  public mutating func push(_ label: Label) -> Label {
    if recent.count < length {
      recent.append(label)
    } else {
      recent[next] = label
    }
    next = (next + 1) % length
    var best = label
    var bestCount = 0
    // Walk from newest to oldest so ties keep the most recent label.
    for k in 0..<recent.count {
      let candidate = recent[(next - 1 - k + 2 * length) % length]
      var count = 0
      for other in recent where other == candidate { count += 1 }
      if count > bestCount {
        best = candidate
        bestCount = count
      }
    }
    return best
  }
}
