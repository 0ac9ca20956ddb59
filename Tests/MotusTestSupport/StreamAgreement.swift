// SYNTHETIC recordings (ActivitySimulator) through the real CSV path, the small model the
// streaming tests share, and the stream-versus-batch comparison that the streaming and the
// evaluation tests both make. The model is a committed file so that streaming tests need no
// training; MotusEvaluationTests checks that its recipe still trains exactly that file.

import Foundation
import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusSimulation
import MotusStreaming
import XCTest

public enum StreamAgreement {
  public static let channelPatterns = ["acceleration.*", "rotationRate.*", "|acceleration|"]

  /// `Tests/Fixtures/streaming-synthetic.motus`: logistic, 50 Hz, 128-sample windows, hop 64,
  /// trained on `trainingRecordings(rateHz: 50)`.
  public static var modelURL: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/streaming-synthetic.motus")
  }

  nonisolated(unsafe) private static var cached: TrainedModel?
  public static func model() throws -> TrainedModel {
    if let cached { return cached }
    let model = try ModelFile.read(path: modelURL.path)
    cached = model
    return model
  }

  /// Writes `recordings` as one CSV and loads it as training would.
  public static func load(
    _ recordings: [SimulatedRecording], sampleRateHz: Double? = nil
  ) throws -> LoadResult {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("synthetic.csv")
    var text = ""
    for (i, r) in recordings.enumerated() { text += r.csv(includeHeader: i == 0) }
    try text.write(to: url, atomically: true, encoding: .utf8)
    var options = LoadOptions()
    options.channelPatterns = channelPatterns
    options.sampleRateHz = sampleRateHz
    return try DataSource(files: [url.path], options: options).load().result
  }

  /// Six synthetic activities, three subjects, 20 s each, at `rateHz`.
  public static func trainingRecordings(rateHz: Double) -> [SimulatedRecording] {
    var simulator = ActivitySimulator(seed: 11, sampleRateHz: rateHz)
    var out: [SimulatedRecording] = []
    for subject in 1...3 {
      for activity in SimulatedActivity.allCases {
        out.append(simulator.recording(activity, subject: subject, seconds: 20))
      }
    }
    return out
  }

  /// The spec the shared model was trained with, for `recipes` at 50 Hz.
  public static func spec(recipes: [ChannelRecipe]) -> FeatureSpec {
    FeatureSpec.standard(
      recipes: recipes, channels: recipes.map(\.name), sampleRateHz: 50, windowLength: 128,
      hopLength: 64)
  }

  /// Every prediction's probabilities as its event carries them, streaming `recording` to the
  /// end (finish included). Each is kept past the predictions after it, so an event sharing
  /// the engine's buffer instead of a value of its own would show the last window's here.
  public static func streamedProbabilities(
    _ recording: SimulatedRecording, engine: StreamingClassifier
  ) -> [[Float]] {
    var streamed: [[Float]] = []
    let collect: (StreamEvent) -> Void = { event in
      if case .prediction(let prediction) = event { streamed.append(prediction.probabilities) }
    }
    engine.feed(timestamps: recording.timestamps, columns: recording.columns, events: collect)
    return streamed
  }

  /// Batch evaluation of `recording` as `motus evaluate` does it (load, window, predict), and
  /// the input rate the loader detected.
  public static func batchProbabilities(
    model: TrainedModel, recording: SimulatedRecording, sampleRateHz: Double? = nil
  ) throws -> (probabilities: Matrix, inputRateHz: Double) {
    let loaded = try load([recording], sampleRateHz: sampleRateHz)
    let table = try WindowTable.make(
      dataset: loaded.dataset, extractor: FeatureExtractor(spec: model.featureSpec))
    let rate = try XCTUnwrap(loaded.report.sessions.first?.detectedRateHz)
    return (model.predictProbabilities(table.features), rate)
  }

  /// Same window count, and every probability within 1e-5 (the streaming contract).
  public static func assertMatch(
    _ streamed: [[Float]], _ batch: Matrix, _ name: String, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertEqual(streamed.count, batch.rowCount, file: file, line: line)
    var worst: Float = 0
    for i in 0..<min(streamed.count, batch.rowCount) {
      worst = max(worst, maxAbsoluteDifference(streamed[i], batch.row(i)))
    }
    print("\(name): \(streamed.count) windows, max |Δp| = \(worst)")
    XCTAssertLessThanOrEqual(worst, 1e-5, file: file, line: line)
  }
}
