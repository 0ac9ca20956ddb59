// Replays a test stream sample by sample through a method and returns the label it shows after
// each sample: the learned engine (`StreamingClassifier`) or the threshold rules. The label is
// an index into the dataset's labels, `StreamReplay.noLabel` before the first full window and
// `StreamReplay.unknown` when the engine answers unknown.

import MotusBaselines
import MotusData
import MotusIngest
import MotusModels
import MotusStreaming

/// What each method shows, sample by sample, on one stream.
public enum StreamReplay {
  /// Before the first prediction.
  public static let noLabel: Int32 = -1
  /// The engine answered unknown.
  public static let unknown: Int32 = -2

  /// The labels and repetition events of one engine run.
  public struct EngineRun {
    /// Per sample, an index into the dataset's labels, or `noLabel` / `unknown`.
    public var labels: [Int32]
    /// Per sample, why the shown answer is unknown (nil when it names a class).
    public var unknownReasons: [UnknownReason?]
    /// Per sample, the shown answer's probability (0 before the first prediction) and its
    /// confidence level (an index into `ConfidenceLevel.allCases`).
    public var probabilities: [Float]
    public var confidenceLevels: [UInt8]
    /// Repetition events (with `countRepetitions`).
    public var repetitions: Int
    public var firstRepetitionTime: Double?
    public var cpuSeconds: Double
  }

  /// Streams `stream` through a fresh engine for `model`.
  ///
  /// - Parameters:
  ///   - channels: The stream's column names (the dataset's channels).
  ///   - labels: The dataset's labels; model classes are mapped onto them by name.
  public static func engine(
    model: TrainedModel, configuration: StreamConfiguration, stream: BenchmarkStream,
    range: Range<Int>? = nil, channels: [String], labels: [String]
  ) throws -> EngineRun {
    let engine = try StreamingClassifier(
      model: model, inputChannels: channels, configuration: configuration)
    let classIndex = model.classes.map { Int32(labels.firstIndex(of: $0) ?? -1) }
    let range = range ?? 0..<stream.sampleCount
    var run = EngineRun(
      labels: [Int32](repeating: noLabel, count: range.count),
      unknownReasons: [UnknownReason?](repeating: nil, count: range.count),
      probabilities: [Float](repeating: 0, count: range.count),
      confidenceLevels: [UInt8](repeating: 0, count: range.count), repetitions: 0,
      firstRepetitionTime: nil, cpuSeconds: 0)
    var current = noLabel
    var reason: UnknownReason? = nil
    var probability: Float = 0
    var level: UInt8 = 0
    var row = [Float](repeating: 0, count: channels.count)
    let start = range.lowerBound
    func note(_ event: StreamEvent) {
      switch event {
      case .prediction(let p):
        reason = p.unknownReason
        current = p.unknownReason != nil ? unknown : classIndex[p.classIndex]
        probability = p.probability
        level = UInt8(ConfidenceLevel.allCases.firstIndex(of: p.confidence) ?? 0)
      case .repetition(let time, _):
        run.repetitions += 1
        if run.firstRepetitionTime == nil {
          run.firstRepetitionTime = time - stream.timestamps[start]
        }
      default: break
      }
    }
    let begin = ThreadCPUTime.seconds()
    for t in range {
      for c in row.indices { row[c] = stream.columns[c][t] }
      row.withUnsafeBufferPointer { values in
        engine.append(timestamp: stream.timestamps[t], values: values, events: note)
      }
      run.labels[t - start] = current
      run.unknownReasons[t - start] = reason
      run.probabilities[t - start] = probability
      run.confidenceLevels[t - start] = level
    }
    engine.finish(events: note)
    run.cpuSeconds = ThreadCPUTime.seconds() - begin
    return run
  }

  /// The threshold rules over raw acceleration axes `axes` (column indices), with a majority
  /// vote over the last `voteLength` window labels.
  public static func thresholds(
    cutoffs: ActivityThresholds, voteLength: Int, windowSeconds: Double, stream: BenchmarkStream,
    axes: [Int], labels: [String]
  ) -> (labels: [Int32], cpuSeconds: Double) {
    let index = ThresholdActivity.allCases.map { Int32(labels.firstIndex(of: $0.rawValue) ?? -1) }
    var classifier = ThresholdActivityClassifier(
      cutoffs: cutoffs, sampleRateHz: stream.sampleRateHz, windowSeconds: windowSeconds)
    var vote = LabelVote<ThresholdActivity>(length: voteLength)
    var predicted = [Int32](repeating: noLabel, count: stream.sampleCount)
    var current = noLabel
    let x = stream.columns[axes[0]]
    let y = stream.columns[axes[1]]
    let z = stream.columns[axes[2]]
    let begin = ThreadCPUTime.seconds()
    for t in 0..<stream.sampleCount {
      if let label = classifier.push(x: x[t], y: y[t], z: z[t]) {
        let voted = vote.push(label)
        current = index[ThresholdActivity.allCases.firstIndex(of: voted) ?? 0]
      }
      predicted[t] = current
    }
    return (predicted, ThreadCPUTime.seconds() - begin)
  }

  /// The threshold rules' cut-offs tuned by grid search on the windows of `recordings`
  /// (only windows whose label is one of the rules' classes).
  public static func tuneThresholds(
    recordings: [Recording], axes: [Int], labels: [String], windowSeconds: Double
  ) -> (cutoffs: ActivityThresholds, macroF1: Double) {
    var statistics: [ActivityWindowStatistics] = []
    var windowLabels: [ThresholdActivity] = []
    for r in recordings {
      var classifier = ThresholdActivityClassifier(
        cutoffs: .typical, sampleRateHz: r.sampleRateHz, windowSeconds: windowSeconds)
      let (x, y, z) = (r.columns[axes[0]], r.columns[axes[1]], r.columns[axes[2]])
      for t in 0..<r.sampleCount {
        let s = classifier.pushStatistics(x: x[t], y: y[t], z: z[t])
        let index = Int(r.labelIndices[t])
        if let s, index >= 0, let label = ThresholdActivity(rawValue: labels[index]) {
          statistics.append(s)
          windowLabels.append(label)
        }
      }
    }
    return ThresholdSearch.tune(statistics: statistics, labels: windowLabels)
  }
}
