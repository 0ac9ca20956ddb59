// Formats stream events as JSON lines or CSV and flushes each line, so a reader downstream
// sees every prediction as soon as it is made.

import Foundation
import Motus

final class StreamOutput {
  let classes: [String]
  let format: Stream.Format
  let segmentsOnly: Bool
  private var repetitionsAtSegmentStart = 0
  private var repetitions = 0

  init(classes: [String], format: Stream.Format, segmentsOnly: Bool) {
    self.classes = classes
    self.format = format
    self.segmentsOnly = segmentsOnly
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

  /// Writes one event; false when standard output is closed (the stream should end).
  func write(_ event: StreamEvent, session: String?) -> Bool {
    let s = session ?? ""
    switch event {
    case .prediction(let p):
      guard !segmentsOnly else { return true }
      let label = p.isUnknown ? "unknown" : classes[p.classIndex]
      let probabilities = classes.indices.map { p4(probability(of: $0, p)) }
      let reason = p.unknownReason?.rawValue ?? ""
      switch format {
      case .json:
        let pairs = zip(classes, probabilities).map { "\(json($0)):\($1)" }.joined(separator: ",")
        let why = reason.isEmpty ? "" : ",\"unknown_reason\":\"\(reason)\""
        return emit(
          "{\"event\":\"prediction\",\"session\":\(json(s)),\"start\":\(t(p.windowStart)),"
            + "\"end\":\(t(p.windowEnd)),\"label\":\(json(label))\(why),"
            + "\"probability\":\(p4(p.probability)),"
            + "\"confidence\":\"\(p.confidence.rawValue)\",\"probabilities\":{\(pairs)}}")
      case .csv:
        return emit(
          "\(csv(s)),prediction,\(t(p.windowStart)),\(t(p.windowEnd)),\(csv(label)),"
            + "\(p4(p.probability)),\(p.confidence.rawValue),,\(reason),"
            + probabilities.joined(separator: ","))
      }
    case .repetition(let time, let count):
      repetitions = count
      guard !segmentsOnly else { return true }
      switch format {
      case .json:
        return emit("{\"event\":\"repetition\",\"session\":\(json(s)),\"end\":\(t(time)),\"count\":\(count)}")
      case .csv:
        return emit("\(csv(s)),repetition,,\(t(time)),,,,\(count),," + classes.map { _ in "" }.joined(separator: ","))
      }
    case .gap(let from, let to):
      guard !segmentsOnly else { return true }
      switch format {
      case .json:
        return emit("{\"event\":\"gap\",\"session\":\(json(s)),\"start\":\(t(from)),\"end\":\(t(to))}")
      case .csv:
        return emit("\(csv(s)),gap,\(t(from)),\(t(to)),,,,,," + classes.map { _ in "" }.joined(separator: ","))
      }
    case .segment(let segment):
      let reps = repetitions - repetitionsAtSegmentStart
      repetitionsAtSegmentStart = repetitions
      guard segmentsOnly else { return true }
      switch format {
      case .json:
        return emit(
          "{\"event\":\"segment\",\"session\":\(json(s)),\"start\":\(t(segment.start)),"
            + "\"end\":\(t(segment.end)),\"label\":\(json(segment.label)),"
            + "\"mean_confidence\":\(p4(segment.meanConfidence)),"
            + "\"predictions\":\(segment.predictionCount),\"repetitions\":\(reps)}")
      case .csv:
        return emit(
          "\(csv(s)),\(t(segment.start)),\(t(segment.end)),\(csv(segment.label)),"
            + "\(p4(segment.meanConfidence)),\(segment.predictionCount),\(reps)")
      }
    }
  }

  // The engine's smoothed probabilities are not part of the event; the top one is.
  private var lastProbabilities: [Float] = []
  func setProbabilities(_ p: [Float]) { lastProbabilities = p }
  private func probability(of k: Int, _ p: StreamPrediction) -> Float {
    k < lastProbabilities.count ? lastProbabilities[k] : (k == p.classIndex ? p.probability : 0)
  }

  /// One unbuffered write per line; a closed reader (EPIPE) makes it return false.
  private func emit(_ line: String) -> Bool {
    do {
      try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
      return true
    } catch {
      return false
    }
  }

  private func t(_ x: Double) -> String { String(format: "%.3f", x) }
  private func p4(_ x: Float) -> String { String(format: "%.4f", x) }
  private func json(_ s: String) -> String {
    var out = "\""
    for ch in s.unicodeScalars {
      switch ch {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if ch.value < 0x20 { out += String(format: "\\u%04x", ch.value) } else { out.unicodeScalars.append(ch) }
      }
    }
    return out + "\""
  }
  private func csv(_ s: String) -> String {
    s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
      ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
  }
}
