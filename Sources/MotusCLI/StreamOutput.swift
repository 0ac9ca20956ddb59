// Formats stream events as JSON lines or CSV. Lines collect in a buffer that is written
// whenever the input has to be waited for (`flush`, called by the line reader before each
// read) and at the end, so a reader downstream sees every prediction as soon as the input
// that made it has been handled, without a write per line when a file is read in blocks.

import Foundation
import Motus
import MotusLive

final class StreamOutput {
  let classes: [String]
  let format: Stream.Format
  let segmentsOnly: Bool
  /// Write each line at once (`--realtime`, where the input is paced, not waited for).
  var flushesEachLine = false
  private var buffer = TextBuffer()
  /// The write to standard output that failed; the stream ends and `motus stream` reports it.
  private(set) var failure: StandardOutputError?
  private var closed: Bool { failure != nil }
  /// The JSON line of a prediction, as a live stream records it too.
  private let predictionLines: PredictionLines
  private var lastSession: (name: String, json: [UInt8], csv: [UInt8])?

  init(classes: [String], format: Stream.Format, segmentsOnly: Bool) {
    self.classes = classes
    self.format = format
    self.segmentsOnly = segmentsOnly
    predictionLines = PredictionLines(classes: classes)
  }

  func writeHeader() {
    guard format == .csv else { return }
    let header =
      segmentsOnly
      ? "session,start,end,label,mean_confidence,predictions,repetitions"
      : "session,event,start,end,label,probability,confidence,count,unknown_reason,"
        + classes.map { "p_\($0)" }.joined(separator: ",")
    _ = emit(header)
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
    let s = session ?? ""
    switch event {
    case .prediction(let p):
      guard !segmentsOnly else { return !closed }
      format == .json ? appendJSON(p, session: s) : appendCSV(p, session: s)
      return endLine()
    case .repetition(let time, let count):
      guard !segmentsOnly else { return !closed }
      switch format {
      case .json:
        return emit(
          "{\"event\":\"repetition\",\"session\":\(json(s)),\"end\":\(t(time)),\"count\":\(count)}")
      case .csv:
        return emit(
          "\(csv(s)),repetition,,\(t(time)),,,,\(count),,"
            + classes.map { _ in "" }.joined(separator: ","))
      }
    case .step(let time, let total):
      guard !segmentsOnly, format == .json else { return !closed }  // CSV: on segment lines
      return emit(
        "{\"event\":\"step\",\"session\":\(json(s)),\"time\":\(t(time)),\"total\":\(total)}")
    case .gap(let from, let to):
      guard !segmentsOnly else { return !closed }
      switch format {
      case .json:
        return emit(
          "{\"event\":\"gap\",\"session\":\(json(s)),\"start\":\(t(from)),\"end\":\(t(to))}")
      case .csv:
        return emit(
          "\(csv(s)),gap,\(t(from)),\(t(to)),,,,,," + classes.map { _ in "" }.joined(separator: ",")
        )
      }
    case .segment(let segment):
      return write(segment, session: s)
    }
  }

  private func write(_ segment: ActivitySegment, session s: String) -> Bool {
    guard segmentsOnly else { return !closed }
    let reps = segment.repetitions ?? 0  // a model without the repetition class counts none
    switch format {
    case .json:
      return emit(
        "{\"event\":\"segment\",\"session\":\(json(s)),\"start\":\(t(segment.start)),"
          + "\"end\":\(t(segment.end)),\"label\":\(json(segment.label)),"
          + "\"mean_confidence\":\(p4(segment.meanConfidence)),"
          + "\"predictions\":\(segment.predictionCount),\"repetitions\":\(reps)"
          + (segment.steps.map { ",\"steps\":\($0)" } ?? "") + "}")
    case .csv:
      return emit(
        "\(csv(s)),\(t(segment.start)),\(t(segment.end)),\(csv(segment.label)),"
          + "\(p4(segment.meanConfidence)),\(segment.predictionCount),\(reps)")
    }
  }

  private func appendJSON(_ p: StreamPrediction, session: String) {
    predictionLines.appendPrediction(p, sessionJSON: sessionText(session).json, to: &buffer)
  }

  private func appendCSV(_ p: StreamPrediction, session: String) {
    let label = p.isUnknown ? "unknown" : classes[p.classIndex]
    buffer.append(sessionText(session).csv)
    buffer.append(",prediction,")
    buffer.append(p.windowStart, fractionDigits: 3)
    buffer.append(UInt8(ascii: ","))
    buffer.append(p.windowEnd, fractionDigits: 3)
    buffer.append("," + csv(label) + ",")
    buffer.append(Double(p.probability), fractionDigits: 4)
    buffer.append("," + p.confidence.rawValue + ",," + (p.unknownReason?.rawValue ?? "") + ",")
    for k in classes.indices {
      if k > 0 { buffer.append(UInt8(ascii: ",")) }
      buffer.append(Double(p.probabilities[k]), fractionDigits: 4)
    }
  }

  /// The session's quoted forms; sessions repeat for hundreds of lines.
  private func sessionText(_ s: String) -> (name: String, json: [UInt8], csv: [UInt8]) {
    if let last = lastSession, last.name == s { return last }
    let made = (s, Array(json(s).utf8), Array(csv(s).utf8))
    lastSession = made
    return made
  }

  private func emit(_ line: String) -> Bool {
    buffer.append(line)
    return endLine()
  }

  private func endLine() -> Bool {
    buffer.append(UInt8(ascii: "\n"))
    if flushesEachLine || buffer.count >= 1 << 16 { return flush() }
    return !closed
  }

  private func t(_ x: Double) -> String { String(format: "%.3f", x) }
  private func p4(_ x: Float) -> String { String(format: "%.4f", x) }
  private func json(_ s: String) -> String { PredictionLines.json(s) }
  private func csv(_ s: String) -> String { CSVText.field(s) }
}
