// The push-up part of `motus bench transfer`: with one push-up source, how well do detection
// and repetition counting carry over to a run of push-ups the model never saw, and to the
// same run from a sensor mounted another way round? Runs (recording sessions of the source
// whose joined sets have known repetition counts) are split into folds; for each fold a model
// trained without its runs streams each held-out set from a fresh engine, as recorded and
// under a random rotation of the sensor. Baselines on the same sets: the threshold rules (tuned
// on the same training recordings) for detection, and the seed article's earbud counter on
// chest axes for counting.

import Foundation
import MotusBaselines
import MotusData
import MotusFeatures
import MotusIngest
import MotusModels
import MotusStreaming
import MotusTraining

extension TransferBenchmark {
  /// One method on the held-out push-up sets, as recorded or rotated, for one seed.
  public struct PushUpScore: Codable, Sendable, Equatable {
    /// Share of the sets' samples labelled push-up; nil for a counter that does not label.
    public var recall: Double?
    public var repetitionsKnown: Int
    public var repetitionsCounted: Int
    /// Mean |counted - known| per set.
    public var meanAbsoluteError: Double
    public var sets: Int
  }

  /// One method's push-up scores.
  public struct PushUpResult: Codable, Sendable, Equatable {
    public var method: String
    /// `rotated`: the held-out sets through a random sensor rotation (one per set).
    public var rotated: Bool
    /// One per seed (one for methods without a seed).
    public var seeds: [PushUpScore]

    public var recall: SeedSummary? { SeedSummary(seeds.compactMap(\.recall)) }
    public var meanAbsoluteError: SeedSummary? { SeedSummary(seeds.map(\.meanAbsoluteError)) }
  }

  /// The push-up runs section of the report.
  public struct PushUpReport: Codable, Sendable, Equatable {
    public var source: String
    public var runs: Int
    public var folds: Int
    public var sets: Int
    public var results: [PushUpResult]
  }

  /// The runs of the source holding the known-count sets, split into `folds` contiguous folds
  /// in natural order. Returns nil when no source has known counts.
  static func pushUpFolds(data: WholeLoad, folds: Int)
    -> (source: String, runs: [String], folds: [(training: [Int], test: [Int])])?
  {
    let recordings = data.result.dataset.recordings
    guard
      let source = recordings.first(where: { data.knownRepetitions[$0.session] != nil })
        .map({ data.sourceName(of: $0) })
    else { return nil }
    func run(_ r: Recording) -> String {
      String(r.session.split(separator: "/", maxSplits: 1).first ?? Substring(r.session))
    }
    let runs = Array(
      Set(
        recordings.filter { data.knownRepetitions[$0.session] != nil }.map(run))
    ).sorted(by: naturalOrder)
    let count = min(max(folds, 2), runs.count)
    guard count >= 2 else { return nil }
    var result: [(training: [Int], test: [Int])] = []
    for fold in 0..<count {
      let held = Set(runs[(fold * runs.count / count)..<((fold + 1) * runs.count / count)])
      let test = recordings.indices.filter {
        data.knownRepetitions[recordings[$0].session] != nil && held.contains(run(recordings[$0]))
      }
      // Every recording of a held-out run leaves training (its other labels too).
      let training = recordings.indices.filter {
        data.sourceName(of: recordings[$0]) != source || !held.contains(run(recordings[$0]))
      }
      result.append((training, test))
    }
    return (source, runs, result)
  }

  /// One held-out set as recorded and through a random rotation of the sensor.
  struct HeldOutSet: Sendable {
    var plain: BenchmarkStream
    var rotated: BenchmarkStream
    var known: Int
  }

  /// What one method shows on a fold's sets, summed.
  struct Tally: Sendable {
    var samples = 0
    var pushUp = 0
    var known = 0
    var counted = 0
    var absoluteError = 0
    var sets = 0

    mutating func add(labels: [Int32], pushUp index: Int32, known: Int, counted: Int) {
      samples += labels.count
      pushUp += labels.reduce(0) { $0 + ($1 == index ? 1 : 0) }
      self.known += known
      self.counted += counted
      absoluteError += abs(counted - known)
      sets += 1
    }

