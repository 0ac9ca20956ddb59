// Recordings too short for one window: they are loaded but no model ever sees them, which is
// easy to miss (a jittery phone file split into pieces shorter than a window scores nothing).

import Foundation
import MotusData

extension LoadOutline {
  /// Sessions of recordings shorter than `windowSeconds`, and a note saying so in the report
  /// (none when every recording holds a window).
  ///
  /// - Returns: One warning line, or nil.
  @discardableResult
  public mutating func noteRecordingsWithoutWindow(windowSeconds: Double) -> String? {
    let message = WindowCoverage.shortRecordings(
      recordings.map { ($0.session, $0.durationSeconds) }, windowSeconds: windowSeconds)
    if let message { report.notes.append(message) }
    return message
  }
}

/// The warning about recordings too short for a window.
public enum WindowCoverage {
  /// One line naming the recordings (session, duration in seconds) shorter than
  /// `windowSeconds`, or nil when there are none.
  public static func shortRecordings(
    _ recordings: [(session: String, durationSeconds: Double)], windowSeconds: Double
  ) -> String? {
    let short = recordings.filter { $0.durationSeconds < windowSeconds }
    guard !short.isEmpty else { return nil }
    let seconds = short.reduce(0) { $0 + $1.durationSeconds }
    let all = recordings.count
    return "\(short.count) of \(all) recording(s) are shorter than one "
      + String(format: "%.2f", windowSeconds) + " s window and yield no window "
      + "(\(String(format: "%.1f", seconds)) s of data): "
      + Excerpt.list(short.map(\.session), limit: 5)
      + (short.count == all ? "; nothing of this data can be scored or learnt" : "")
  }
}
