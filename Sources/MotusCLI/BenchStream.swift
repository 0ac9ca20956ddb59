// `motus bench stream`: per-sample cost and memory of the streaming engine, beside batch
// inference over the same samples with the same model, in one run.

import ArgumentParser
import Foundation
import Motus

struct BenchStream: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stream",
    abstract: "Time the streaming engine sample by sample against batch inference.",
    discussion: """
      Without --model, uses a model of the shape the engine is specified for: MotionSense's \
      12 Core Motion channels at 50 Hz, 128-sample windows, hop 64, standard features, an \
      MLP with 64 hidden units and random weights (cost does not depend on the weights). \
      Samples come from ../shared/datasets/motionsense/motionsense.csv when present, else \
      from a synthetic recording. Figures are thread CPU time, medians over repetitions. 
      """)

  @Option(help: ArgumentHelp("A model file to time instead of the reference shape.", valueName: "file"))
  var model: String?

  @Argument(help: ArgumentHelp("CSV with the model's input channels (default: MotionSense).", valueName: "file"))
  var file: String?

  @Option(help: "Samples to stream (taken from the start of the file).")
  var samples = 200_000

  @Option(help: "Repetitions; the median is reported.")
  var repetitions = 5

  func validate() throws {
    guard (1...1000).contains(repetitions) else {
      throw ValidationError(
        "'--repetitions' must be in 1...1000 (the median settles long before), got "
          + "\(repetitions).")
    }
    guard (1_000...100_000_000).contains(samples) else {
      throw ValidationError("'--samples' must be in 1000...100000000, got \(samples).")
    }
  }

  func run() throws {
    let motionSenseChannels = ["userAcceleration", "gravity", "rotationRate"].flatMap { g in
      ["x", "y", "z"].map { "\(g).\($0)" }
    } + ["attitude.roll", "attitude.pitch", "attitude.yaw"]
    let trained: TrainedModel
    if let model {
      do {
        trained = try ModelFile.read(path: model)
      } catch let error as ModelFileError {
        throw ToolError(error.description)
      }
    } else {
      trained = try StreamBenchmark.referenceModel(channels: motionSenseChannels)
    }
    let inputs = ChannelSelector.rawInputs(of: trained.featureSpec.recipes)
    // Before loading data: freed pages would be reused and hide the engines' growth.
    let bytesPerStream = try StreamBenchmark.residentBytesPerEngine(
      model: trained, inputChannels: inputs)
    let path = file ?? BenchFeatures.defaultFile
    var timestamps: [Double]
    var columns: [[Float]]
    let source: String
    if FileManager.default.fileExists(atPath: path) {
      var options = LoadOptions()
      options.channelPatterns = inputs
      options.requireLabels = false
      // The engine is timed on input at the model's own rate (the batch path has no resampler).
      options.sampleRateHz = trained.featureSpec.sampleRateHz
      let loaded: LoadResult
      do {
        loaded = try DatasetLoader.load([path], options: options)
      } catch let error as CSVError {
        throw ToolError(error.description)
      }
      // Concatenate recordings on one clock: a stream that runs through several sessions.
      timestamps = []
      columns = [[Float]](repeating: [], count: inputs.count)
      let order = try inputs.map { name -> Int in
        guard let index = loaded.dataset.channels.firstIndex(of: name) else {
          throw ToolError("\(path) has no channel \(name).", hint: "pass a CSV with the model's inputs.")
        }
        return index
      }
      for r in loaded.dataset.recordings where timestamps.count < samples {
        let offset = (timestamps.last ?? -1 / trained.featureSpec.sampleRateHz) + 1 / trained.featureSpec.sampleRateHz
        let take = min(r.sampleCount, samples - timestamps.count)
        timestamps += r.timestamps.prefix(take).map { $0 - r.timestamps[0] + offset }
        for (k, c) in order.enumerated() { columns[k] += r.columns[c].prefix(take) }
      }
      source = "\(path) (first \(timestamps.count) samples at the model's \(trained.featureSpec.sampleRateHz) Hz)"
    } else {
      let synthetic = FeatureBenchmark.syntheticDataset(sampleCount: samples)
      guard let r = synthetic.dataset.recordings.first else { throw ToolError("no synthetic data.") }
      guard let order = try? inputs.map({ name -> Int in
        guard let i = synthetic.dataset.channels.firstIndex(of: name) else { throw ToolError(name) }
        return i
      }) else {
        throw ToolError("\(path) not found and the synthetic recording lacks the model's inputs.",
                        hint: "pass a CSV file with the columns \(inputs.joined(separator: ", ")).")
      }
      guard abs(r.sampleRateHz - trained.featureSpec.sampleRateHz) <= 0.01 * r.sampleRateHz else {
        throw ToolError(
          "\(path) not found and the synthetic recording is at \(r.sampleRateHz) Hz, the model at "
            + "\(trained.featureSpec.sampleRateHz) Hz.",
          hint: "pass a CSV file with the model's inputs.")
      }
      timestamps = r.timestamps
      columns = order.map { r.columns[$0] }
      source = "synthetic recording (\(path) not found)"
    }
    let result = try StreamBenchmark.run(
      model: trained, inputChannels: inputs, timestamps: timestamps, columns: columns,
      repetitions: repetitions, bytesPerStream: bytesPerStream)
    let spec = trained.featureSpec
    print("model: \(model ?? "reference shape, random weights"): \(inputs.count) input channels, "
      + "\(trained.featureCount) features, \(trained.classifier.kind) \(hiddenDescription(trained)), "
      + "\(spec.sampleRateHz) Hz, window \(spec.windowLength), hop \(spec.hopLength)")
    print("samples: \(source); \(result.predictionCount) predictions per run; \(repetitions) runs")
    let stream = result.streamNanosecondsPerSample, batch = result.batchNanosecondsPerSample
    print(String(format: "streaming: %.0f ns per sample (median), %.2f M samples/s", stream, 1e3 / stream))
    print(String(format: "batch:     %.0f ns per sample (median), %.2f M samples/s", batch, 1e3 / batch))
    print(String(format: "ratio streaming / batch: %.2f", stream / batch))
    if let bytes = result.bytesPerStream {
      print(String(format: "memory per stream: %.1f KB resident (growth over 1024 engines; the model is shared)", bytes / 1024))
    }
  }

  private func hiddenDescription(_ model: TrainedModel) -> String {
    if case .mlp(let m) = model.classifier { return "(\(m.hiddenLayerSizes.map(String.init).joined(separator: ",")))" }
    return ""
  }
}
