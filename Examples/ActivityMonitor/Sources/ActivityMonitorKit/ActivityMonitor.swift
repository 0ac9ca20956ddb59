import Foundation
import MotusData
import MotusModels
import MotusStreaming

/// What an app shows: the activity when it changes, and push-ups as they are counted.
public enum ActivityUpdate: Sendable, Equatable {
  /// The stream's answer changed. `activity` is nil when it answers unknown.
  case activityChanged(activity: String?, confidence: ConfidenceLevel, at: Double)
  /// One more push-up in the current set, with the set's running count.
  case pushUp(count: Int, at: Double)
  /// A stretch of push-ups ended, with the repetitions the engine counted in it.
  case pushUpsEnded(count: Int, from: Double, to: Double)
}

/// Feeds Core Motion samples to a Motus model and reports what changed.
///
/// Usage, once per `CMDeviceMotion` update (about 50 Hz):
///
///     let monitor = try ActivityMonitor(model: url, sampleRateHz: 50)
///     monitor.receive(motion) { update in print(update) }
///
/// The engine allocates its buffers here, so `receive` allocates nothing per sample.
public final class ActivityMonitor {
  public let classes: [String]
  private let engine: StreamingClassifier
  // Core Motion's fields -> the model's raw inputs (`acceleration = gravity + userAcceleration`
  // for a model that reads raw acceleration), the same rule training used.
  private let adapter: InputAdapter
  private var fields: [Double]
  private var inputs: [Float]
  private var lastActivity: String??

  /// - Parameters:
  ///   - model: a `.motus` file (`motus train` writes them; `models/` ships two).
  ///   - sampleRateHz: the rate the app asked Core Motion for (`deviceMotionUpdateInterval`).
  ///     The engine resamples to the model's own rate when they differ.
  public convenience init(model url: URL, sampleRateHz: Double) throws {
    try self.init(model: ModelFile.read(from: url), sampleRateHz: sampleRateHz)
  }

  /// The same for a model in memory (one `Personalisation` adapted).
  public init(model: TrainedModel, sampleRateHz: Double) throws {
    var configuration = StreamConfiguration()
    configuration.inputRateHz = sampleRateHz
    // Forward filtering: an activity must win a few windows in a row before it shows.
    configuration.smoothing = .hiddenMarkov(
      switchProbability: StreamConfiguration.defaultSwitchProbability)
    let recipes = model.featureSpec.recipes
    adapter = try InputAdapter(
      modelInputs: ChannelSelector.rawInputs(of: recipes), header: DeviceMotion.channelNames,
      file: "Core Motion", negateAcceleration: false,
      modelNegatesAcceleration: InputAdapter.modelNegatesAcceleration(recipes))
    engine = try StreamingClassifier(
      model: model, inputChannels: adapter.inputs, configuration: configuration)
    classes = model.classes
    fields = [Double](repeating: 0, count: DeviceMotion.channelNames.count)
    inputs = [Float](repeating: 0, count: adapter.inputs.count)
  }

  /// Feeds one sample; `report` is called for each update it causes (often none).
  public func receive(_ motion: DeviceMotion, report: (ActivityUpdate) -> Void) {
    fields.withUnsafeMutableBufferPointer { motion.write(into: $0) }
    fields.withUnsafeBufferPointer { fields in
      inputs.withUnsafeMutableBufferPointer { adapter.apply({ fields[$0] }, into: $0) }
    }
    inputs.withUnsafeBufferPointer { buffer in
      engine.append(timestamp: motion.timestamp, values: buffer) { handle($0, report: report) }
    }
  }

  /// Call when updates stop (the app stops Core Motion): flushes the last samples.
  public func finish(report: (ActivityUpdate) -> Void) {
    engine.finish { handle($0, report: report) }
  }

  private func handle(_ event: StreamEvent, report: (ActivityUpdate) -> Void) {
    switch event {
    case .prediction(let prediction):
      let activity = prediction.isUnknown ? nil : classes[prediction.classIndex]
      if lastActivity != .some(activity) {
        lastActivity = .some(activity)
        report(
          .activityChanged(
            activity: activity, confidence: prediction.confidence, at: prediction.windowEnd))
      }
    case .repetition(let time, let count):
      report(.pushUp(count: count, at: time))
    case .segment(let segment):
      // The segment carries its own repetitions: no count to keep here.
      if let count = segment.repetitions, count > 0 {
        report(.pushUpsEnded(count: count, from: segment.start, to: segment.end))
      }
    case .gap, .step:
      break
    }
  }
}