    mutating func merge(_ other: Tally) {
      samples += other.samples
      pushUp += other.pushUp
      known += other.known
      counted += other.counted
      absoluteError += other.absoluteError
      sets += other.sets
    }

    var score: PushUpScore {
      PushUpScore(
        recall: samples > 0 ? Double(pushUp) / Double(samples) : nil, repetitionsKnown: known,
        repetitionsCounted: counted,
        meanAbsoluteError: sets > 0 ? Double(absoluteError) / Double(sets) : 0, sets: sets)
    }
  }

  /// Runs the push-up section: nil when no source has known repetition counts.
  static func pushUps(
    data: WholeLoad, spec: FeatureSpec, configuration: Configuration, axes: [Int],
    progress: (@Sendable (String) -> Void)?
  ) throws -> PushUpReport? {
    guard let split = pushUpFolds(data: data, folds: configuration.pushUpFolds) else { return nil }
    let dataset = data.result.dataset
    guard let pushUpIndex = dataset.labels.firstIndex(of: ThresholdActivity.pushUp.rawValue)
    else { return nil }
    let sets = heldOutSets(data: data, folds: split.folds, seed: configuration.rotationSeed)
    let learned = try learnedPushUps(
      data: data, spec: spec, configuration: configuration, folds: split.folds, sets: sets,
      pushUp: Int32(pushUpIndex), progress: progress)
    let baselines = baselinePushUps(
      data: data, configuration: configuration, folds: split.folds, sets: sets, axes: axes,
      pushUp: Int32(pushUpIndex))
    var results: [PushUpResult] = []
    for (k, rotated) in [false, true].enumerated() {
      results.append(
        PushUpResult(
          method: "learned, streamed", rotated: rotated, seeds: learned.map { $0[k].score }))
      results.append(
        PushUpResult(
          method: "thresholds, tuned, vote of \(configuration.voteLength)", rotated: rotated,
          seeds: [baselines.rules[k].score]))
      results.append(
        PushUpResult(
          method: "earbud counter on chest axes, -0.7/+0.4 g", rotated: rotated,
          seeds: [baselines.counter[k].score]))
    }
    return PushUpReport(
      source: split.source, runs: split.runs.count, folds: split.folds.count,
      sets: sets.reduce(0) { $0 + $1.count }, results: results)
  }

