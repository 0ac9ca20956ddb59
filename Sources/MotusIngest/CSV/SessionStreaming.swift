import Foundation
import MotusData

/// The state of a streaming load: how many sessions are handed over, and the label totals.
final class SessionStreaming {
  /// A session came back after it was handed over (its rows are not contiguous in the file).
  struct Reappeared: Error {}

  let consume: (SessionBatch) throws -> Void
  /// `LoadState.sessions[..<released]` are finished and handed over.
  var released = 0
  var outlines: [RecordingOutline] = []
  var tally = LabelTally()

  init(consume: @escaping (SessionBatch) throws -> Void) { self.consume = consume }
}
