// The classifier stage of a stream: raw samples in, one answer per hop out.
//
// Per sample: skip NaN -> detect gaps -> channel recipes (the model's ChannelPlan) ->
// resample to the model's rate when the input rate differs -> ring buffer of one window.
// Every hop: copy the window out of the ring -> FeatureExtractor (the model's FeatureSpec)
// -> Predictor (standardise, network, calibrated softmax) -> smoothing (trips included) ->
// label, confidence or unknown -> the push-up gate (`RepetitionGate`), when on.
//
// Windows start on the same samples as batch windowing (0, hop, 2·hop, ... after each
// (re)start), and every step is the same code training used, so streaming a recording gives
// the per-window probabilities `motus evaluate` gives. The stages after it (steps,
// repetitions, segments: `StreamingClassifier`) see every sample at the model's rate and every
// answer through `Output`. All buffers are allocated in init: no heap allocation per sample.

import MotusData
import MotusFeatures
import MotusModels

/// Classifies the windows of one sensor stream. Not thread-safe: one per stream.
final class WindowClassifier {
  /// What the stage hands to the stages after it, in stream order.
  enum Output {
    /// One sample at the model's rate, in the model's channel order (its recipes).
    case sample(time: Double, values: UnsafeBufferPointer<Float>)
    /// A hop's answer. Step fields are left nil: they are the step stage's.
    case prediction(StreamPrediction)
    /// The input paused longer than the gap rule allows. What the stage held was flushed
    /// first; the next window begins with the next sample.
    case gap(from: Double, to: Double)
  }

  let spec: FeatureSpec
  /// Rate of the incoming samples.
  let inputRateHz: Double
  /// Whether input is resampled to the model's rate.
  let isResampling: Bool
  private(set) var statistics = StreamStatistics()
  /// Smoothed probabilities of the latest prediction, in `model.classes` order; each
  /// prediction carries this array (shared until the next prediction writes it).
  private(set) var probabilities: [Float]
  private(set) var extractor: FeatureExtractor
  /// Whether the push-up gate turned the latest answer away from its class.
  private(set) var wasGated = false

  private let plan: ChannelPlan
  private let gapRule: GapRule
  // The model with the configuration's unknown threshold: decides unknown answers.
  private let unknownRule: TrainedModel
  private var derived: [Float]
  private var resampler: StreamingResampler?
  private var ring: RingBuffer
  private var window: [[Float]]
  private var features: [Float]
  private var predictor: Predictor
  private var smoother: PredictionSmoother
  private let gate: RepetitionGate?
  private var samplesUntilPrediction: Int
  private var lastInputTime: Double?
  // Grid time of each sample in the ring, to stamp predictions; same layout as the ring.
  private var sampleTimes: [Double]
  private var sampleTimeSlot = 0

