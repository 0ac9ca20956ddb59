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

  /// Each closed segment carries the repetitions reported while it was open, so an app that
  /// embeds the engine needs no count of its own; a gap restarts the running count, and the
  /// segments after it still get their own (a running count read at each segment's end would
  /// go negative there).
  func testSegments_CarryTheRepetitionsReportedDuringThem_AcrossAGap() throws {
    let model = try StreamAgreement.model()
    var simulator = ActivitySimulator(seed: 21)
    var recording = simulator.recording(
      segments: [(.stationary, 6), (.pushUp, 30), (.stationary, 6), (.pushUp, 20)], subject: 3)
    let gapAt = try XCTUnwrap(recording.timestamps.firstIndex { $0 >= 42 })
    for t in gapAt..<recording.timestamps.count { recording.timestamps[t] += 60 }
    let engine = try StreamingClassifier(model: model, inputChannels: ActivitySimulator.channels)
    var reported = 0  // repetition events since the last segment closed
    var perSegment: [(segment: Int, reported: Int)] = []
    var (total, afterGap, gaps) = (0, 0, 0)
    engine.feed(timestamps: recording.timestamps, columns: recording.columns) { event in
      switch event {
      case .repetition:
        reported += 1
        total += 1
        if gaps > 0 { afterGap += 1 }
      case .segment(let segment):
        perSegment.append((segment.repetitions ?? -1, reported))
        reported = 0
      case .gap: gaps += 1
      default: break
      }
    }
    XCTAssertEqual(gaps, 1)
    XCTAssertGreaterThan(total - afterGap, 3, "repetitions before the gap")
    XCTAssertGreaterThan(afterGap, 3, "repetitions after the gap")
    for (segment, reported) in perSegment { XCTAssertEqual(segment, reported, "\(perSegment)") }
    XCTAssertEqual(perSegment.map(\.segment).reduce(0, +), total)
  }

  /// A model without the repetition class counts none, and its segments say so (nil).
  func testSegments_WithoutARepetitionClassCarryNoRepetitions() throws {
    var configuration = StreamConfiguration()
    configuration.repetitionClass = nil
    let engine = try StreamingClassifier(
      model: try StreamAgreement.model(), inputChannels: ActivitySimulator.channels,
      configuration: configuration)
    var simulator = ActivitySimulator(seed: 5)
    let recording = simulator.recording(segments: [(.walking, 8), (.pushUp, 12)], subject: 2)
    var segments: [ActivitySegment] = []
    engine.feed(timestamps: recording.timestamps, columns: recording.columns) { event in
      if case .segment(let segment) = event { segments.append(segment) }
    }
    XCTAssertFalse(segments.isEmpty)
    XCTAssertTrue(segments.allSatisfy { $0.repetitions == nil }, "\(segments)")
  }
}
