// Recordings too short for one window: they are loaded but no model ever sees them, which is
// easy to miss (a jittery phone file split into pieces shorter than a window scores nothing).

import Foundation

extension LoadResult {
  /// Sessions of recordings shorter than `windowSeconds`, and a note saying so in the report
  /// (none when every recording holds a window).
  ///
  /// - Returns: One warning line, or nil.
  @discardableResult
  public mutating func noteRecordingsWithoutWindow(windowSeconds: Double) -> String? {
    let short = dataset.recordings.filter { $0.durationSeconds < windowSeconds }
    guard !short.isEmpty else { return nil }
    let seconds = short.reduce(0) { $0 + $1.durationSeconds }
    let all = dataset.recordings.count
    let message =
      "\(short.count) of \(all) recording(s) are shorter than one "
      + String(format: "%.2f", windowSeconds) + " s window and yield no window "
      + "(\(String(format: "%.1f", seconds)) s of data): "
      + Excerpt.list(short.map(\.session), limit: 5)
      + (short.count == all ? "; nothing of this data can be scored or learnt" : "")
    report.notes.append(message)
    return message
  }
}
