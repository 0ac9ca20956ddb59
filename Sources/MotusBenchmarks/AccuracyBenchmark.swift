// `motus bench accuracy`: the learned engine against hand-tuned threshold baselines on the
// same held-out subjects. Train part: every other subject. Scores are per sample at the
// dataset's rate (Hz); times in seconds; CPU time is the calling thread's.

import Foundation
import MotusBaselines
import MotusData
import MotusFeatures
import MotusIngest
import MotusModels
import MotusStreaming
import MotusTraining

/// Failures of the accuracy benchmark, with hints.
public enum BenchmarkError: Error, Equatable, CustomStringConvertible {
  case missingChannels(needed: [String], available: [String])
  case noTestSubjects(requested: String, available: [String])
  case noTrainingSubjects
  case noTransferGroups

  public var description: String {
    switch self {
    case .missingChannels(let needed, let available):
      return "the data lacks channels \(needed) (has \(available)). HINT: use a manifest "
        + "with raw acceleration, e.g. datasets/six-class.json."
    case .noTestSubjects(let requested, let available):
      return "none of the test subjects '\(requested)' is in the data (subjects: "
        + "\(available.prefix(12).joined(separator: ", "))). HINT: name subjects as "
        + "source:subject, e.g. qrowd:3."
    case .noTrainingSubjects:
      return "every subject is held out for testing. HINT: leave some subjects for training."
    case .noTransferGroups:
      return "no source or placement to hold out. HINT: check --sources against the manifest's "
        + "source names."
    }
  }
}

/// Runs the comparison.
public enum AccuracyBenchmark {
  public struct Configuration: Sendable {
    /// Held-out subjects (`source:subject` names and `source:17-20` ranges). Default:
    /// MotionSense 17-20 (as in the reference figures), QROWD user 3, and the one named
    /// push-up subject.
    public var testSubjects = SubjectFilter(
      names: ["qrowd:3", "gains_pushup:Eric"],
      prefixedRanges: [.init(prefix: "motionsense", range: 17...20)])
    /// The threshold rules' window (the learned model's comes from `features`).
    public var windowSeconds = 2.56
    /// A label must hold this long after a change to count as detected.
    public var stableSeconds = 3.0
    /// Window and feature choices of the learned model: `motus train`'s defaults.
    public var features = FeatureChoice()
    /// Training options of the learned model: `motus train`'s defaults.
    public var training = TrainingOptions()
    /// What the learned model's validation part (calibration, confidence levels) holds out.
    public var validationGroup = Trainer.ValidationGroup.source
    /// Window labels the debounced threshold variant votes over (5 hops, about 6 s).
    public var voteLength = 5
    /// The trips of the hidden Markov row's smoother (the stream's default unless set).
    public var trips: TripRule? = StreamConfiguration().trips
    /// The class evidence of the hidden Markov row's smoother (the stream's default unless set).
    public var evidence = StreamConfiguration().evidence
    /// The engine is scored once per entry. Default: no smoothing, and the stream's
    /// `--smoothing hmm` with its default switch probability.
    public var learnedSmoothings: [(name: String, smoothing: Smoothing)] = [
      ("no smoothing", .none),
      (
        "switch penalty \(StreamConfiguration.defaultSwitchProbability)",
        .hiddenMarkov(switchProbability: StreamConfiguration.defaultSwitchProbability)
      ),
    ]

    public init() {}
  }

  static let acceleration = ["acceleration.x", "acceleration.y", "acceleration.z"]

