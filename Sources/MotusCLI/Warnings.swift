// Warnings on standard error, bounded: the first few of each kind are printed whole (each in
// one write), the rest are counted and summed up at the end, so a file with a million bad rows
// gives a dozen lines rather than a million.

import Foundation
import Motus

final class Warnings {
  /// Warnings of one kind printed before the rest are only counted.
  let limit: Int
  private var counts: [String: Int] = [:]
  private var order: [String] = []

  init(limit: Int = 10) { self.limit = limit }

  /// Prints `message` unless `limit` warnings of `kind` were printed already.
  func warn(_ message: String, kind: String = "warning", prefix: String = "warning") {
    if counts[kind] == nil { order.append(kind) }
    let count = counts[kind, default: 0] + 1
    counts[kind] = count
    if count <= limit { Self.write("\(prefix): \(message)\n") }
    if count == limit + 1 {
      Self.write("\(prefix): more \(kind)s follow; they are counted, not shown.\n")
    }
  }

  /// How many warnings of `kind` were given.
  func count(_ kind: String = "warning") -> Int { counts[kind, default: 0] }

  /// One line per kind that went over the limit.
  func summarize() {
    for kind in order {
      let count = counts[kind, default: 0]
      if count > limit {
        Self.write("warning: \(count) \(kind)s in all, \(count - limit) of them not shown.\n")
      }
    }
  }

  /// One `write` per message, whatever its length, through the checked `StandardError`: a
  /// full disk or a closed pipe drops the message and the work goes on.
  static func write(_ text: String) {
    StandardError.write(text)
  }
}
