// The JSON lines `motus stream --steps` prints, made here for a live stream: predictions (with
// the engine's smoothed probabilities), repetitions, steps and gaps; segments are kept by the
// stream's state instead. Same keys, order and digits, so a recorded session's
// `<session>.predictions.jsonl` is what `motus stream` prints for its `<session>.csv`.

import Foundation
import MotusOutput
import MotusStreaming

public struct PredictionLines {
  public let classes: [String]
  private let classKeys: [String]

  public init(classes: [String]) {
    self.classes = classes
    classKeys = classes.map { Self.json($0) + ":" }
  }

  /// Appends the line of `event` (none for a segment) to `buffer`.
  func append(
    _ event: StreamEvent, session: String, to buffer: inout TextBuffer
  ) {
    let s = Self.json(session)
    switch event {
    case .prediction(let p):
      appendPrediction(p, sessionJSON: Array(s.utf8), to: &buffer)
      buffer.append("\n")
    case .repetition(let time, let count):
      buffer.append(
        "{\"event\":\"repetition\",\"session\":\(s),\"end\":\(t(time)),\"count\":\(count)}\n")
    case .step(let time, let total):
      buffer.append("{\"event\":\"step\",\"session\":\(s),\"time\":\(t(time)),\"total\":\(total)}\n")
    case .gap(let from, let to):
      buffer.append("{\"event\":\"gap\",\"session\":\(s),\"start\":\(t(from)),\"end\":\(t(to))}\n")
    case .segment:
      break
    }
  }

  /// `{"event":"prediction","session":…,"start":…,"end":…,"label":…[,"unknown_reason":…],
  /// "probability":…,"confidence":…[,"steps":…,"cadence":…[,"distance_m":…]],
  /// "probabilities":{…}}`, without a line end: the line `motus stream` prints, and a live
  /// stream records. `sessionJSON` is the session as a JSON string literal.
  public func appendPrediction(
    _ p: StreamPrediction, sessionJSON: [UInt8], to buffer: inout TextBuffer
  ) {
    let label = p.isUnknown ? "unknown" : classes[p.classIndex]
    buffer.append("{\"event\":\"prediction\",\"session\":")
    buffer.append(sessionJSON)
    buffer.append(",\"start\":")
    buffer.append(p.windowStart, fractionDigits: 3)
    buffer.append(",\"end\":")
    buffer.append(p.windowEnd, fractionDigits: 3)
    buffer.append(",\"label\":" + Self.json(label))
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

  private func t(_ x: Double) -> String { String(format: "%.3f", x) }

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