  /// - Parameters:
  ///   - data: A loaded manifest (one rate, raw acceleration channels).
  ///   - givenModel: A trained model to use instead of training one on the training
  ///     subjects (argument label `model`).
  ///   - configuration: Test subjects, window, stability time and training options.
  ///   - progress: Called with a short description of each stage.
  /// - Returns: Scores of every method on the held-out subjects.
  /// - Throws: `BenchmarkError`, and training errors.
  public static func run(
    data: WholeLoad, model givenModel: TrainedModel? = nil,
    configuration: Configuration = .init(), progress: ((String) -> Void)? = nil
  ) throws -> AccuracyReport {
    let split = try Split(data: data, configuration: configuration)
    let learned = try learnedModel(
      given: givenModel, data: data, split: split, configuration: configuration,
      progress: progress)
    // The rules learn from the same training subjects as the model, so neither sees the test.
    progress?("tuning threshold cut-offs on the training subjects")
    let tuned = StreamReplay.tuneThresholds(
      recordings: split.training.recordings, axes: split.axes, labels: split.classes,
      windowSeconds: configuration.windowSeconds)
    var methods = try learnedScores(
      model: learned.model, split: split, configuration: configuration, progress: progress)
    methods += thresholdScores(
      tuned: tuned.cutoffs, split: split, configuration: configuration, progress: progress)
    methods += counterScores(split: split, progress: progress)
    let shakes = shakeScore(split: split, progress: progress)
    methods.append(shakes.score)
    return report(
      split: split, configuration: configuration, methods: methods,
      shakesPerMinute: shakes.perMinute, tuned: tuned, learnedSummary: learned.summary)
  }

  /// The data divided into training and held-out subjects, and what every method shares.
  struct Split {
    let dataset: Dataset
    /// Column indices of the raw acceleration axes, which the baselines read.
    let axes: [Int]
    let rate: Double
    let classes: [String]
    let negative: [Bool]
    let stableSeconds: Double
    let trainingSubjects: [String]
    let testSubjects: [String]
    /// The dataset without the held-out subjects' recordings.
    let training: Dataset
    /// One joined stream per held-out subject, in `testSubjects` order.
    let streams: [BenchmarkStream]

    init(data: WholeLoad, configuration: Configuration) throws {
      let dataset = data.result.dataset
      axes = acceleration.compactMap { dataset.channels.firstIndex(of: $0) }
      guard axes.count == 3 else {
        throw BenchmarkError.missingChannels(needed: acceleration, available: dataset.channels)
      }
      let subjects = dataset.subjects
      testSubjects = subjects.filter(configuration.testSubjects.contains)
      guard !testSubjects.isEmpty else {
        throw BenchmarkError.noTestSubjects(
          requested: configuration.testSubjects.description, available: subjects)
      }
      let testSet = Set(testSubjects)
      trainingSubjects = subjects.filter { !testSet.contains($0) }
      guard !trainingSubjects.isEmpty else { throw BenchmarkError.noTrainingSubjects }
      var training = dataset
      training.recordings = dataset.recordings.filter { !testSet.contains($0.subject) }
      self.dataset = dataset
      self.training = training
      rate = dataset.recordings[0].sampleRateHz
      classes = dataset.labels
      negative = classes.indices.map { dataset.isNegative(labelIndex: $0) }
      stableSeconds = configuration.stableSeconds
      streams = testSubjects.map {
        BenchmarkStream.make(subject: $0, dataset: dataset, knownRepetitions: data.knownRepetitions)
      }
    }

    var testSamples: Int { streams.reduce(0) { $0 + $1.sampleCount } }

    func newCounter() -> ScoreCounter {
      ScoreCounter(classCount: classes.count, sampleRateHz: rate, stableSeconds: stableSeconds)
    }
  }

  /// The given model, or one trained on the training subjects with `motus train`'s defaults
  /// (so the engine is scored as users would run it), and a line saying which.
  static func learnedModel(
    given: TrainedModel?, data: WholeLoad, split: Split, configuration: Configuration,
    progress: ((String) -> Void)?
  ) throws -> (model: TrainedModel, summary: String) {
    if let given {
      let classes = given.classes.joined(separator: ", ")
      return (given, "loaded (\(given.classifier.kind), classes \(classes))")
    }
    progress?("training the learned model on \(split.trainingSubjects.count) subjects")
    let spec = try configuration.features.spec(
      recipes: data.result.recipes, sampleRateHz: split.rate)
    let trained = try Trainer.train(
      dataset: split.training, spec: spec, validationGroup: configuration.validationGroup,
      options: configuration.training, sourceWeights: data.sourceWeights)
    let summary = String(
      format: "trained here (motus train's defaults unless flags say otherwise): %@; "
        + "validation macro-F1 %.3f on %@", TransferBenchmark.describe(configuration.training),
      trained.report.macroF1, trained.report.validationGroups.joined(separator: ", "))
    return (trained.model, summary)
  }

