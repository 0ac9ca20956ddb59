// Feeding SYNTHETIC recordings (ActivitySimulator) to an engine with a per-sample hook; the
// shared model and loading helpers are MotusTestSupport's `StreamAgreement`.

import Foundation
import MotusData
import MotusFeatures
import MotusModels
import MotusLinearAlgebra
import MotusSimulation
import MotusStreaming
import MotusTestSupport

enum StreamingFixture {
  /// Feeds one recording to an engine; returns every event in order.
  static func stream(
    _ recording: SimulatedRecording, engine: StreamingClassifier,
    transform: (Int, inout [Float]) -> Void = { _, _ in }
  ) -> [StreamEvent] {
    var events: [StreamEvent] = []
    var row = [Float](repeating: 0, count: recording.columns.count)
    for t in recording.timestamps.indices {
      for c in row.indices { row[c] = recording.columns[c][t] }
      transform(t, &row)
      row.withUnsafeBufferPointer { values in
        engine.append(timestamp: recording.timestamps[t], values: values) { events.append($0) }
      }
    }
    engine.finish { events.append($0) }
    return events
  }
}
