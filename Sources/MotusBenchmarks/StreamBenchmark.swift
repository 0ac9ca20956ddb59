// The cost of streaming inference, measured side by side with batch inference over the same
// samples and the same model in one run: the figures `motus bench stream` prints.
// Per-sample cost counts everything the engine does (recipes, NaN and gap checks, ring
// buffer, one feature extraction and one network evaluation per hop), amortised.

import Foundation
import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusStreaming

public enum StreamBenchmark {
  public struct Result: Sendable {
    public var sampleCount: Int
    public var predictionCount: Int
    /// Thread CPU seconds per repetition: the engine fed sample by sample.
    public var streamCPUSeconds: [Double]
    /// Thread CPU seconds per repetition: recipes over whole columns, every window's
    /// features, then one batched network evaluation.
    public var batchCPUSeconds: [Double]
    /// Resident bytes one more engine holds, or nil where the platform cannot tell.
    public var bytesPerStream: Double?

    public var streamNanosecondsPerSample: Double {
      FeatureBenchmark.median(streamCPUSeconds) / Double(sampleCount) * 1e9
    }
    public var batchNanosecondsPerSample: Double {
      FeatureBenchmark.median(batchCPUSeconds) / Double(sampleCount) * 1e9
    }
  }

  /// The recordings of `dataset` one after another on one clock at `rateHz` (a stream that runs
  /// through several sessions), `channels` in that order, up to `sampleLimit` samples; nil when
  /// the dataset lacks one of `channels`.
  public static func concatenated(
    _ dataset: Dataset, channels: [String], rateHz: Double, sampleLimit: Int
  ) -> (timestamps: [Double], columns: [[Float]])? {
    var order: [Int] = []
    for name in channels {
      guard let index = dataset.channels.firstIndex(of: name) else { return nil }
      order.append(index)
    }
    var timestamps: [Double] = []
    var columns = [[Float]](repeating: [], count: channels.count)
    for r in dataset.recordings where timestamps.count < sampleLimit {
      let offset = (timestamps.last ?? -1 / rateHz) + 1 / rateHz
      let take = min(r.sampleCount, sampleLimit - timestamps.count)
      timestamps += r.timestamps.prefix(take).map { $0 - r.timestamps[0] + offset }
      for (k, c) in order.enumerated() { columns[k] += r.columns[c].prefix(take) }
    }
    return (timestamps, columns)
  }

  /// Streams `columns` (raw channels named `inputChannels`, at the model's rate) through a
  /// fresh engine `repetitions` times, and evaluates the same samples in batch as often.
  public static func run(
    model: TrainedModel, inputChannels: [String], timestamps: [Double], columns: [[Float]],
    repetitions: Int, bytesPerStream: Double? = nil
  ) throws -> Result {
    precondition(repetitions >= 1, "repetitions must be >= 1, got \(repetitions)")
    precondition(columns.count == inputChannels.count, "one column per input channel")
    let sampleCount = timestamps.count
    var streamSeconds: [Double] = []
    var batchSeconds: [Double] = []
    var predictions = 0
    var row = [Float](repeating: 0, count: columns.count)
    for _ in 0..<repetitions {
      let engine = try StreamingClassifier(model: model, inputChannels: inputChannels)
      predictions = 0
      let start = ThreadCPUTime.seconds()
      for t in 0..<sampleCount {
        for c in 0..<columns.count { row[c] = columns[c][t] }
        row.withUnsafeBufferPointer { values in
          engine.append(timestamp: timestamps[t], values: values) { event in
            if case .prediction = event { predictions += 1 }
          }
        }
      }
      streamSeconds.append(ThreadCPUTime.seconds() - start)

      let batchStart = ThreadCPUTime.seconds()
      let plan = try ChannelPlan(recipes: model.featureSpec.recipes, rawChannels: inputChannels)
      let derived = plan.apply(columns: columns)
      var extractor = try FeatureExtractor(spec: model.featureSpec)
      let window = SlidingWindow(
        length: model.featureSpec.windowLength, hop: model.featureSpec.hopLength)
      var features = Matrix(
        rowCount: window.count(sampleCount: sampleCount), columnCount: extractor.featureCount)
      let featureCount = extractor.featureCount
      features.values.withUnsafeMutableBufferPointer { out in
        for (i, s) in window.starts(sampleCount: sampleCount).enumerated() {
          extractor.extract(
            columns: derived, start: s,
            into: UnsafeMutableBufferPointer(
              rebasing: out[(i * featureCount)..<((i + 1) * featureCount)]))
        }
      }
      let probabilities = model.predictProbabilities(features)
      batchSeconds.append(ThreadCPUTime.seconds() - batchStart)
      precondition(probabilities.rowCount == predictions, "batch and stream disagree on windows")
    }
    return Result(
      sampleCount: sampleCount, predictionCount: predictions, streamCPUSeconds: streamSeconds,
      batchCPUSeconds: batchSeconds,
      bytesPerStream: bytesPerStream)
  }

  /// Resident memory growth per engine, averaged over 1024 engines (Linux: /proc/self/statm;
  /// every buffer is written at creation, so it is resident). The model is shared. Call it
  /// early in a process: memory freed before would be reused and hide the growth.
  public static func residentBytesPerEngine(
    model: TrainedModel, inputChannels: [String]
  ) throws -> Double? {
    func residentBytes() -> Double? {
      guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
        return nil
      }
      let fields = text.split(separator: " ")
      guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
      return pages * 4096
    }
    let count = 1024
    var engines: [StreamingClassifier] = []
    engines.reserveCapacity(count)
    guard let before = residentBytes() else { return nil }
    for _ in 0..<count {
      engines.append(try StreamingClassifier(model: model, inputChannels: inputChannels))
    }
    guard let after = residentBytes() else { return nil }
    withExtendedLifetime(engines) {}
    return (after - before) / Double(count)
  }
}
