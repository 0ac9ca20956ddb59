// `motus bench`: throughput measurements (release builds). Subcommands per stage.

import ArgumentParser
import Foundation
import Motus

struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure throughput (build with -c release for meaningful figures).",
    subcommands: [
      BenchFeatures.self, BenchStream.self, BenchAccuracy.self, BenchTransfer.self, BenchSteps.self,
      BenchIO.self, BenchAdapt.self, BenchServe.self,
    ])
}

struct BenchFeatures: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "features",
    abstract: "Time feature extraction over every window of a file; print the median.",
    discussion: """
      Without FILE, reads ../shared/datasets/motionsense/motionsense.csv when present \
      (channels: the 12 Core Motion channels plus |userAcceleration| and |rotationRate|), \
      else a synthetic recording with the same channels. Samples are time steps of the \
      recordings. Example:
        swift run -c release motus bench features --repetitions 5
      """)

  static let defaultFile = "../shared/datasets/motionsense/motionsense.csv"
  static let motionSenseChannels = [
    "userAcceleration.*", "gravity.*", "rotationRate.*", "attitude.*", "|userAcceleration|",
    "|rotationRate|",
  ]

  @Argument(help: ArgumentHelp("A labelled CSV file (default: MotionSense).", valueName: "file"))
  var file: String?

  @Option(
    help: ArgumentHelp(
      "Channels, comma-separated names or globs (default for MotionSense: its 12 channels "
        + "plus |userAcceleration| and |rotationRate|; else every numeric column).",
      valueName: "patterns"))
  var channels: String?

  @Option(
    parsing: .unconditional, help: "How many times to extract every window; the median is reported."
  )
  var repetitions = 5

  @Option(
    parsing: .unconditional, help: "Samples in the synthetic recording used when no file is found.")
  var syntheticSamples = 200_000

  @OptionGroup var windows: WindowOptions
  @OptionGroup var featureChannels: FeatureChannelOptions

  func validate() throws {
    guard (1...1000).contains(repetitions) else {
      throw ValidationError(
        "'--repetitions' must be in 1...1000 (the median settles long before), got "
          + "\(repetitions).")
    }
    guard (1...100_000_000).contains(syntheticSamples) else {
      throw ValidationError(
        "'--synthetic-samples' must be in 1...100000000, got \(syntheticSamples).")
    }
  }

  func run() throws {
    let source: String
    let result: LoadResult
    let defaultExists = FileManager.default.fileExists(atPath: Self.defaultFile)
    let path = file ?? (defaultExists ? Self.defaultFile : nil)
    if let path {
      var options = LoadOptions()
      if let channels {
        options.channelPatterns = DataOptions.list(channels)
      } else if file == nil {
        options.channelPatterns = Self.motionSenseChannels
      }
      result = try DataSource(files: [path], options: options).load().result
      source = path
    } else {
      let synthetic = FeatureBenchmark.syntheticDataset(sampleCount: syntheticSamples)
      result = LoadResult(
        dataset: synthetic.dataset, recipes: synthetic.recipes, report: LoadReport())
      source = "synthetic (\(Self.defaultFile) not found)"
    }
    let spec = try featureChannels.apply(to: windows.featureChoice()).cliSpec(for: result)
    let extractor: FeatureExtractor = try FeatureExtractor(spec: spec)
    let bench = FeatureBenchmark.run(
      dataset: result.dataset, extractor: extractor, repetitions: repetitions)
    try StandardOutput.print("source: \(source)")
    try StandardOutput.print(
      "channels: \(spec.channels.count) (\(spec.channels.joined(separator: ", ")))")
    try StandardOutput.print(
      "window \(spec.windowLength), hop \(spec.hopLength) samples at \(spec.sampleRateHz) Hz; "
        + "\(bench.featureCount) features")
    try StandardOutput.print(
      "windows: \(bench.windowCount), samples (time steps): \(bench.sampleCount)")
    let times = bench.seconds.map { String(format: "%.3f", $0) }.joined(separator: " ")
    let cpu = bench.cpuSeconds.map { String(format: "%.3f", $0) }.joined(separator: " ")
    try StandardOutput.print("wall seconds per repetition: \(times)")
    try StandardOutput.print("thread CPU seconds per repetition: \(cpu)")
    try StandardOutput.print(
      String(
        format: "median %.3f s wall: %.0f samples/s, %.0f windows/s (checksum %.6g)",
        bench.medianSeconds, bench.samplesPerSecond, bench.windowsPerSecond, bench.checksum))
    try StandardOutput.print(
      String(
        format: "median %.3f s thread CPU: %.0f samples/s (the figure on a busy machine)",
        bench.medianCPUSeconds, bench.samplesPerCPUSecond))
  }
}
