// Writes the lines of a stream's events (MotusLive's `StreamLines` formats them), those the
// flags ask for. Lines collect in a buffer that is written whenever the input has to be waited
// for (`flush`, called by the line reader before each read) and at the end, so a reader
// downstream sees every prediction as soon as the input that made it has been handled, without
// a write per line when a file is read in blocks.

import Foundation
import Motus
import MotusLive

final class StreamOutput {
  let format: Stream.Format
  let segmentsOnly: Bool
  /// Write each line at once (`--realtime`, where the input is paced, not waited for).
  var flushesEachLine = false
  private var buffer = TextBuffer()
  /// The write to standard output that failed; the stream ends and `motus stream` reports it.
  private(set) var failure: StandardOutputError?
  private var closed: Bool { failure != nil }
  /// The lines, as a live stream records them too.
  private let lines: StreamLines
  private var lastSession: (name: String, json: [UInt8], csv: [UInt8])?

  init(classes: [String], format: Stream.Format, segmentsOnly: Bool) {
    self.format = format
    self.segmentsOnly = segmentsOnly
    lines = StreamLines(classes: classes)
  }

  func writeHeader() {
    guard format == .csv else { return }
    buffer.append(lines.csvHeader(segmentsOnly: segmentsOnly))
    _ = endLine()
  }

  /// Writes what is buffered; false once a write to standard output failed (`failure`).
  @discardableResult
  func flush() -> Bool {
    if !closed && buffer.count > 0 {
      failure = buffer.bytes.withUnsafeBytes { StandardOutput.attempt($0) }
      buffer.removeAll()
    }
    return !closed
  }

  /// Writes one event; false when standard output failed (the stream should end).
  func write(_ event: StreamEvent, session: String?) -> Bool {
    guard shows(event) else { return !closed }
    let s = sessionText(session ?? "")
    switch format {
    case .json:
      lines.appendJSON(event, sessionJSON: s.json, to: &buffer)
    case .csv:
      guard lines.appendCSV(event, sessionCSV: s.csv, to: &buffer) else { return !closed }
    }
    return endLine()
  }

  /// `--segments` shows the segments alone, otherwise every event but them.
  private func shows(_ event: StreamEvent) -> Bool {
    if case .segment = event { return segmentsOnly }
    return !segmentsOnly
  }

  /// The session's quoted forms; sessions repeat for hundreds of lines.
  private func sessionText(_ s: String) -> (name: String, json: [UInt8], csv: [UInt8]) {
    if let last = lastSession, last.name == s { return last }
    let made = (s, Array(StreamLines.json(s).utf8), Array(CSVText.field(s).utf8))
    lastSession = made
    return made
  }

  private func endLine() -> Bool {
    buffer.append(UInt8(ascii: "\n"))
    if flushesEachLine || buffer.count >= 1 << 16 { return flush() }
    return !closed
  }
}
