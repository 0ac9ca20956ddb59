// The repetition stage of a stream: push-ups (the configured repetition class) counted on the
// model's magnitude channel by `RepetitionCounter`, only inside a confirmed set. It reads every
// sample at the model's rate, and every prediction to confirm or end a set: a set is
// confirmed by `predictionsToConfirmSet` consecutive predictions of the class, and counting
// then starts from the first of their windows, so nothing is lost and one stray window of the
// class counts nothing.

import MotusFeatures

/// Counts repetitions in confirmed sets of one class. Not thread-safe: one per stream.
final class RepetitionStage {
  /// The model channel counted on: the magnitude channel, else the first.
  let channel: Int
  /// Repetitions counted since the stream started or its last gap.
  var count: Int { counter.count }

  private var counter: RepetitionCounter
  private let classIndex: Int
  private let predictionsToConfirm: Int
  // Samples of the confirming windows: the set began with the first of them.
  private let lookbackSamples: Int
  private var isInSet = false
  private var classRun = 0  // consecutive predictions of the class
  // The push-up gate: answers of the class it turned away just before the run began (the set
  // began with the first of them, so the look-back reaches back over them too).
  private let hopLength: Int
  private var gatedRun = 0
  private var gatedBeforeRun = 0
  private var countAtSegmentStart = 0

  /// nil when the model lacks `configuration.repetitionClass` (or it is nil).
  init?(spec: FeatureSpec, classes: [String], configuration: StreamConfiguration) {
    let names = spec.recipes.map(\.name)
    guard let classIndex = configuration.repetitionClass.flatMap({ classes.firstIndex(of: $0) }),
      let channel = MagnitudeChannel.index(among: names) ?? (names.isEmpty ? nil : 0)
    else { return nil }
    self.channel = channel
    self.classIndex = classIndex
    counter = RepetitionCounter(sampleRateHz: spec.sampleRateHz)
    predictionsToConfirm = max(1, configuration.predictionsToConfirmSet)
    lookbackSamples = spec.windowLength + (predictionsToConfirm - 1) * spec.hopLength
    hopLength = spec.hopLength
  }

  /// One sample at the model's rate, counted while a set is confirmed.
  func take(time: Double, values: UnsafeBufferPointer<Float>, events: (StreamEvent) -> Void) {
    let completed = counter.append(values[channel], counting: isInSet)
    report(completed, time: time, events: events)
  }

  /// One answer: confirms a set after enough predictions of the class, ends it at another.
  /// `gated`: the push-up gate turned this answer away from the class.
  func take(_ prediction: StreamPrediction, gated: Bool = false, events: (StreamEvent) -> Void) {
    let isClass = !prediction.isUnknown && prediction.classIndex == classIndex
    if isClass, classRun == 0 { gatedBeforeRun = gatedRun }
    gatedRun = gated ? gatedRun + 1 : 0
    classRun = isClass ? classRun + 1 : 0
    if isClass, !isInSet, classRun >= predictionsToConfirm {
      isInSet = true
      // The set began with the first of these windows (or of the answers the gate turned away
      // just before them): count what they already hold.
      let completed = counter.beginCounting(
        lookbackSamples: lookbackSamples + gatedBeforeRun * hopLength)
      report(completed, time: prediction.windowEnd, events: events)
    } else if !isClass, isInSet {
      isInSet = false
      counter.stopCounting()
    }
  }

  /// A closed segment gets the repetitions reported since the previous one closed.
  func annotate(_ segment: inout ActivitySegment) {
    segment.repetitions = count - countAtSegmentStart
    countAtSegmentStart = count
  }

  /// After a gap: no set is open and the count starts again (the open segment closed first).
  func restart() {
    counter.reset()
    countAtSegmentStart = 0
    isInSet = false
    classRun = 0
    gatedRun = 0
    gatedBeforeRun = 0
  }

  /// One event per repetition, so that counting events counts repetitions (the look-back
  /// of a newly confirmed set can hold several).
  private func report(_ completed: Int, time: Double, events: (StreamEvent) -> Void) {
    guard completed > 0 else { return }
    let total = counter.count
    for k in (total - completed + 1)...total { events(.repetition(time: time, count: k)) }
  }
}