  /// What one method shows on one held-out stream.
  struct Replay {
    /// Per sample, an index into the dataset's labels (for methods that classify).
    var labels: [Int32]? = nil
    /// Per known-count set, the repetitions counted and the seconds to the first (for
    /// methods that count).
    var sets: [(counted: Int, firstSeconds: Double?)]? = nil
    var cpuSeconds: Double
    /// Samples `cpuSeconds` covers; per-sample labels bring their own count.
    var samples = 0
  }

  /// Replays every held-out stream through one method and scores it: labels against the
  /// truth, set counts against the known counts. One loop, so every method is timed alike.
  static func score(
    _ method: String, split: Split, replay: (BenchmarkStream) throws -> Replay
  ) rethrows -> MethodScore {
    var counter = split.newCounter()
    var sources: [(name: String, counter: ScoreCounter)] = []
    var classifies = false
    var counts = false
    var counted: [Int] = []
    var firstCounts: [Double] = []
    var cpu = 0.0
    var samples = 0
    for stream in split.streams {
      let run = try replay(stream)
      cpu += run.cpuSeconds
      samples += run.samples
      if let labels = run.labels {
        classifies = true
        counter.add(truth: stream.truth, predicted: labels)
        let source = Manifest.source(ofSubject: stream.subject) ?? stream.subject
        if let i = sources.firstIndex(where: { $0.name == source }) {
          sources[i].counter.add(truth: stream.truth, predicted: labels)
        } else {
          var sourceCounter = split.newCounter()
          sourceCounter.add(truth: stream.truth, predicted: labels)
          sources.append((source, sourceCounter))
        }
      }
      if let sets = run.sets {
        counts = true
        counted += sets.map(\.counted)
        firstCounts += sets.compactMap(\.firstSeconds)
      }
    }
    var score =
      classifies
      ? counter.score(method: method, cpuSeconds: cpu, negative: split.negative)
      : MethodScore(method: method, cpuSecondsPerSample: samples > 0 ? cpu / Double(samples) : 0)
    if classifies {
      score.bySource = sources.map {
        $0.counter.score(method: $0.name, cpuSeconds: 0, negative: split.negative)
      }
    }
    if counts {
      addRepetitions(&score, counted: counted, firstCounts: firstCounts, streams: split.streams)
    }
    return score
  }

  /// The learned engine once per smoothing: each whole stream for the labels, then each
  /// known-count set from a fresh engine, as a user starts and ends a set (only the whole
  /// streams are timed).
  static func learnedScores(
    model: TrainedModel, split: Split, configuration: Configuration,
    progress: ((String) -> Void)?
  ) throws -> [MethodScore] {
    try configuration.learnedSmoothings.map { name, smoothing in
      progress?("streaming the learned model (\(name)) over \(split.testSamples) test samples")
      var settings = StreamConfiguration()
      settings.inputRateHz = split.rate
      settings.smoothing = smoothing
      settings.trips = configuration.trips
      settings.evidence = configuration.evidence
      func engine(_ stream: BenchmarkStream, _ range: Range<Int>?) throws
        -> StreamReplay.EngineRun
      {
        try StreamReplay.engine(
          model: model, configuration: settings, stream: stream, range: range,
          channels: split.dataset.channels, labels: split.classes)
      }
      var row = "learned, \(name)"
      if case .hiddenMarkov = smoothing {
        if configuration.trips != nil { row += ", trips" }
        if configuration.evidence.acts(on: model.classes) {
          row += ", " + configuration.evidence.description
        }
      }
      return try score(row, split: split) { stream in
        let run = try engine(stream, nil)
        let sets: [(counted: Int, firstSeconds: Double?)] = try stream.sets.map { set in
          let setRun = try engine(stream, set.range)
          return (setRun.repetitions, setRun.firstRepetitionTime)
        }
        return Replay(labels: run.labels, sets: sets, cpuSeconds: run.cpuSeconds)
      }
    }
  }

