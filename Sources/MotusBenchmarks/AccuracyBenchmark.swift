// `motus bench accuracy`: the learned engine against hand-tuned threshold baselines on the
// same held-out subjects. Train part: every other subject. Scores are per sample at the
// dataset's rate (Hz); times in seconds; CPU time is the calling thread's.

import Foundation
import MotusBaselines
import MotusData
import MotusFeatures
import MotusModels
import MotusStreaming
import MotusTraining

/// Failures of the accuracy benchmark, with hints.
public enum BenchmarkError: Error, Equatable, CustomStringConvertible {
  case missingChannels(needed: [String], available: [String])
  case noTestSubjects(requested: [String], available: [String])
  case noTrainingSubjects
  case noTransferGroups

  public var description: String {
    switch self {
    case .missingChannels(let needed, let available):
      return "the data lacks channels \(needed) (has \(available)). HINT: use a manifest "
        + "with raw acceleration, e.g. datasets/six-class.json."
    case .noTestSubjects(let requested, let available):
      return "none of the test subjects \(requested) is in the data (subjects: "
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
    /// Held-out subjects (`source:subject`). Default: MotionSense 17-20 (as in the reference
    /// figures), QROWD user 3, and the one named push-up subject.
    public var testSubjects: [String] =
      (17...20).map { "motionsense:\($0)" } + ["qrowd:3", "gains_pushup:Eric"]
    /// The threshold rules' window (the learned model's comes from `features`).
    public var windowSeconds = 2.56
    /// A label must hold this long after a change to count as detected.
    public var stableSeconds = 3.0
    /// Window and feature choices of the learned model: `motus train`'s defaults.
    public var features = FeatureChoice()
    /// Training options of the learned model: `motus train`'s defaults.
    public var training = TrainingOptions()
    /// Window labels the debounced threshold variant votes over (5 hops, about 6 s).
    public var voteLength = 5
    /// The engine is scored once per entry. Default: no smoothing, and the stream's
    /// `--smoothing hmm` with its default switch probability.
    public var learnedSmoothings: [(name: String, smoothing: Smoothing)] = [
      ("no smoothing", .none),
      (
        "switch penalty \(StreamConfiguration.defaultSwitchProbability)",
        .switchPenalty(switchProbability: StreamConfiguration.defaultSwitchProbability)
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
    data: ManifestLoadResult, model givenModel: TrainedModel? = nil,
    configuration: Configuration = .init(), progress: ((String) -> Void)? = nil
  ) throws -> AccuracyReport {
    let dataset = data.result.dataset
    let axes = acceleration.compactMap { dataset.channels.firstIndex(of: $0) }
    guard axes.count == 3 else {
      throw BenchmarkError.missingChannels(needed: acceleration, available: dataset.channels)
    }
    let subjects = dataset.subjects
    let testSubjects = configuration.testSubjects.filter(subjects.contains)
    guard !testSubjects.isEmpty else {
      throw BenchmarkError.noTestSubjects(
        requested: configuration.testSubjects, available: subjects)
    }
    let testSet = Set(testSubjects)
    let trainingSubjects = subjects.filter { !testSet.contains($0) }
    guard !trainingSubjects.isEmpty else { throw BenchmarkError.noTrainingSubjects }
    var training = dataset
    training.recordings = dataset.recordings.filter { !testSet.contains($0.subject) }
    let rate = dataset.recordings[0].sampleRateHz
    let classes = dataset.labels

    // Learned engine.
    let model: TrainedModel
    var learnedSummary: String
    if let givenModel {
      model = givenModel
      learnedSummary =
        "loaded (\(model.classifier.kind), classes \(model.classes.joined(separator: ", ")))"
    } else {
      progress?("training the learned model on \(trainingSubjects.count) subjects")
      let spec = try configuration.features.spec(
        recipes: data.result.recipes, sampleRateHz: rate)
      let trained = try Trainer.train(
        dataset: training, spec: spec, validationGroup: .subject,
        options: configuration.training, sourceWeights: data.sourceWeights)
      model = trained.model
      learnedSummary = String(
        format: "trained here (motus train's defaults unless flags say otherwise): %@; "
          + "validation macro-F1 %.3f on %@", TransferBenchmark.describe(configuration.training),
        trained.report.macroF1, trained.report.validationGroups.joined(separator: ", "))
    }

    // Tuned cut-offs: grid search on the training subjects' windows.
    progress?("tuning threshold cut-offs on the training subjects")
    let tuned = StreamReplay.tuneThresholds(
      recordings: training.recordings, axes: axes, labels: classes,
      windowSeconds: configuration.windowSeconds)
    let negative = classes.indices.map { dataset.isNegative(labelIndex: $0) }

    let streams = testSubjects.map {
      BenchmarkStream.make(subject: $0, dataset: dataset, knownRepetitions: data.knownRepetitions)
    }
    let testSamples = streams.reduce(0) { $0 + $1.sampleCount }
    var truthChanges = 0
    for s in streams {
      for i in 1..<max(s.truth.count, 1) where s.truth[i] != s.truth[i - 1] { truthChanges += 1 }
    }
    func newCounter() -> ScoreCounter {
      ScoreCounter(
        classCount: classes.count, sampleRateHz: rate, stableSeconds: configuration.stableSeconds)
    }

    var methods: [MethodScore] = []
    // The learned engine, through StreamingClassifier, once per smoothing.
    for (name, smoothing) in configuration.learnedSmoothings {
      progress?("streaming the learned model (\(name)) over \(testSamples) test samples")
      var score = try runEngine(
        model: model, smoothing: smoothing, streams: streams, channels: dataset.channels,
        classes: classes, rate: rate, counter: newCounter(), name: name, negative: negative)
      score.method = "learned, \(name)"
      methods.append(score)
    }

    // Threshold classifiers, raw and with a majority vote over the last labels.
    let thresholdVariants: [(String, ActivityCutoffs, Int)] = [
      ("threshold, typical cut-offs", .typical, 1),
      ("threshold, tuned cut-offs", tuned.cutoffs, 1),
      (
        "threshold, tuned, vote of \(configuration.voteLength)", tuned.cutoffs,
        configuration.voteLength
      ),
    ]
    for (name, cutoffs, voteLength) in thresholdVariants {
      progress?("running \(name)")
      var counter = newCounter()
      var cpu = 0.0
      for stream in streams {
        let run = StreamReplay.thresholds(
          cutoffs: cutoffs, voteLength: voteLength, windowSeconds: configuration.windowSeconds,
          stream: stream, axes: axes, labels: classes)
        cpu += run.cpuSeconds
        counter.add(truth: stream.truth, predicted: run.labels)
      }
      methods.append(counter.score(method: name, cpuSeconds: cpu, negative: negative))
    }

    // Earbud push-up counters on each joined set.
    for (name, thresholds) in [
      ("push-up counter -0.5/+0.5 g", PushUpCounter.Thresholds.initial),
      ("push-up counter -0.7/+0.4 g", PushUpCounter.Thresholds.tuned),
    ] {
      progress?("running \(name)")
      var counted: [Int] = []
      var firstCounts: [Double] = []
      var cpu = 0.0
      var samples = 0
      for stream in streams {
        for set in stream.sets {
          var counter = ChestPushUpCounter(thresholds: thresholds, sampleRateHz: rate)
          var first: Int?
          let start = ThreadCPUTime.seconds()
          for t in set.range {
            let counted = counter.push(
              x: stream.columns[axes[0]][t], y: stream.columns[axes[1]][t],
              z: stream.columns[axes[2]][t])
            if counted && first == nil { first = t }
          }
          cpu += ThreadCPUTime.seconds() - start
          samples += set.range.count
          counted.append(counter.count)
          if let first { firstCounts.append(Double(first - set.range.lowerBound) / rate) }
        }
      }
      var score = MethodScore(
        method: name, cpuSecondsPerSample: samples > 0 ? cpu / Double(samples) : 0)
      addRepetitions(&score, counted: counted, firstCounts: firstCounts, streams: streams)
      methods.append(score)
    }

    // The engine's repetition counter alone, counting each whole set from its first sample
    // on |acceleration|: separates counting errors from the detector's (a set the engine
    // does not recognise as push-ups counts nothing).
    do {
      progress?("running the repetition counter on whole sets")
      var counted: [Int] = []
      var firstCounts: [Double] = []
      var cpu = 0.0
      var samples = 0
      for stream in streams {
        for set in stream.sets {
          var counter = RepetitionCounter(sampleRateHz: rate)
          var first: Int?
          let start = ThreadCPUTime.seconds()
          for t in set.range {
            let x = stream.columns[axes[0]][t]
            let y = stream.columns[axes[1]][t]
            let z = stream.columns[axes[2]][t]
            let completed = counter.append((x * x + y * y + z * z).squareRoot(), counting: true)
            if completed > 0 && first == nil { first = t }
          }
          cpu += ThreadCPUTime.seconds() - start
          samples += set.range.count
          counted.append(counter.count)
          if let first { firstCounts.append(Double(first - set.range.lowerBound) / rate) }
        }
      }
      var score = MethodScore(
        method: "counter alone, whole sets",
        cpuSecondsPerSample: samples > 0 ? cpu / Double(samples) : 0)
      addRepetitions(&score, counted: counted, firstCounts: firstCounts, streams: streams)
      methods.append(score)
    }

    // Shake detector: detections per minute by true class (all should be rare).
    var shakeCounts = [Int](repeating: 0, count: classes.count)
    var classSamples = [Int](repeating: 0, count: classes.count)
    var shakeCPU = 0.0
    for stream in streams {
      var detector = ShakeDetector()
      let start = ThreadCPUTime.seconds()
      for t in 0..<stream.sampleCount {
        let fired = detector.push(
          x: stream.columns[axes[0]][t], y: stream.columns[axes[1]][t],
          z: stream.columns[axes[2]][t])
        let label = Int(stream.truth[t])
        guard label >= 0 else { continue }
        classSamples[label] += 1
        if fired { shakeCounts[label] += 1 }
      }
      shakeCPU += ThreadCPUTime.seconds() - start
    }
    methods.append(
      MethodScore(
        method: "shake detector |a| > 2.5 g",
        cpuSecondsPerSample: testSamples > 0 ? shakeCPU / Double(testSamples) : 0))
    var shakes: [String: Double] = [:]
    for c in classes.indices where classSamples[c] > 0 {
      shakes[classes[c]] = Double(shakeCounts[c]) / (Double(classSamples[c]) / rate / 60)
    }

    func dictionary(_ c: ActivityCutoffs) -> [String: Float] {
      Dictionary(
        uniqueKeysWithValues: ActivityCutoffs.parameters.map { ($0.name, c[keyPath: $0.keyPath]) })
    }
    return AccuracyReport(
      classes: classes, negativeLabels: dataset.negativeLabels, sampleRateHz: rate, trainingSubjects: trainingSubjects,
      testSubjects: testSubjects, testSamples: testSamples,
      truthChangesPerMinute: Double(truthChanges) / (Double(testSamples) / rate / 60),
      stableSeconds: configuration.stableSeconds, methods: methods, shakesPerMinute: shakes,
      typicalCutoffs: dictionary(.typical), tunedCutoffs: dictionary(tuned.cutoffs),
      tunedTrainingMacroF1: tuned.macroF1, learnedModel: learnedSummary)
  }

  /// Streams every test stream through a fresh `StreamingClassifier`; each known-count set
  /// again on its own, from a fresh engine, as the counters see it (a set is started and
  /// ended by the user, not cut out of a longer stream).
  static func runEngine(
    model: TrainedModel, smoothing: Smoothing, streams: [BenchmarkStream], channels: [String],
    classes: [String], rate: Double, counter start: ScoreCounter, name: String, negative: [Bool]
  ) throws -> MethodScore {
    var counter = start
    var counted: [Int] = []
    var firstCounts: [Double] = []
    var cpu = 0.0
    var settings = StreamConfiguration()
    settings.inputRateHz = rate
    settings.smoothing = smoothing
    for stream in streams {
      let run = try StreamReplay.engine(
        model: model, configuration: settings, stream: stream, channels: channels,
        labels: classes)
      cpu += run.cpuSeconds
      counter.add(truth: stream.truth, predicted: run.labels)
      for set in stream.sets {
        let setRun = try StreamReplay.engine(
          model: model, configuration: settings, stream: stream, range: set.range,
          channels: channels, labels: classes)
        counted.append(setRun.repetitions)
        if let first = setRun.firstRepetitionTime { firstCounts.append(first) }
      }
    }
    var score = counter.score(method: name, cpuSeconds: cpu, negative: negative)
    addRepetitions(&score, counted: counted, firstCounts: firstCounts, streams: streams)
    return score
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
