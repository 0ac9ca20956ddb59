// Steps measured on real recordings: the engine's `StepCounter` (as `motus stream --steps`
// runs it) against the phone's own pedometer where a recording carries one, and against the
// classic threshold pedometer (`ThresholdStepCounter`) with typical settings and with settings
// tuned on the other recordings; cadence per prediction on labelled sessions.

import Foundation
import MotusBaselines
import MotusData
import MotusIngest
import MotusModels
import MotusStreaming

public enum StepBenchmark {
  /// The acceleration columns every recording is read with: the model's input, and the |a|
  /// the threshold pedometer counts peaks of.
  public static let channels = ["acceleration.x", "acceleration.y", "acceleration.z"]
  /// Recordings sampled slower than this are not counted: a step's peak lasts about 0.1 s.
  public static let minimumRateHz: Double = 15
  /// The label a phone-app recording is read with: counting steps does not need its activity.
  public static let recordingLabel = "walking"
  /// MotionSense labels whose cadence is measured.
  public static let cadenceLabels = ["walking", "jogging", "sitting", "standing"]
  /// The cadence (steps/min) each of `cadenceLabels` should keep; nil: the label is only
  /// counted, as for sitting and standing.
  public static let cadenceRanges: [String: ClosedRange<Double>?] = [
    "walking": 90...130, "jogging": 140...200, "sitting": nil, "standing": nil,
  ]

  /// How a phone-app recording is read for `counts`.
  public static var recordingOptions: LoadOptions {
    var options = LoadOptions()
    options.channelPatterns = ["acceleration.*"]
    options.appLabels = AppExportLabels(label: recordingLabel)
    return options
  }

  /// How labelled recordings (MotionSense) are read for `cadences`: `cadenceLabels`, of
  /// `subjects` when given.
  public static func cadenceOptions(subjects: SubjectFilter?) -> LoadOptions {
    var options = LoadOptions()
    options.channelPatterns = ["acceleration.*"]
    if let subjects { options.subjects = subjects }
    options.keepLabels = cadenceLabels
    return options
  }

  /// One recording's step counts over the interval its reference covers.
  public struct CountResult: Sendable, Equatable {
    public var recording: String
    public var rateHz: Double
    public var seconds: Double
    /// The phone's pedometer over the same interval.
    public var reference: Double
    public var learned: Int
    public var typicalThreshold: Int
    /// Thresholds tuned on the other recordings (nil when there is no other).
    public var tunedThreshold: Int?
    public var medianCadence: Double

    /// Relative error; nil without a count or when the phone counted no step.
    public func error(_ count: Int?) -> Double? {
      guard let count, reference >= 1 else { return nil }
      return (Double(count) - reference) / reference
    }
  }

  /// Cadence per prediction over the sessions of one label.
  public struct CadenceResult: Sendable, Equatable {
    public var label: String
    public var sessions: Int
    public var minutes: Double
    public var predictions: Int
    /// Share of predictions whose cadence lies in `range` (nil when no range is set).
    public var fractionInRange: Double?
    public var range: ClosedRange<Double>?
    public var stepsPerMinute: Double
    public var cadencePercentiles: [Double]  // 5th, 50th, 95th
  }

  /// What the engine counted on one recording: steps, and the cadence at each prediction.
  public struct EngineSteps: Sendable, Equatable {
    public var stepTimes: [Double]
    public var cadences: [Double]
  }

  /// Streams one recording through `model` with steps counted. `channels` are the
  /// recording's columns (they must hold the model's inputs).
  public static func engineSteps(
    model: TrainedModel, recording: Recording, channels: [String]
  ) throws -> EngineSteps {
    var configuration = StreamConfiguration()
    configuration.inputRateHz = recording.sampleRateHz
    configuration.countsSteps = true
    let engine = try StreamingClassifier(
      model: model, inputChannels: channels, configuration: configuration)
    var result = EngineSteps(stepTimes: [], cadences: [])
    engine.feed(timestamps: recording.timestamps, columns: recording.columns) { event in
      switch event {
      case .step(let time, _): result.stepTimes.append(time)
      case .prediction: result.cadences.append(engine.cadence)
      default: break
      }
    }
    return result
  }

