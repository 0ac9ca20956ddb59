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

  @Option(
    help: ArgumentHelp("A model file to time instead of the reference shape.", valueName: "file"))
  var model: String?

  @Argument(
    help: ArgumentHelp(
      "CSV with the model's input channels (default: MotionSense).", valueName: "file"))
  var file: String?

  @Option(
    parsing: .unconditional, help: "Samples to stream (taken from the start of the file).")
  var samples = 200_000

  @Option(
    parsing: .unconditional, help: "Repetitions; the median is reported.")
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
    let trained = try loadModel()
    let inputs = ChannelSelector.rawInputs(of: trained.featureSpec.recipes)
    // Before loading data: freed pages would be reused and hide the engines' growth.
    let bytesPerStream = try StreamBenchmark.residentBytesPerEngine(
      model: trained, inputChannels: inputs)
    let (stream, source) = try samplesToStream(model: trained, inputs: inputs)
    let result = try StreamBenchmark.run(
      model: trained, inputChannels: inputs, timestamps: stream.timestamps,
      columns: stream.columns, repetitions: repetitions, bytesPerStream: bytesPerStream)
    let spec = trained.featureSpec
    try StandardOutput.print(
      "model: \(model ?? "reference shape, random weights"): \(inputs.count) input channels, "
        + "\(trained.featureCount) features, \(trained.classifier.kind) \(hiddenDescription(trained)), "
        + "\(spec.sampleRateHz) Hz, window \(spec.windowLength), hop \(spec.hopLength)")
    try StandardOutput.print(
      "samples: \(source); \(result.predictionCount) predictions per run; \(repetitions) runs")
    let streamed = result.streamNanosecondsPerSample, batch = result.batchNanosecondsPerSample
    try StandardOutput.print(
      String(
        format: "streaming: %.0f ns per sample (median), %.2f M samples/s", streamed, 1e3 / streamed
      ))
    try StandardOutput.print(
      String(format: "batch:     %.0f ns per sample (median), %.2f M samples/s", batch, 1e3 / batch)
    )
    try StandardOutput.print(String(format: "ratio streaming / batch: %.2f", streamed / batch))
    if let bytes = result.bytesPerStream {
      try StandardOutput.print(
        String(
          format:
            "memory per stream: %.1f KB resident (growth over 1024 engines; the model is shared)",
          bytes / 1024))
    }
  }

  /// `--model`, or a reference model of MotionSense's shape with random weights.
  private func loadModel() throws -> TrainedModel {
    guard let model else {
      let channels =
        ["userAcceleration", "gravity", "rotationRate"].flatMap { g in
          ["x", "y", "z"].map { "\(g).\($0)" }
        } + ["attitude.roll", "attitude.pitch", "attitude.yaw"]
      return try TrainedModel.randomlyWeighted(channels: channels)
    }
    return try ModelFile.read(path: model)
  }

  /// The first `--samples` samples of the file at the model's rate, its recordings on one
  /// clock, or a synthetic recording when the file is absent; with a description.
  private func samplesToStream(model trained: TrainedModel, inputs: [String]) throws
    -> (stream: (timestamps: [Double], columns: [[Float]]), source: String)
  {
    let path = file ?? BenchFeatures.defaultFile
    let rate = trained.featureSpec.sampleRateHz
    var dataset: Dataset
    let source: String
    if FileManager.default.fileExists(atPath: path) {
      var options = LoadOptions()
      options.channelPatterns = inputs
      options.requireLabels = false
      // The engine is timed on input at the model's own rate (the batch path has no resampler).
      options.sampleRateHz = rate
      dataset = try DataSource(files: [path], options: options).load().result.dataset
      source = path
    } else {
      dataset = FeatureBenchmark.syntheticDataset(sampleCount: samples).dataset
      guard let r = dataset.recordings.first, abs(r.sampleRateHz - rate) <= 0.01 * r.sampleRateHz
      else {
        throw ToolError(
          "\(path) not found and the synthetic recording is not at the model's \(rate) Hz.",
          hint: "pass a CSV file with the model's inputs.")
      }
      source = "synthetic recording (\(path) not found)"
    }
    guard
      let stream = StreamBenchmark.concatenated(
        dataset, channels: inputs, rateHz: rate, sampleLimit: samples)
    else {
      throw ToolError(
        "\(source) lacks some of the model's inputs.",
        hint: "pass a CSV file with the columns \(inputs.joined(separator: ", ")).")
    }
    let described =
      source == path
      ? "\(path) (first \(stream.timestamps.count) samples at the model's \(rate) Hz)" : source
    return (stream, described)
  }

  private func hiddenDescription(_ model: TrainedModel) -> String {
    if case .mlp(let m) = model.classifier {
      return "(\(m.hiddenLayerSizes.map(String.init).joined(separator: ",")))"
    }
    return ""
  }
}