  /// `[fold]`: each held-out set as one stream, as recorded and under one random rotation
  /// per set.
  static func heldOutSets(
    data: WholeLoad, folds: [(training: [Int], test: [Int])], seed: UInt64
  ) -> [[HeldOutSet]] {
    let dataset = data.result.dataset
    let rotation = DevicePerturbation(maxRotationDegrees: 180)
    func stream(_ recording: Recording) -> BenchmarkStream {
      BenchmarkStream.make(
        name: recording.session, recordings: [recording], channelCount: dataset.channels.count,
        knownRepetitions: data.knownRepetitions)
    }
    return folds.map { fold in
      fold.test.map { index in
        let recording = dataset.recordings[index]
        let turned = rotation.apply(
          to: recording, channels: dataset.channels,
          seed: seed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        return HeldOutSet(
          plain: stream(recording), rotated: stream(turned),
          known: data.knownRepetitions[recording.session] ?? 0)
      }
    }
  }

  /// `[seed][as recorded, rotated]`: the learned engine on every held-out set, each fold's
  /// model trained without the fold's runs; every set from a fresh engine.
  static func learnedPushUps(
    data: WholeLoad, spec: FeatureSpec, configuration: Configuration,
    folds: [(training: [Int], test: [Int])], sets: [[HeldOutSet]], pushUp: Int32,
    progress: (@Sendable (String) -> Void)?
  ) throws -> [[Tally]] {
    let dataset = data.result.dataset
    let seeds = configuration.seeds
    var settings = StreamConfiguration()
    settings.inputRateHz = dataset.recordings.first?.sampleRateHz ?? 1
    settings.smoothing = configuration.streamed
    let engine = settings
    let done = ConcurrentSlots<Int>(count: 1)
    let jobs = folds.count * seeds.count
    let results = try parallelMap(count: jobs, parallelism: configuration.parallelism) { job in
      let (f, s) = (job / seeds.count, job % seeds.count)
      var training = dataset
      training.recordings = folds[f].training.map { dataset.recordings[$0] }
      var options = configuration.training
      options.seed = seeds[s]
      let model = try Trainer.train(
        dataset: training, spec: spec, validationGroup: configuration.validationGroup,
        options: options, sourceWeights: data.sourceWeights
      ).model
      var tallies = [Tally(), Tally()]
      for set in sets[f] {
        for (k, stream) in [set.plain, set.rotated].enumerated() {
          let run = try StreamReplay.engine(
            model: model, configuration: engine, stream: stream, channels: dataset.channels,
            labels: dataset.labels)
          tallies[k].add(
            labels: run.labels, pushUp: pushUp, known: set.known, counted: run.repetitions)
        }
      }
      progress?("push-up runs: trained and streamed \(done.increment()) of \(jobs) models")
      return tallies
    }
    var merged = seeds.map { _ in [Tally(), Tally()] }
    for (job, tallies) in results.enumerated() {
      for k in 0..<2 { merged[job % seeds.count][k].merge(tallies[k]) }
    }
    return merged
  }

  /// `[as recorded, rotated]` for the threshold rules (tuned per fold on its training
  /// recordings) and the earbud counter on chest axes (no tuning).
  static func baselinePushUps(
    data: WholeLoad, configuration: Configuration,
    folds: [(training: [Int], test: [Int])], sets: [[HeldOutSet]], axes: [Int], pushUp: Int32
  ) -> (rules: [Tally], counter: [Tally]) {
    let dataset = data.result.dataset
    var rules = [Tally(), Tally()]
    var counter = [Tally(), Tally()]
    // Each fold tuned and run on its own core, summed in order.
    let results = parallelMap(count: folds.count, parallelism: configuration.parallelism) { f in
      let tuned = StreamReplay.tuneThresholds(
        recordings: folds[f].training.map { dataset.recordings[$0] }, axes: axes,
        labels: dataset.labels, windowSeconds: configuration.thresholdWindowSeconds)
      return baselinePushUps(
        sets: sets[f], cutoffs: tuned.cutoffs, configuration: configuration, axes: axes,
        labels: dataset.labels, pushUp: pushUp)
    }
    for fold in results {
      for k in 0..<2 {
        rules[k].merge(fold.rules[k])
        counter[k].merge(fold.counter[k])
      }
    }
    return (rules, counter)
  }

  /// `[as recorded, rotated]` on one fold's `sets`: the voted threshold rules with `cutoffs`
  /// and the earbud counter on chest axes.
  static func baselinePushUps(
    sets: [HeldOutSet], cutoffs: ActivityThresholds, configuration: Configuration, axes: [Int],
    labels: [String], pushUp: Int32
  ) -> (rules: [Tally], counter: [Tally]) {
    var rules = [Tally(), Tally()]
    var counter = [Tally(), Tally()]
    for set in sets {
      for (k, stream) in [set.plain, set.rotated].enumerated() {
        let run = StreamReplay.thresholds(
          cutoffs: cutoffs, voteLength: configuration.voteLength,
          windowSeconds: configuration.thresholdWindowSeconds, stream: stream, axes: axes,
          labels: labels)
        rules[k].add(labels: run.labels, pushUp: pushUp, known: set.known, counted: 0)
        var chest = ThresholdChestPushUpCounter(
          thresholds: .tuned, sampleRateHz: stream.sampleRateHz)
        for t in 0..<stream.sampleCount {
          _ = chest.push(
            x: stream.columns[axes[0]][t], y: stream.columns[axes[1]][t],
            z: stream.columns[axes[2]][t])
        }
        counter[k].add(labels: [], pushUp: pushUp, known: set.known, counted: chest.count)
      }
    }
    return (rules, counter)
  }
}
