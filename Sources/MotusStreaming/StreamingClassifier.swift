// The streaming engine an app embeds: raw samples in, events out, through a sequence of
// stages.
//
//     raw sample -> WindowClassifier -> sample at the model's rate -> StepStage
//                                                                 -> RepetitionStage
//                                    -> prediction (every hop)    -> StepStage adds totals
//                                                                 -> ActivitySegmenter
//                                                                 -> RepetitionStage sets
//                                    -> gap                       -> every stage restarts
//
// The classifier stage classifies (its smoother may know trips, and its push-up gate may turn
// a push-up answer without repetitions away: `TripRule`, `RepetitionGate`; the repetition
// stage hears which answers the gate turned away); each stage after it keeps its own state
// and only reads what the classifier hands on, so a stage is added or left out without
// touching the others.
// Events come out in the order above: a sample's steps, then its repetitions, then the
// prediction it completed, the segment that closed, and the repetitions a newly confirmed
// set already held; a closed segment carries the steps and repetitions reported during it.
// Every stage allocates in init: no heap allocation per sample once warm.

import MotusFeatures
import MotusModels

/// Streaming activity classification for one sensor stream, with steps, push-up repetitions
/// and activity segments.
///
///     let engine = try StreamingClassifier(model: model, inputChannels: header)
///     engine.append(timestamp: t, values: row) { event in print(event) }
///     engine.finish { event in print(event) }
///
/// Not thread-safe: one engine per stream.
public final class StreamingClassifier {
  public let model: TrainedModel
  public let configuration: StreamConfiguration
  /// Rate of the incoming samples.
  public var inputRateHz: Double { classifier.inputRateHz }
  /// Whether input is resampled to the model's rate.
  public var isResampling: Bool { classifier.isResampling }
  public var statistics: StreamStatistics { classifier.statistics }
  /// Smoothed probabilities of the latest prediction, in `model.classes` order (each
  /// `.prediction` carries its own).
  public var probabilities: [Float] { classifier.probabilities }
  /// Repetitions counted since the stream started or its last gap.
  public var repetitionCount: Int { repetitions?.count ?? 0 }
  /// Whole steps since the stream started (0 unless `countsSteps`).
  public var stepTotal: Int { steps?.wholeSteps ?? 0 }
  /// Steps per minute of the latest analysed stretch; 0 when not stepping or not counting.
  public var cadence: Double { steps?.cadence ?? 0 }
  /// Whether steps are counted: `countsSteps` and a magnitude channel to count them on.
  public var isCountingSteps: Bool { steps != nil }
  /// Estimated metres walked or run (`configuration.stride`); 0 when it is not set.
  public var distanceMeters: Double { steps?.distanceMeters ?? 0 }

  /// The classifier stage's planned extractor, for the next engine of a `StreamSession`.
  var extractor: FeatureExtractor { classifier.extractor }

  private let classifier: WindowClassifier
  private let steps: StepStage?
  private let repetitions: RepetitionStage?
  private var segmenter = ActivitySegmenter()
  // Cached: `model.classes` goes through an existential and would allocate per call.
  private let classes: [String]

  /// Binds `model` to a stream whose samples carry `inputChannels`, in that order.
  ///
  /// - Throws: `ChannelPlan.BindError` when a channel the model needs is missing: at
  ///   start, not mid-stream; `LimitError` for an input rate out of bounds or a model whose
  ///   buffers would not fit in memory.
  public convenience init(
    model: TrainedModel, inputChannels: [String], configuration: StreamConfiguration = .init()
  ) throws {
    try self.init(
      model: model, inputChannels: inputChannels, configuration: configuration, extractor: nil)
  }

  /// `extractor`: a planned extractor of `model.featureSpec` to reuse (a finished engine's,
  /// `StreamSession` hands it to the next session's), so that a new engine does not validate
  /// and plan the spec again; nil plans one.
  init(
    model: TrainedModel, inputChannels: [String], configuration: StreamConfiguration,
    extractor planned: FeatureExtractor?
  ) throws {
    self.model = model
    self.configuration = configuration
    classifier = try WindowClassifier(
      model: model, inputChannels: inputChannels, configuration: configuration,
      extractor: planned)
    classes = model.classes
    steps = StepStage(spec: classifier.spec, configuration: configuration)
    repetitions = RepetitionStage(
      spec: classifier.spec, classes: classes, configuration: configuration)
  }

  /// Feeds one raw sample (`inputChannels` order).
  /// - Complexity: O(channels) per sample, plus one feature extraction and one network
  ///   evaluation per hop. No heap allocation once warm.
  public func append(
    timestamp: Double, values: UnsafeBufferPointer<Float>, events: (StreamEvent) -> Void
  ) {
    classifier.append(timestamp: timestamp, values: values) { pass($0, events: events) }
  }

  /// Flushes the classifier and closes the open segment (end of stream).
  public func finish(events: (StreamEvent) -> Void) {
    classifier.finish { pass($0, events: events) }
    closeSegment(events: events)
  }

  /// Hands what the classifier stage gave to the stages after it.
  private func pass(_ output: WindowClassifier.Output, events: (StreamEvent) -> Void) {
    switch output {
    case .sample(let time, let values):
      steps?.take(time: time, values: values, events: events)
      repetitions?.take(time: time, values: values, events: events)
    case .prediction(var prediction):
      steps?.annotate(&prediction)
      events(.prediction(prediction))
      let label = prediction.isUnknown ? "unknown" : classes[prediction.classIndex]
      if let closed = segmenter.add(
        label: label, start: prediction.windowStart, end: prediction.windowEnd,
        confidence: prediction.probability)
      {
        report(closed, events: events)
      }
      repetitions?.take(prediction, gated: classifier.wasGated, events: events)
    case .gap(let from, let to):
      closeSegment(events: events)
      steps?.restart()
      repetitions?.restart()
      events(.gap(from: from, to: to))
    }
  }

  private func closeSegment(events: (StreamEvent) -> Void) {
    if let segment = segmenter.finish() { report(segment, events: events) }
  }

  /// A closed segment, with the steps and repetitions counted during it, when they are counted.
  private func report(_ segment: ActivitySegment, events: (StreamEvent) -> Void) {
    var segment = segment
    steps?.annotate(&segment)
    repetitions?.annotate(&segment)
    events(.segment(segment))
  }
}