  /// |a| per sample of a recording whose first three columns are acceleration x, y, z.
  static func magnitudes(_ recording: Recording) -> [Float] {
    (0..<recording.sampleCount).map { t in
      let (x, y, z) = (recording.columns[0][t], recording.columns[1][t], recording.columns[2][t])
      return (x * x + y * y + z * z).squareRoot()
    }
  }

  /// Step counts of every recording that has a pedometer and a rate of at least
  /// `minimumRateHz`; the threshold pedometer is tuned on the others. Every recording's
  /// columns are `channels`, `acceleration.x/y/z` first.
  public static func counts(
    model: TrainedModel, recordings: [Recording], channels: [String] = channels,
    minimumRateHz: Double = minimumRateHz
  ) throws -> [CountResult] {
    let measured = recordings.filter { $0.pedometer != nil && $0.sampleRateHz >= minimumRateHz }
    let references = measured.map { r in
      r.pedometer!.steps(from: r.timestamps[0], to: r.timestamps[r.sampleCount - 1]) ?? 0
    }
    let inputs = measured.map { r in
      (times: r.timestamps, magnitudes: magnitudes(r), sampleRateHz: r.sampleRateHz)
    }
    return try measured.indices.map { i in
      let r = measured[i]
      let engine = try engineSteps(model: model, recording: r, channels: channels)
      // Tuned on the other recordings where the phone counted steps.
      let others = measured.indices.filter { $0 != i && references[$0] >= 1 }.map { j in
        (times: inputs[j].times, magnitudes: inputs[j].magnitudes,
         sampleRateHz: inputs[j].sampleRateHz, steps: references[j])
      }
      let tuned = others.isEmpty ? nil : ThresholdStepCounter.tune(recordings: others)
      func threshold(_ settings: ThresholdStepCounter.Settings) -> Int {
        ThresholdStepCounter.count(
          times: inputs[i].times, magnitudes: inputs[i].magnitudes,
          sampleRateHz: r.sampleRateHz, settings: settings)
      }
      let stepping = engine.cadences.filter { $0 > 0 }.sorted()
      return CountResult(
        recording: r.source, rateHz: r.sampleRateHz, seconds: r.durationSeconds,
        reference: references[i], learned: engine.stepTimes.count,
        typicalThreshold: threshold(.typical), tunedThreshold: tuned.map(threshold),
        medianCadence: stepping.isEmpty ? 0 : stepping[stepping.count / 2])
    }
  }

  /// Cadence per prediction over the recordings of each label in `ranges` (a nil range: the
  /// label is only counted, as for sitting and standing).
  public static func cadences(
    model: TrainedModel, dataset: Dataset, ranges: [String: ClosedRange<Double>?] = cadenceRanges
  ) throws -> [CadenceResult] {
    try ranges.keys.sorted().compactMap { label -> CadenceResult? in
      guard let index = dataset.labels.firstIndex(of: label) else { return nil }
      let recordings = dataset.recordings.filter { $0.labelIndices.first == Int32(index) }
      guard !recordings.isEmpty else { return nil }
      var cadences: [Double] = []
      var steps = 0
      var seconds = 0.0
      for r in recordings {
        let run = try engineSteps(model: model, recording: r, channels: dataset.channels)
        cadences += run.cadences
        steps += run.stepTimes.count
        seconds += r.durationSeconds
      }
      let range = ranges[label] ?? nil
      let sorted = cadences.sorted()
      func percentile(_ p: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))]
      }
      return CadenceResult(
        label: label, sessions: recordings.count, minutes: seconds / 60,
        predictions: cadences.count,
        fractionInRange: range.map { r in
          Double(cadences.filter { r.contains($0) }.count) / Double(max(1, cadences.count))
        },
        range: range, stepsPerMinute: seconds > 0 ? Double(steps) / (seconds / 60) : 0,
        cadencePercentiles: [percentile(0.05), percentile(0.5), percentile(0.95)])
    }
  }
}