  /// Threshold classifiers with typical and tuned cut-offs, and tuned with a majority vote
  /// over the last window labels (which trades latency for less flicker).
  static func thresholdScores(
    tuned: ActivityThresholds, split: Split, configuration: Configuration,
    progress: ((String) -> Void)?
  ) -> [MethodScore] {
    let variants: [(String, ActivityThresholds, Int)] = [
      ("threshold, typical cut-offs", .typical, 1),
      ("threshold, tuned cut-offs", tuned, 1),
      ("threshold, tuned, vote of \(configuration.voteLength)", tuned, configuration.voteLength),
    ]
    return variants.map { name, cutoffs, voteLength in
      progress?("running \(name)")
      return score(name, split: split) { stream in
        let run = StreamReplay.thresholds(
          cutoffs: cutoffs, voteLength: voteLength, windowSeconds: configuration.windowSeconds,
          stream: stream, axes: split.axes, labels: split.classes)
        return Replay(labels: run.labels, cpuSeconds: run.cpuSeconds)
      }
    }
  }

  /// The earbud push-up counters, and the engine's repetition counter alone on |acceleration|
  /// from each set's first sample: that separates counting errors from the detector's (a set
  /// the engine does not recognise as push-ups counts nothing).
  static func counterScores(split: Split, progress: ((String) -> Void)?) -> [MethodScore] {
    var scores: [MethodScore] = []
    for (name, thresholds) in [
      ("push-up counter -0.5/+0.5 g", ThresholdPushUpCounter.Thresholds.initial),
      ("push-up counter -0.7/+0.4 g", ThresholdPushUpCounter.Thresholds.tuned),
    ] {
      progress?("running \(name)")
      scores.append(
        score(name, split: split) { stream in
          countSets(of: stream, axes: split.axes, rate: split.rate) {
            ThresholdChestPushUpCounter(thresholds: thresholds, sampleRateHz: split.rate)
          }
        })
    }
    progress?("running the repetition counter on whole sets")
    scores.append(
      score("counter alone, whole sets", split: split) { stream in
        countSets(of: stream, axes: split.axes, rate: split.rate) {
          MagnitudeRepetitionCounter(counter: RepetitionCounter(sampleRateHz: split.rate))
        }
      })
    return scores
  }

  /// A counter fed raw acceleration one sample at a time.
  protocol AxisCounter {
    /// True when this sample completed an event.
    mutating func push(x: Float, y: Float, z: Float) -> Bool
    var count: Int { get }
  }

  /// The engine's repetition counter on |acceleration|, counting throughout.
  struct MagnitudeRepetitionCounter: AxisCounter {
    var counter: RepetitionCounter
    var count: Int { counter.count }

    mutating func push(x: Float, y: Float, z: Float) -> Bool {
      counter.append((x * x + y * y + z * z).squareRoot(), counting: true) > 0
    }
  }

  /// Runs a fresh counter over each known-count set of `stream`, timing only the pushes.
  static func countSets<Counter: AxisCounter>(
    of stream: BenchmarkStream, axes: [Int], rate: Double, fresh: () -> Counter
  ) -> Replay {
    let (x, y, z) = (stream.columns[axes[0]], stream.columns[axes[1]], stream.columns[axes[2]])
    var replay = Replay(sets: [], cpuSeconds: 0)
    for set in stream.sets {
      var counter = fresh()
      var first: Int?
      let start = ThreadCPUTime.seconds()
      for t in set.range {
        if counter.push(x: x[t], y: y[t], z: z[t]) && first == nil { first = t }
      }
      replay.cpuSeconds += ThreadCPUTime.seconds() - start
      replay.samples += set.range.count
      replay.sets?.append(
        (counter.count, first.map { Double($0 - set.range.lowerBound) / rate }))
    }
    return replay
  }

