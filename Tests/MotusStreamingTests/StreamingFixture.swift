// A small model trained on SYNTHETIC recordings (ActivitySimulator), shared by the streaming
// tests, and helpers to load synthetic recordings through the real CSV path.

import Foundation
import MotusData
import MotusFeatures
import MotusModels
import MotusLinearAlgebra
import MotusSimulation
import MotusStreaming
import MotusTestSupport
import MotusTraining

enum StreamingFixture {
  static let channelPatterns = ["acceleration.*", "rotationRate.*", "|acceleration|"]

  /// Writes `recordings` as one CSV and loads it as training would.
  static func load(_ recordings: [SimulatedRecording], sampleRateHz: Double? = nil) throws -> LoadResult {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("synthetic.csv")
    var text = ""
    for (i, r) in recordings.enumerated() { text += r.csv(includeHeader: i == 0) }
    try text.write(to: url, atomically: true, encoding: .utf8)
    var options = LoadOptions()
    options.channelPatterns = channelPatterns
    options.sampleRateHz = sampleRateHz
    return try DatasetLoader.load([url.path], options: options)
  }

  /// Six synthetic activities, three subjects, 20 s each, at `rateHz`.
  static func trainingRecordings(rateHz: Double) -> [SimulatedRecording] {
    var simulator = ActivitySimulator(seed: 11, sampleRateHz: rateHz)
    var out: [SimulatedRecording] = []
    for subject in 1...3 {
      for activity in SimulatedActivity.allCases {
        out.append(simulator.recording(activity, subject: subject, seconds: 20))
      }
    }
    return out
  }

  /// A logistic model at 50 Hz, 128-sample windows, hop 64.
  static func trainModel(loaded: LoadResult) throws -> TrainedModel {
    let spec = FeatureSpec.standard(
      recipes: loaded.recipes, channels: loaded.recipes.map(\.name), sampleRateHz: 50,
      windowLength: 128, hopLength: 64)
    var options = TrainingOptions()
    options.maxEpochs = 60
    options.seed = 1
    // The model these tests were written against: no perturbed copies, balanced classes.
    options.augmentation = nil
    options.classWeighting = .balanced
    return try Trainer.train(dataset: loaded.dataset, spec: spec, options: options).model
  }

  nonisolated(unsafe) private static var cached: TrainedModel?
  static func model() throws -> TrainedModel {
    if let cached { return cached }
    let model = try trainModel(loaded: load(trainingRecordings(rateHz: 50)))
    cached = model
    return model
  }

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
