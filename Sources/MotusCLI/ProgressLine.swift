// The one progress line of every command: a single line on standard error that each update
// rewrites, shown only when standard error is a terminal (so logs and pipes stay clean), and
// safe to update from worker threads.

import Foundation
import Motus

final class ProgressLine: @unchecked Sendable {
  private let start = Date()
  private let enabled = isatty(2) != 0  // 2 = standard error
  private let lock = NSLock()
  private var shown = false

  /// Replaces the line with `text` (cut to 78 characters).
  func show(_ text: String) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    StandardError.write("\r\u{1B}[K" + String(text.prefix(78)))
    shown = true
  }

  /// Erases the line, if one is shown.
  func clear() {
    lock.lock()
    defer { lock.unlock() }
    guard shown else { return }
    StandardError.write("\r\u{1B}[K")
    shown = false
  }

  /// `reading  42%`, once the work has taken more than a second.
  func update(done: Int, total: Int) {
    guard enabled, total > 0, Date().timeIntervalSince(start) > 1 else { return }
    show(String(format: "reading %3.0f%%", 100 * Double(done) / Double(total)))
  }

  /// `epoch 12/200  loss 0.4321  val acc 0.912  <= 30s left`.
  func update(_ report: EpochReport) {
    guard enabled else { return }
    var text = "epoch \(report.epoch)/\(report.maxEpochs)  loss "
    text += String(format: "%.4f", report.trainingLoss)
    if let accuracy = report.validationAccuracy {
      text += String(format: "  val acc %.3f", accuracy)
    }
    // An upper bound: early stopping may end sooner.
    let left =
      report.elapsedSeconds / Double(report.epoch) * Double(report.maxEpochs - report.epoch)
    show(text + String(format: "  <= %.0fs left", left))
  }

  /// `body`, given a progress callback that updates a line cleared when `body` ends.
  static func reading<T>(_ body: (@escaping DataSource.Progress) throws -> T) rethrows -> T {
    let line = ProgressLine()
    defer { line.clear() }
    return try body { done, total in line.update(done: done, total: total) }
  }
}