  /// The shake detector over whole streams: it should rarely fire during any activity, so
  /// its score is detections per minute by true class.
  static func shakeScore(split: Split, progress: ((String) -> Void)?)
    -> (score: MethodScore, perMinute: [String: Double])
  {
    let classCount = split.classes.count
    var shakes = [Int](repeating: 0, count: classCount)
    var classSamples = [Int](repeating: 0, count: classCount)
    let result = score("shake detector |a| > 2.5 g", split: split) { stream in
      var detector = ShakeDetector()
      let (x, y, z) = (
        stream.columns[split.axes[0]], stream.columns[split.axes[1]], stream.columns[split.axes[2]]
      )
      let start = ThreadCPUTime.seconds()
      for t in 0..<stream.sampleCount {
        let fired = detector.push(x: x[t], y: y[t], z: z[t])
        let label = Int(stream.truth[t])
        guard label >= 0 else { continue }
        classSamples[label] += 1
        if fired { shakes[label] += 1 }
      }
      return Replay(cpuSeconds: ThreadCPUTime.seconds() - start, samples: stream.sampleCount)
    }
    var perMinute: [String: Double] = [:]
    for c in 0..<classCount where classSamples[c] > 0 {
      perMinute[split.classes[c]] = Double(shakes[c]) / (Double(classSamples[c]) / split.rate / 60)
    }
    return (result, perMinute)
  }

  /// The report: every method's scores with the split and the cut-offs they ran with.
  static func report(
    split: Split, configuration: Configuration, methods: [MethodScore],
    shakesPerMinute: [String: Double], tuned: (cutoffs: ActivityThresholds, macroF1: Double),
    learnedSummary: String
  ) -> AccuracyReport {
    var truthChanges = 0
    for s in split.streams {
      for i in 1..<max(s.truth.count, 1) where s.truth[i] != s.truth[i - 1] { truthChanges += 1 }
    }
    func dictionary(_ c: ActivityThresholds) -> [String: Float] {
      Dictionary(
        uniqueKeysWithValues: ActivityThresholds.parameters.map { ($0.name, c[keyPath: $0.keyPath]) })
    }
    let testSamples = split.testSamples
    return AccuracyReport(
      classes: split.classes, negativeLabels: split.dataset.negativeLabels,
      sampleRateHz: split.rate, trainingSubjects: split.trainingSubjects,
      testSubjects: split.testSubjects, testSamples: testSamples,
      truthChangesPerMinute: Double(truthChanges) / (Double(testSamples) / split.rate / 60),
      stableSeconds: configuration.stableSeconds, methods: methods,
      shakesPerMinute: shakesPerMinute, typicalCutoffs: dictionary(.typical),
      tunedCutoffs: dictionary(tuned.cutoffs), tunedTrainingMacroF1: tuned.macroF1,
      learnedModel: learnedSummary)
  }

  /// - Parameter firstCounts: Seconds from each set's start to its first counted
  ///   repetition, for the sets that counted any.
  static func addRepetitions(
    _ score: inout MethodScore, counted: [Int], firstCounts: [Double], streams: [BenchmarkStream]
  ) {
    let known = streams.flatMap { $0.sets.map(\.known) }
    guard !known.isEmpty, known.count == counted.count else { return }
    let errors = zip(counted, known).map { abs($0 - $1) }
    score.repetitionSets = known.count
    score.repetitionCountsPerSet = counted
    score.repetitionsKnownPerSet = known
    score.repetitionsKnown = known.reduce(0, +)
    score.repetitionsCounted = counted.reduce(0, +)
    score.repetitionMeanAbsoluteError = Double(errors.reduce(0, +)) / Double(known.count)
    score.repetitionPercentError =
      100 * Double(errors.reduce(0, +)) / Double(max(1, known.reduce(0, +)))
    let sorted = firstCounts.sorted()
    score.medianFirstRepetitionSeconds = sorted.isEmpty ? nil : sorted[sorted.count / 2]
  }
}

extension ThresholdChestPushUpCounter: AccuracyBenchmark.AxisCounter {}
