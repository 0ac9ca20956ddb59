// The step stage of a stream: steps, cadence and distance on the model's magnitude channel,
// in every activity, as a phone's pedometer counts (`StepCounter` does the detecting). It
// reads every sample at the model's rate, adds its totals to each prediction and shares its
// steps out among the segments.

import MotusFeatures

/// Counts a stream's steps and the distance they cover. Not thread-safe: one per stream.
final class StepStage {
  /// The model channel counted on (a magnitude: steps are not counted on anything else).
  let channel: Int
  /// Estimated metres walked or run (`StreamConfiguration.stride`); 0 when it is not set.
  private(set) var distanceMeters = 0.0
  /// Whole steps since the stream started.
  var wholeSteps: Int { Int(counter.total.rounded(.down)) }
  /// Steps per minute of the latest analysed stretch; 0 when not stepping.
  var cadence: Double { counter.cadence }

  private var counter: StepCounter
  private let stride: StrideModel
  private var wholeStepsAtSegmentStart = 0

  /// nil unless `configuration.countsSteps` and the model has a magnitude channel.
  init?(spec: FeatureSpec, configuration: StreamConfiguration) {
    guard configuration.countsSteps,
      let channel = MagnitudeChannel.index(among: spec.recipes.map(\.name))
    else { return nil }
    self.channel = channel
    counter = StepCounter(sampleRateHz: spec.sampleRateHz, settings: configuration.stepSettings)
    stride = configuration.stride
  }

  /// One sample at the model's rate; one `.step` event per whole step it completed.
  func take(time: Double, values: UnsafeBufferPointer<Float>, events: (StreamEvent) -> Void) {
    let completed = counter.push(time: time, magnitude: values[channel])
    guard completed > 0 else { return }
    let total = counter.wholeSteps
    let length = stride.stepLength(cadence: counter.cadence) ?? 0
    distanceMeters += Double(completed) * length
    for k in (total - completed + 1)...total {
      events(.step(time: counter.time(ofStep: k), total: k))
    }
  }

  /// The running totals a prediction carries.
  func annotate(_ prediction: inout StreamPrediction) {
    prediction.steps = wholeSteps
    prediction.cadence = cadence
    if stride.isSet { prediction.distanceMeters = distanceMeters }
  }

  /// A closed segment gets the steps taken since the previous one closed.
  func annotate(_ segment: inout ActivitySegment) {
    segment.steps = wholeSteps - wholeStepsAtSegmentStart
    wholeStepsAtSegmentStart = wholeSteps
  }

  /// After a gap: the signal is forgotten; totals and distance carry on.
  func restart() { counter.restart() }
}