  /// `extractor`: a planned extractor of `model.featureSpec` to reuse, nil plans one.
  ///
  /// - Throws: `ChannelPlan.BindError` when a channel the model needs is missing;
  ///   `LimitError` for an input rate out of bounds or buffers that would not fit in memory.
  init(
    model: TrainedModel, inputChannels: [String], configuration: StreamConfiguration,
    extractor planned: FeatureExtractor?
  ) throws {
    spec = model.featureSpec
    var rule = model
    if let threshold = configuration.unknownThreshold { rule.unknownThreshold = threshold }
    unknownRule = rule
    gapRule = configuration.gapRule
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
      extractor.restartContext()  // a finished stream's recent windows are not this one's
    } else {
      extractor = try FeatureExtractor(spec: spec)
    }
    features = [Float](repeating: 0, count: extractor.featureCount)
    predictor = model.makePredictor()
    probabilities = [Float](repeating: 0, count: model.classes.count)
    smoother = PredictionSmoother(
      smoothing: configuration.smoothing, classes: model.classes, spec: spec,
      trips: configuration.trips, evidence: configuration.evidence)
    gate = RepetitionGate(spec: spec, classes: model.classes, configuration: configuration)
    samplesUntilPrediction = spec.windowLength
    sampleTimes = [Double](repeating: 0, count: spec.windowLength)
  }

  /// Takes one raw sample (`inputChannels` order).
  /// - Complexity: O(channels) per sample, plus one feature extraction and one network
  ///   evaluation per hop. No heap allocation once warm.
  func append(timestamp: Double, values: UnsafeBufferPointer<Float>, output: (Output) -> Void) {
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
      if gapRule.isGap(step: timestamp - last, typicalStep: 1 / inputRateHz) {
        statistics.gaps += 1
        restart(output: output)
        output(.gap(from: last, to: timestamp))
      }
    }
    lastInputTime = timestamp
    derived.withUnsafeMutableBufferPointer { plan.apply(raw: values, into: $0) }
    if resampler != nil {
      resampler!.push(timestamp: timestamp, values: derived) { time, resampled in
        self.consume(time: time, values: resampled, output: output)
      }
    } else {
      derived.withUnsafeBufferPointer { consume(time: timestamp, values: $0, output: output) }
    }
  }

  /// Flushes the resampler (end of stream, or before a restart).
  func finish(output: (Output) -> Void) {
    guard resampler != nil else { return }
    resampler!.finish { time, resampled in
      self.consume(time: time, values: resampled, output: output)
    }
  }

  /// Starts over after a gap: the next window begins with the next sample.
  private func restart(output: (Output) -> Void) {
    finish(output: output)
    ring.removeAll()
    extractor.restartContext()
    smoother.reset()
    gate?.restart()
    samplesUntilPrediction = spec.windowLength
  }

  /// One sample at the model's rate.
  private func consume(time: Double, values: UnsafeBufferPointer<Float>, output: (Output) -> Void) {
    ring.append(values)
    gate?.take(values)
    sampleTimes[sampleTimeSlot] = time
    sampleTimeSlot = sampleTimeSlot + 1 == sampleTimes.count ? 0 : sampleTimeSlot + 1
    output(.sample(time: time, values: values))
    samplesUntilPrediction -= 1
    guard samplesUntilPrediction == 0 else { return }
    samplesUntilPrediction = spec.hopLength
    if let prediction = predict(endTime: time) { output(.prediction(prediction)) }
  }

  /// The window's answer; nil when it came out non-finite (counted, never passed on).
  private func predict(endTime: Double) -> StreamPrediction? {
    ring.copyWindow(into: &window)
    features.withUnsafeMutableBufferPointer {
      extractor.extract(columns: window, start: 0, into: $0)
    }
    _ = features.withUnsafeBufferPointer { predictor.predict(features: $0) }
    let k = probabilities.count
    // Never let NaN reach the smoother, a segment or an output line: skip and count.
    for c in 0..<k where !predictor.probabilities[c].isFinite {
      statistics.predictionsSkippedNonFinite += 1
      return nil
    }
    for c in 0..<k { probabilities[c] = predictor.probabilities[c] }
    probabilities.withUnsafeMutableBufferPointer { smoother.smooth($0) }
    let novelty = predictor.noveltyScore
    var answer = decide(novelty: novelty)
    wasGated = false
    if let gate, answer.unknownReason == nil, answer.classIndex == gate.classIndex, !gate.allows() {
      wasGated = true
      switch gate.settings.fallback {
      case .unknown:
        answer.unknownReason = .noRepetitions
      case .otherClass:
        // The best other class: the probabilities renormalised without the gated one.
        let rest = 1 - probabilities[gate.classIndex]
        probabilities[gate.classIndex] = 0
        if rest > 0 { for c in 0..<k { probabilities[c] /= rest } }
        answer = decide(novelty: novelty)
      }
    }
    statistics.predictions += 1
    return StreamPrediction(
      windowStart: sampleTimes[sampleTimeSlot], windowEnd: endTime, classIndex: answer.classIndex,
      probability: answer.probability, confidence: answer.confidence,
      unknownReason: answer.unknownReason, noveltyScore: novelty, probabilities: probabilities)
  }

  /// The model's answer (label, confidence or unknown) for the current probabilities.
  private func decide(novelty: Float?) -> Prediction {
    probabilities.withUnsafeBufferPointer { p in
      predictor.isNegativeClass.withUnsafeBufferPointer {
        unknownRule.answer(probabilities: p, isNegativeClass: $0, noveltyScore: novelty)
      }
    }
  }
}
