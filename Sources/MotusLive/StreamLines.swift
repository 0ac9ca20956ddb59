// The lines of a stream: every event as a JSON line or as a CSV row. `motus stream` writes
// them, choosing the events by its flags; a live stream records the JSON lines of
// `motus stream --steps`. One place for keys, columns, order and digits, so a recorded
// session's `<session>.predictions.jsonl` is what `motus stream` prints for its `<session>.csv`.

import Foundation
import MotusOutput
import MotusStreaming

public struct StreamLines {
  public let classes: [String]
  private let classKeys: [String]

  public init(classes: [String]) {
    self.classes = classes
    classKeys = classes.map { Self.json($0) + ":" }
  }

  /// The CSV header: of the segment rows (`--segments`), or of the rows of every other event.
  public func csvHeader(segmentsOnly: Bool) -> String {
    segmentsOnly
      ? "session,start,end,label,mean_confidence,predictions,repetitions"
      : "session,event,start,end,label,probability,confidence,count,unknown_reason,"
        + classes.map { "p_\($0)" }.joined(separator: ",")
  }

  /// Appends the JSON line of `event` to `buffer`, without a line end. `sessionJSON` is the
  /// session as a JSON string literal.
  public func appendJSON(
    _ event: StreamEvent, sessionJSON: [UInt8], to buffer: inout TextBuffer
  ) {
    switch event {
    case .prediction(let p):
      appendPrediction(p, sessionJSON: sessionJSON, to: &buffer)
    case .repetition(let time, let count):
      appendOpening("repetition", sessionJSON, to: &buffer)
      buffer.append(",\"end\":\(t(time)),\"count\":\(count)}")
    case .step(let time, let total):
      appendOpening("step", sessionJSON, to: &buffer)
      buffer.append(",\"time\":\(t(time)),\"total\":\(total)}")
    case .gap(let from, let to):
      appendOpening("gap", sessionJSON, to: &buffer)
      buffer.append(",\"start\":\(t(from)),\"end\":\(t(to))}")
    case .segment(let segment):
      appendOpening("segment", sessionJSON, to: &buffer)
      buffer.append(",\"start\":\(t(segment.start)),\"end\":\(t(segment.end))")
      buffer.append(",\"label\":" + Self.json(segment.label))
      buffer.append(",\"mean_confidence\":" + p4(segment.meanConfidence))
      buffer.append(",\"predictions\":\(segment.predictionCount)")
      buffer.append(",\"repetitions\":\(repetitions(segment))")
      if let steps = segment.steps { buffer.append(",\"steps\":\(steps)") }
      buffer.append("}")
    }
  }

  /// Appends the CSV row of `event` to `buffer`, without a line end; false, appending nothing,
  /// for a step (steps are JSON only: `--steps --format csv` is refused). `sessionCSV` is the
  /// session as a CSV field.
  public func appendCSV(
    _ event: StreamEvent, sessionCSV: [UInt8], to buffer: inout TextBuffer
  ) -> Bool {
    if case .step = event { return false }
    buffer.append(sessionCSV)
    switch event {
    case .prediction(let p):
      appendPredictionRow(p, to: &buffer)
    case .repetition(let time, let count):
      buffer.append(",repetition,,\(t(time)),,,,\(count),," + noProbabilities())
    case .gap(let from, let to):
      buffer.append(",gap,\(t(from)),\(t(to)),,,,,," + noProbabilities())
    case .segment(let segment):
      buffer.append(",\(t(segment.start)),\(t(segment.end)),")
      buffer.append(CSVText.field(segment.label) + "," + p4(segment.meanConfidence))
      buffer.append(",\(segment.predictionCount),\(repetitions(segment))")
    case .step:
      break
    }
    return true
  }

  /// `{"event":"prediction","session":…,"start":…,"end":…,"label":…[,"unknown_reason":…],
  /// "probability":…,"confidence":…[,"steps":…,"cadence":…[,"distance_m":…]],
  /// "probabilities":{…}}`.
  private func appendPrediction(
    _ p: StreamPrediction, sessionJSON: [UInt8], to buffer: inout TextBuffer
  ) {
    appendOpening("prediction", sessionJSON, to: &buffer)
    buffer.append(",\"start\":")
    buffer.append(p.windowStart, fractionDigits: 3)
    buffer.append(",\"end\":")
    buffer.append(p.windowEnd, fractionDigits: 3)
    buffer.append(",\"label\":" + Self.json(label(p)))
    if let reason = p.unknownReason?.rawValue, !reason.isEmpty {
      buffer.append(",\"unknown_reason\":\"" + reason + "\"")
    }
    buffer.append(",\"probability\":")
    buffer.append(Double(p.probability), fractionDigits: 4)
    buffer.append(",\"confidence\":\"" + p.confidence.rawValue + "\"")
    if let steps = p.steps, let cadence = p.cadence {
      buffer.append(",\"steps\":\(steps),\"cadence\":")
      buffer.append(cadence, fractionDigits: 1)
      if let metres = p.distanceMeters {
        buffer.append(",\"distance_m\":")
        buffer.append(metres, fractionDigits: 1)
      }
    }
    buffer.append(",\"probabilities\":{")
    for k in classes.indices {
      if k > 0 { buffer.append(UInt8(ascii: ",")) }
      buffer.append(classKeys[k])
      buffer.append(Double(p.probabilities[k]), fractionDigits: 4)
    }
    buffer.append("}}")
  }

  /// `,prediction,start,end,label,probability,confidence,,unknown_reason,p_…` after the session.
  private func appendPredictionRow(_ p: StreamPrediction, to buffer: inout TextBuffer) {
    buffer.append(",prediction,")
    buffer.append(p.windowStart, fractionDigits: 3)
    buffer.append(UInt8(ascii: ","))
    buffer.append(p.windowEnd, fractionDigits: 3)
    buffer.append("," + CSVText.field(label(p)) + ",")
    buffer.append(Double(p.probability), fractionDigits: 4)
    buffer.append("," + p.confidence.rawValue + ",," + (p.unknownReason?.rawValue ?? "") + ",")
    for k in classes.indices {
      if k > 0 { buffer.append(UInt8(ascii: ",")) }
      buffer.append(Double(p.probabilities[k]), fractionDigits: 4)
    }
  }

  /// `{"event":"<name>","session":<session>`, the start every JSON line shares.
  private func appendOpening(_ name: String, _ sessionJSON: [UInt8], to buffer: inout TextBuffer) {
    buffer.append("{\"event\":\"" + name + "\",\"session\":")
    buffer.append(sessionJSON)
  }

  private func label(_ p: StreamPrediction) -> String {
    p.isUnknown ? "unknown" : classes[p.classIndex]
  }

  /// A model without the repetition class counts none.
  private func repetitions(_ segment: ActivitySegment) -> Int { segment.repetitions ?? 0 }

  /// The empty probability cells of a row that is not a prediction.
  private func noProbabilities() -> String { classes.map { _ in "" }.joined(separator: ",") }

  private func t(_ x: Double) -> String { String(format: "%.3f", x) }
  private func p4(_ x: Float) -> String { String(format: "%.4f", x) }

  /// A JSON string literal (control characters escaped).
  public static func json(_ s: String) -> String {
    var out = "\""
    for ch in s.unicodeScalars {
      switch ch {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if ch.value < 0x20 {
          out += String(format: "\\u%04x", ch.value)
        } else {
          out.unicodeScalars.append(ch)
        }
      }
    }
    return out + "\""
  }
}
