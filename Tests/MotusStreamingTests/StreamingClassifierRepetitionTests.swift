import MotusSimulation
import MotusStreaming
import MotusTestSupport
import XCTest

// Every recording here is synthetic (ActivitySimulator).
final class StreamingClassifierRepetitionTests: XCTestCase {
  /// A confirmed set's look-back can hold several repetitions at once; each must still come
  /// as its own event, numbered 1, 2, 3, ..., so that counting events counts repetitions.
  func testRepetitionEvents_OnePerRepetitionInOrder() throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 21)
    let recording = simulator.recording(segments: [(.stationary, 6), (.pushUp, 30)], subject: 3)
    let engine = try StreamingClassifier(model: model, inputChannels: ActivitySimulator.channels)
    var counts: [Int] = []
    let collect: (StreamEvent) -> Void = { event in
      if case .repetition(_, let count) = event { counts.append(count) }
    }
    engine.feed(timestamps: recording.timestamps, columns: recording.columns, events: collect)
    XCTAssertGreaterThan(recording.pushUpCount, 5)
    XCTAssertEqual(counts, Array(1...max(1, engine.repetitionCount)))
    XCTAssertLessThanOrEqual(
      abs(engine.repetitionCount - recording.pushUpCount), 1,
      "counted \(engine.repetitionCount), simulated \(recording.pushUpCount)")
  }
}
