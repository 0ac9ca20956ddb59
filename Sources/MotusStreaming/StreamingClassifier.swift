// The streaming inference engine: raw samples in, one prediction per hop out.
//
// Per sample: skip NaN -> detect gaps -> channel recipes (the model's ChannelPlan) ->
// resample to the model's rate when the input rate differs -> ring buffer of one window.
// Every hop: copy the window out of the ring -> FeatureExtractor (the model's FeatureSpec)
// -> Predictor (standardise, network, calibrated softmax) -> smoothing -> label,
// confidence or unknown -> segments and push-up repetitions.
//
// Windows start on the same samples as batch windowing (0, hop, 2·hop, ... after each
// (re)start), and every stage is the same code training used, so streaming a recording gives
// the per-window probabilities `motus evaluate` gives. All buffers are allocated in init:
// no heap allocation per sample once warm.

import MotusData
import MotusFeatures
import MotusModels

/// Streaming activity classification for one sensor stream.
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
  public let inputRateHz: Double
  /// Whether input is resampled to the model's rate.
  public let isResampling: Bool
  public private(set) var statistics = StreamStatistics()
  /// Smoothed probabilities of the latest prediction, in `model.classes` order.
  public private(set) var probabilities: [Float]
  /// Repetitions counted in the current stretch of the repetition class.
  public var repetitionCount: Int { repetitions?.count ?? 0 }
  /// Whole steps since the stream started (0 unless `countsSteps`).
  public var stepTotal: Int { Int((steps?.total ?? 0).rounded(.down)) }
  /// Steps per minute of the latest analysed stretch; 0 when not stepping or not counting.
  public var cadence: Double { steps?.cadence ?? 0 }
  /// Whether steps are counted: `countsSteps` and a magnitude channel to count them on.
  public var isCountingSteps: Bool { steps != nil }
  /// Estimated metres walked or run (`configuration.stride`); 0 when it is not set.
  public private(set) var distanceMeters = 0.0

  private let plan: ChannelPlan
  // The model with the configuration's unknown threshold: decides unknown answers.
  private let unknownRule: TrainedModel
  // Cached: `model.classes` goes through an existential and would allocate per call.
  private let classes: [String]
  private let spec: FeatureSpec
  private var derived: [Float]
  private var resampler: StreamingResampler?
  private var ring: RingBuffer
  private var window: [[Float]]
  private(set) var extractor: FeatureExtractor
  private var features: [Float]
  private var predictor: Predictor
  private var smoother: PredictionSmoother
  private var segmenter = ActivitySegmenter()
  private var repetitions: RepetitionCounter?
  private let repetitionClassIndex: Int?
  private let repetitionChannel: Int?
  private var inRepetitionClass = false
  private var repetitionClassRun = 0  // consecutive predictions of the repetition class
  private var steps: StepCounter?
  private var stepTotalAtSegmentStart = 0
  private var samplesUntilPrediction: Int
  private var lastInputTime: Double?
  // Grid time of each sample in the ring, to stamp predictions; same layout as the ring.
  private var sampleTimes: [Double]
  private var sampleTimeSlot = 0

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
    spec = model.featureSpec
    classes = model.classes
    var rule = model
    if let threshold = configuration.unknownThreshold { rule.unknownThreshold = threshold }
    unknownRule = rule
    plan = try ChannelPlan(recipes: spec.recipes, rawChannels: inputChannels)
    let rate = configuration.inputRateHz ?? spec.sampleRateHz
    try Limits.checkResampling(fromHz: rate, toHz: spec.sampleRateHz, what: "the stream's input")
    inputRateHz = rate
    let channelCount = spec.recipes.count
    // Ring, window copy and sample times, plus the extractor's scratch (a few windows).
    try Limits.checkMemory(
      Double(spec.windowLength) * Double(channelCount + 2) * 4 * 4, for: "the stream's buffers",
      hint: "use a model with shorter windows or fewer channels.")
    isResampling =
      configuration.alwaysResample || abs(rate - spec.sampleRateHz) > 0.01 * spec.sampleRateHz
    resampler =
      isResampling
      ? StreamingResampler(
        inputRateHz: rate, outputRateHz: spec.sampleRateHz, channelCount: channelCount)
      : nil
    derived = [Float](repeating: 0, count: channelCount)
    ring = RingBuffer(channelCount: channelCount, capacity: spec.windowLength)
    window = [[Float]](
      repeating: [Float](repeating: 0, count: spec.windowLength), count: channelCount)
    if let planned, planned.spec == spec {
      extractor = planned
      extractor.restartContext()  // a finished engine's recent windows are not this stream's
    } else {
      extractor = try FeatureExtractor(spec: spec)
    }
    features = [Float](repeating: 0, count: extractor.featureCount)
    predictor = model.makePredictor()
    probabilities = [Float](repeating: 0, count: model.classes.count)
    smoother = PredictionSmoother(
      smoothing: configuration.smoothing, classCount: model.classes.count,
      evidenceWeight: spec.evidenceWeight)
    samplesUntilPrediction = spec.windowLength
    sampleTimes = [Double](repeating: 0, count: spec.windowLength)

    repetitionClassIndex = configuration.repetitionClass.flatMap { model.classes.firstIndex(of: $0) }
    // Count on an orientation-free signal: a magnitude channel if the model has one.
    let names = spec.recipes.map(\.name)
    repetitionChannel =
      names.firstIndex(of: "|acceleration|") ?? names.firstIndex(of: "|userAcceleration|")
      ?? names.firstIndex { $0.hasPrefix("|") } ?? (names.isEmpty ? nil : 0)
    if repetitionClassIndex != nil, repetitionChannel != nil {
      repetitions = RepetitionCounter(sampleRateHz: spec.sampleRateHz)
    }
    if configuration.countsSteps, let channel = repetitionChannel, names[channel].hasPrefix("|") {
      steps = StepCounter(sampleRateHz: spec.sampleRateHz, settings: configuration.stepSettings)
    }
  }

  /// Feeds one raw sample (`inputChannels` order).
  /// - Complexity: O(channels) per sample, plus one feature extraction and one network
  ///   evaluation per hop. No heap allocation once warm.
  public func append(
    timestamp: Double, values: UnsafeBufferPointer<Float>, events: (StreamEvent) -> Void
  ) {
    statistics.samplesReceived += 1
    // A NaN time would poison every later comparison: skip it like a NaN value.
    guard timestamp.isFinite else {
      statistics.samplesSkippedNaN += 1
      return
    }
    for i in 0..<plan.rawChannels.count where !values[i].isFinite {
      statistics.samplesSkippedNaN += 1
      return
    }
    if let last = lastInputTime {
      guard timestamp > last else {
        statistics.samplesSkippedOutOfOrder += 1
        return
      }
      if configuration.gapRule.isGap(step: timestamp - last, typicalStep: 1 / inputRateHz) {
        statistics.gaps += 1
        restart(events: events)
        events(.gap(from: last, to: timestamp))
      }
    }
    lastInputTime = timestamp
    derived.withUnsafeMutableBufferPointer { plan.apply(raw: values, into: $0) }
    if resampler != nil {
      resampler!.push(timestamp: timestamp, values: derived) { time, resampled in
        self.consume(time: time, values: resampled, events: events)
      }
    } else {
      derived.withUnsafeBufferPointer { consume(time: timestamp, values: $0, events: events) }
    }
  }

  /// Flushes the resampler and closes the open segment (end of stream).
  public func finish(events: (StreamEvent) -> Void) {
    if resampler != nil {
      resampler!.finish { time, resampled in
        self.consume(time: time, values: resampled, events: events)
      }
    }
    if let segment = segmenter.finish() { report(segment, events: events) }
  }

  /// A closed segment, with the steps taken during it when steps are counted.
  private func report(_ segment: ActivitySegment, events: (StreamEvent) -> Void) {
    var segment = segment
    if steps != nil {
      segment.steps = stepTotal - stepTotalAtSegmentStart
      stepTotalAtSegmentStart = stepTotal
    }
    events(.segment(segment))
  }

  /// Starts over after a gap: the next window begins with the next sample.
  private func restart(events: (StreamEvent) -> Void) {
    if resampler != nil {
      resampler!.finish { time, resampled in
        self.consume(time: time, values: resampled, events: events)
      }
    }
    if let segment = segmenter.finish() { report(segment, events: events) }
    steps?.restart()
    ring.removeAll()
    extractor.restartContext()
    smoother.reset()
    repetitions?.reset()
    inRepetitionClass = false
    repetitionClassRun = 0
    samplesUntilPrediction = spec.windowLength
  }

  /// One sample at the model's rate.
  private func consume(time: Double, values: UnsafeBufferPointer<Float>, events: (StreamEvent) -> Void) {
    ring.append(values)
    sampleTimes[sampleTimeSlot] = time
    sampleTimeSlot = sampleTimeSlot + 1 == sampleTimes.count ? 0 : sampleTimeSlot + 1
    if let channel = repetitionChannel, steps != nil {
      let completed = steps!.push(time: time, magnitude: values[channel])
      if completed > 0, let counter = steps {
        let total = counter.wholeSteps
        let length = configuration.stride.stepLength(cadence: counter.cadence) ?? 0
        distanceMeters += Double(completed) * length
        for k in (total - completed + 1)...total {
          events(.step(time: counter.time(ofStep: k), total: k))
        }
      }
    }
    if let channel = repetitionChannel, repetitions != nil {
      let completed = repetitions!.append(values[channel], counting: inRepetitionClass)
      reportRepetitions(completed, time: time, events: events)
    }
    samplesUntilPrediction -= 1
    guard samplesUntilPrediction == 0 else { return }
    samplesUntilPrediction = spec.hopLength
    predict(endTime: time, events: events)
  }

  /// One event per repetition, so that counting events counts repetitions (the look-back
  /// of a newly confirmed set can hold several).
  private func reportRepetitions(
    _ completed: Int, time: Double, events: (StreamEvent) -> Void
  ) {
    guard completed > 0, let total = repetitions?.count else { return }
    for k in (total - completed + 1)...total { events(.repetition(time: time, count: k)) }
  }

  private func predict(endTime: Double, events: (StreamEvent) -> Void) {
    ring.copyWindow(into: &window)
    features.withUnsafeMutableBufferPointer { extractor.extract(columns: window, start: 0, into: $0) }
    _ = features.withUnsafeBufferPointer { predictor.predict(features: $0) }
    let k = probabilities.count
    // Never let NaN reach the smoother, a segment or an output line: skip and count.
    for c in 0..<k where !predictor.probabilities[c].isFinite {
      statistics.predictionsSkippedNonFinite += 1
      return
    }
    for c in 0..<k { probabilities[c] = predictor.probabilities[c] }
    probabilities.withUnsafeMutableBufferPointer { smoother.smooth($0) }
    let novelty = predictor.noveltyScore
    let answer = probabilities.withUnsafeBufferPointer { p in
      predictor.isNegativeClass.withUnsafeBufferPointer {
        unknownRule.answer(probabilities: p, isNegativeClass: $0, noveltyScore: novelty)
      }
    }
    let best = answer.classIndex
    let p = answer.probability
    var prediction = StreamPrediction(
      windowStart: sampleTimes[sampleTimeSlot], windowEnd: endTime, classIndex: best,
      probability: p, confidence: answer.confidence, unknownReason: answer.unknownReason,
      noveltyScore: novelty)
    if steps != nil {
      prediction.steps = stepTotal
      prediction.cadence = cadence
      if configuration.stride.isSet { prediction.distanceMeters = distanceMeters }
    }
    statistics.predictions += 1
    events(.prediction(prediction))

    let label = prediction.isUnknown ? "unknown" : classes[best]
    if let closed = segmenter.add(
      label: label, start: prediction.windowStart, end: endTime, confidence: p)
    {
      report(closed, events: events)
    }
    let isRepetitionClass = !prediction.isUnknown && best == repetitionClassIndex
    repetitionClassRun = isRepetitionClass ? repetitionClassRun + 1 : 0
    let confirm = max(1, configuration.predictionsToConfirmSet)
    if isRepetitionClass, !inRepetitionClass, repetitionClassRun >= confirm {
      inRepetitionClass = true
      // The set began with the first of these windows: count what they already hold.
      let lookback = spec.windowLength + (confirm - 1) * spec.hopLength
      let completed = repetitions?.beginCounting(lookbackSamples: lookback) ?? 0
      reportRepetitions(completed, time: endTime, events: events)
    } else if !isRepetitionClass, inRepetitionClass {
      inRepetitionClass = false
      repetitions?.stopCounting()
    }
  }
}
