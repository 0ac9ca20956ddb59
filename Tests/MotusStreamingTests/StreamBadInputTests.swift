// The stream's line parser and engine on bad rows: out-of-range and non-finite cells are
// counted skips naming line and column, device-motion columns feed an acceleration model, and
// a window whose probabilities overflow is skipped, never printed as NaN.

import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels
import MotusStreaming
import XCTest

final class StreamBadInputTests: XCTestCase {
  /// Acceleration in, mean of |acceleration| as the one feature; 10 Hz, windows of 4.
  private static func model(scale: Float = 1) -> TrainedModel {
    let axes = ["acceleration.x", "acceleration.y", "acceleration.z"]
    let spec = FeatureSpec(
      recipes: axes.map { ChannelRecipe.copy($0) }
        + [ChannelRecipe(name: "|acceleration|", operation: .magnitude, inputs: axes)],
      channels: ["|acceleration|"], sampleRateHz: 10, windowLength: 4, hopLength: 4,
      statistics: [.mean], spectral: [], bandEdgesHz: [])
    return TrainedModel(
      featureSpec: spec, standardizer: Standardizer(mean: [0], scale: [scale]),
      classifier: .logistic(
        LogisticRegression(
          classes: ["still", "moving"],
          linear: Linear(weight: Matrix(rows: [[-2], [2]]), bias: [0, 0]))),
      confidenceCutoffs: ConfidenceCutoffs(medium: 0.6, high: 0.9),
      metadata: TrainingMetadata(dataDigest: "0000000000000000", seed: 0, motusVersion: "test"))
  }

  private func reader(_ header: String) throws -> StreamRowReader {
    try StreamRowReader(header: Array(header.utf8), file: "live.csv", model: Self.model())
  }

  private func read(_ reader: inout StreamRowReader, _ line: String)
    -> (StreamRowReader.Row, [Float])
  {
    var values = [Float](repeating: 0, count: reader.inputs.count)
    let row = values.withUnsafeMutableBufferPointer { reader.read(Array(line.utf8), into: $0) }
    return (row, values)
  }

  func testRows_BadCellsAreSkipsNamingLineAndColumn() throws {
    var rows = try reader("timestamp,acceleration.x,acceleration.y,acceleration.z")
    XCTAssertEqual(read(&rows, "0,0,0,1").0, .sample(time: 0, session: nil))
    let cases: [(String, String)] = [
      ("0.1,1e30,0,1", "live.csv:3:2 ('acceleration.x'): 1e30 is beyond ±1e7"),
      ("0.2,0,nan,1", "live.csv:4:3 ('acceleration.y'): 'nan' is not a finite number"),
      ("1e300,0,0,1", "live.csv:5:1 ('timestamp'): 1e300 is beyond ±1e10"),
      ("0.4,0,x\u{1B}[2J,1", "live.csv:6:3 ('acceleration.y'): 'x\\x1B[2J' is not a number"),
      ("0.5,0,0", "live.csv:7:4: the row has 3 fields, the header has 4"),
      (",0,0,1", "live.csv:8:1 ('timestamp'): the cell is empty"),
      ("0.6,1e400,0,1", "live.csv:9:2 ('acceleration.x'): 1e400 is beyond ±1e7"),
      ("1e400,0,0,1", "live.csv:10:1 ('timestamp'): 1e400 is beyond ±1e10"),
      ("0.7,-inf,0,1", "live.csv:11:2 ('acceleration.x'): '-inf' is not a finite number"),
    ]
    for (line, message) in cases {
      guard case .skipped(let error) = read(&rows, line).0 else {
        XCTFail("\(line) was not skipped")
        continue
      }
      XCTAssertTrue("\(error)".hasPrefix(message), "\(error)")
    }
    XCTAssertEqual(read(&rows, "").0, .blank)
    XCTAssertEqual(read(&rows, "0.9,0,0,1").0, .sample(time: 0.9, session: nil))
  }

  func testRows_DeviceMotionColumnsFeedAnAccelerationModel() throws {
    var rows = try reader(
      "timestamp,session,gravity.x,gravity.y,gravity.z,userAcceleration.x,userAcceleration.y,"
        + "userAcceleration.z")
    let (row, values) = read(&rows, "0.5,walk,0,-1,0,0.25,0.5,-0.125")
    XCTAssertEqual(row, .sample(time: 0.5, session: "walk"))
    XCTAssertEqual(values, [0.25, -0.5, -0.125])
  }

  func testHeader_NotTextOrMissingColumnsIsAClearError() {
    XCTAssertThrowsError(
      try StreamRowReader(
        header: [0xFF, 0xFE, 0x74, 0], file: "live.csv", model: Self.model())
    ) { error in
      XCTAssertEqual(
        error as? CSVError, .notText(file: "live.csv", encoding: "UTF-16 (little-endian)"))
    }
    XCTAssertThrowsError(try reader("timestamp,gravity.x")) { error in
      XCTAssertTrue(error is InputAdapterError, "\(error)")
    }
  }

  func testEngine_SkipsAndCountsWindowsWhoseProbabilitiesAreNotFinite() throws {
    // A standardiser scale of 1e-38 overflows the logits of any window with |a| >= 2.
    let engine = try StreamingClassifier(
      model: Self.model(scale: 1e-38),
      inputChannels: ["acceleration.x", "acceleration.y", "acceleration.z"])
    var predictions: [StreamPrediction] = []
    for t in 0..<16 {
      let x: Float = t < 8 ? 0.5 : 3
      [x, 0, 0].withUnsafeBufferPointer { values in
        engine.append(timestamp: Double(t) / 10, values: values) { event in
          if case .prediction(let p) = event { predictions.append(p) }
        }
      }
    }
    engine.finish { _ in }
    XCTAssertEqual(predictions.count, 2)
    XCTAssertTrue(predictions.allSatisfy { $0.probability.isFinite })
    XCTAssertEqual(engine.statistics.predictionsSkippedNonFinite, 2)
  }

  func testEngine_InputRateOutOfBoundsIsAnErrorNotATrap() {
    var configuration = StreamConfiguration()
    configuration.inputRateHz = 0.001
    XCTAssertThrowsError(
      try StreamingClassifier(
        model: Self.model(), inputChannels: ["acceleration.x", "acceleration.y", "acceleration.z"],
        configuration: configuration)
    ) { error in
      XCTAssertEqual(error as? LimitError, .sampleRate(what: "the stream's input", hz: 0.001))
    }
  }
}
