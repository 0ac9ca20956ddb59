import Foundation
import MotusData

/// What stays of a recording handed over by `DatasetLoader.loadSessions`.
public struct RecordingOutline: Sendable, Equatable {
  public var session: String
  public var subject: String
  public var source: String
  public var sampleCount: Int
  public var durationSeconds: Double
  public var sampleRateHz: Double

  public init(_ recording: Recording) {
    session = recording.session
    subject = recording.subject
    source = recording.source
    sampleCount = recording.sampleCount
    durationSeconds = recording.durationSeconds
    sampleRateHz = recording.sampleRateHz
  }
}
