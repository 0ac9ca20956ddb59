// Throughput of FeatureExtractor over whole recordings: the figure `motus bench features`
// prints. Samples are counted as time steps of the recordings that hold at least one window.

import Foundation
import MotusData
import MotusFeatures
import MotusIngest

/// Times feature extraction over every window of a dataset, several times.
public enum FeatureBenchmark {
  public struct Result: Sendable {
    /// Wall-clock seconds of each repetition.
    public var seconds: [Double]
    /// CPU seconds of the calling thread per repetition: on a busy machine this, not the
    /// wall clock, is the cost of the work itself.
    public var cpuSeconds: [Double]
    public var windowCount: Int
    /// Time steps of the recordings that hold at least one window.
    public var sampleCount: Int
    public var featureCount: Int
    /// A value derived from every output, so the work cannot be optimised away.
    public var checksum: Double

    public var medianSeconds: Double { FeatureBenchmark.median(seconds) }
    public var medianCPUSeconds: Double { FeatureBenchmark.median(cpuSeconds) }
    /// Samples per wall-clock second (median repetition).
    public var samplesPerSecond: Double { Double(sampleCount) / medianSeconds }
    /// Samples per CPU second of the extracting thread (median repetition).
    public var samplesPerCPUSecond: Double { Double(sampleCount) / medianCPUSeconds }
    public var windowsPerSecond: Double { Double(windowCount) / medianSeconds }
  }

  /// Extracts every window of every recording `repetitions` times.
  ///
  /// - Parameters:
  ///   - dataset: Channels equal to `extractor.spec.recipes.map(\.name)`.
  ///   - repetitions: At least 1; the median is reported.
  public static func run(
    dataset: Dataset, extractor: FeatureExtractor, repetitions: Int
  ) -> Result {
    precondition(repetitions >= 1, "repetitions must be >= 1, got \(repetitions)")
    precondition(
      dataset.channels == extractor.spec.recipes.map(\.name),
      "dataset channels \(dataset.channels) are not the spec's recipes")
    var extractor = extractor
    let window = SlidingWindow(
      length: extractor.spec.windowLength, hop: extractor.spec.hopLength)
    let usable = dataset.recordings.filter { window.count(sampleCount: $0.sampleCount) > 0 }
    var row = [Float](repeating: 0, count: extractor.featureCount)
    var seconds: [Double] = []
    var cpuSeconds: [Double] = []
    var checksum = 0.0
    var windowCount = 0
    let clock = ContinuousClock()
    for _ in 0..<repetitions {
      windowCount = 0
      checksum = 0
      let cpuStart = ThreadCPUTime.seconds()
      let elapsed = clock.measure {
        row.withUnsafeMutableBufferPointer { output in
          for recording in usable {
            for start in window.starts(sampleCount: recording.sampleCount) {
              extractor.extract(columns: recording.columns, start: start, into: output)
              checksum += Double(output[0])
              windowCount += 1
            }
          }
        }
      }
      cpuSeconds.append(ThreadCPUTime.seconds() - cpuStart)
      seconds.append(
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
    return Result(
      seconds: seconds, cpuSeconds: cpuSeconds, windowCount: windowCount,
      sampleCount: usable.reduce(0) { $0 + $1.sampleCount },
      featureCount: extractor.featureCount, checksum: checksum)
  }

  public static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }

  /// A deterministic stand-in for MotionSense when the real file is absent: one recording,
  /// label `synthetic`, channels `userAcceleration/gravity/rotationRate.x/y/z`,
  /// `attitude.roll/pitch/yaw`, `|userAcceleration|`, `|rotationRate|` (tones plus noise).
  public static func syntheticDataset(
    sampleCount: Int, sampleRateHz: Double = 50, seed: UInt64 = 1
  ) -> (dataset: Dataset, recipes: [ChannelRecipe]) {
    let raw =
      ["userAcceleration", "gravity", "rotationRate"].flatMap { v in
        ["x", "y", "z"].map { "\(v).\($0)" }
      } + ["attitude.roll", "attitude.pitch", "attitude.yaw"]
    var state = seed
    var columns = raw.indices.map { c -> [Float] in
      (0..<sampleCount).map { t in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let noise = Double(state >> 11) / Double(1 << 53) - 0.5
        let time = Double(t) / sampleRateHz
        return Float(sin(2 * Double.pi * (1 + 0.3 * Double(c)) * time) + 0.2 * noise)
      }
    }
    let recipes =
      raw.map { ChannelRecipe.copy($0) }
      + ["userAcceleration", "rotationRate"].map {
        v in
        ChannelRecipe(
          name: "|\(v)|", operation: .magnitude, inputs: ["x", "y", "z"].map { "\(v).\($0)" })
      }
    for recipe in recipes.dropFirst(raw.count) {
      let axes = recipe.inputs.compactMap { raw.firstIndex(of: $0) }
      columns.append(
        (0..<sampleCount).map { t in
          axes.reduce(Float(0)) { $0 + columns[$1][t] * columns[$1][t] }.squareRoot()
        })
    }
    let recording = Recording(
      session: "synthetic", subject: "synthetic", source: "synthetic",
      timestamps: (0..<sampleCount).map { Double($0) / sampleRateHz }, columns: columns,
      labelIndices: [Int32](repeating: 0, count: sampleCount), sampleRateHz: sampleRateHz)
    return (
      Dataset(channels: recipes.map(\.name), labels: ["synthetic"], recordings: [recording]),
      recipes
    )
  }
}
