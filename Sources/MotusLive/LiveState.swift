// What the page and `GET /api/devices` show of one stream: its current activity, counts, the
// timeline of its last minutes, its closed segments and the reasons its last refused bodies
// were refused. Updated from the engine's events; bounded however long the stream runs.

import Foundation
import MotusStreaming

/// The visible state of one device's session.
public struct LiveState: Codable, Sendable, Equatable {
  public struct Span: Codable, Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var label: String
  }

  public struct Note: Codable, Sendable, Equatable {
    /// Unix seconds when the body was refused.
    public var at: Double
    public var status: Int
    public var reason: String
  }

  public var device: String
  public var session: String
  /// `sensor-logger` or `csv`.
  public var source: String
  /// How the device's readings were read (Sensor Logger: `iOS` or `Android`).
  public var platform: String?
  public var label: String?
  public var probability: Float?
  public var confidence: String?
  public var steps = 0
  public var pushUps = 0
  public var predictions = 0
  public var samples = 0
  public var batches = 0
  public var rateHz: Double?
  /// Unix seconds of the last accepted body.
  public var lastSeen: Double = 0
  /// Stream time (s since the session's first sample) of the latest prediction's end.
  public var streamTime: Double = 0
  /// Predictions of the last `timelineSeconds`, runs of one label merged.
  public var timeline: [Span] = []
  /// The latest closed segments (`maxSegments`), oldest first.
  public var segments: [ActivitySegment] = []
  /// The latest refused bodies (`maxNotes`), oldest first.
  public var notes: [Note] = []
  public var closed = false

  public static let timelineSeconds = 300.0
  public static let maxSegments = 50
  public static let maxNotes = 8

  init(device: String, session: String, source: String) {
    (self.device, self.session, self.source) = (device, session, source)
  }

  mutating func note(_ error: LiveInputError, at time: Double) {
    notes.append(Note(at: time, status: error.status, reason: error.description))
    if notes.count > Self.maxNotes { notes.removeFirst(notes.count - Self.maxNotes) }
  }

  mutating func apply(_ event: StreamEvent, classes: [String]) {
    switch event {
    case .prediction(let p):
      let name = p.isUnknown ? "unknown" : classes[p.classIndex]
      (label, probability, confidence) = (name, p.probability, p.confidence.rawValue)
      predictions += 1
      streamTime = p.windowEnd
      extendTimeline(label: name, start: p.windowStart, end: p.windowEnd)
    case .segment(let segment):
      segments.append(segment)
      if segments.count > Self.maxSegments { segments.removeFirst() }
    case .repetition(_, let count):
      pushUps = max(pushUps, count)
    case .step(_, let total):
      steps = total
    case .gap:
      break
    }
  }

  /// Adds a prediction's window: the last span grows when it has the same label, else a new
  /// span starts where the last ended (windows overlap; the timeline shows each moment once).
  private mutating func extendTimeline(label: String, start: Double, end: Double) {
    if var last = timeline.last, start <= last.end {
      if last.label == label {
        last.end = end
        timeline[timeline.count - 1] = last
      } else {
        timeline.append(Span(start: last.end, end: end, label: label))
      }
    } else {
      timeline.append(Span(start: start, end: end, label: label))
    }
    let horizon = end - Self.timelineSeconds
    if let keep = timeline.firstIndex(where: { $0.end > horizon }), keep > 0 {
      timeline.removeFirst(keep)
    }
  }
}
