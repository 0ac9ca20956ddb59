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
  static func pushUpFolds(data: ManifestLoadResult, folds: Int)
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

  /// Runs the push-up section.
  static func pushUps(
    data: ManifestLoadResult, spec: FeatureSpec, configuration: Configuration, axes: [Int],
    progress: (@Sendable (String) -> Void)?
  ) throws -> PushUpReport? {
    guard let split = pushUpFolds(data: data, folds: configuration.pushUpFolds) else { return nil }
    let dataset = data.result.dataset
    let rate = dataset.recordings.first?.sampleRateHz ?? 1
    let pushUp = ThresholdActivity.pushUp.rawValue
    guard let pushUpIndex = dataset.labels.firstIndex(of: pushUp) else { return nil }
    // Each held-out set as one stream, as recorded and rotated.
    let rotation = DevicePerturbation(maxRotationDegrees: 180)
    let sets: [[(plain: BenchmarkStream, rotated: BenchmarkStream, known: Int)]] = split.folds
      .map { fold in
        fold.test.map { index in
          let r = dataset.recordings[index]
          let turned = rotation.apply(
            to: r, channels: dataset.channels,
            seed: configuration.rotationSeed &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
          func stream(_ recording: Recording) -> BenchmarkStream {
            BenchmarkStream.make(
              name: r.session, recordings: [recording], channelCount: dataset.channels.count,
              knownRepetitions: data.knownRepetitions)
          }
          return (stream(r), stream(turned), data.knownRepetitions[r.session] ?? 0)
        }
      }
    let settings = {
      var settings = StreamConfiguration()
      settings.inputRateHz = rate
      settings.smoothing = configuration.streamed
      return settings
    }()

    struct Tally {
      var samples = 0
      var pushUp = 0
      var known = 0
      var counted = 0
      var absoluteError = 0
      var sets = 0

      mutating func add(labels: [Int32], pushUp index: Int, known: Int, counted: Int) {
        samples += labels.count
        pushUp += labels.filter { $0 == Int32(index) }.count
        self.known += known
        self.counted += counted
        absoluteError += abs(counted - known)
        sets += 1
      }

      var score: PushUpScore {
        PushUpScore(
          recall: samples > 0 ? Double(pushUp) / Double(samples) : nil, repetitionsKnown: known,
          repetitionsCounted: counted,
          meanAbsoluteError: sets > 0 ? Double(absoluteError) / Double(sets) : 0, sets: sets)
      }
    }

    // Learned engine: one model per (fold, seed).
    let seeds = configuration.seeds
    let learned = ResultBox<[Tally]>(count: split.folds.count * seeds.count)
    let errors = ResultBox<Error>(count: split.folds.count * seeds.count)
    let done = Counter()
    let total = split.folds.count * seeds.count
    let queue = DispatchQueue(label: "push-ups", attributes: .concurrent)
    let slots = DispatchSemaphore(value: max(1, configuration.parallelism))
    let group = DispatchGroup()
    for f in split.folds.indices {
      for (s, seed) in seeds.enumerated() {
        slots.wait()
        queue.async(group: group) {
          defer { slots.signal() }
          do {
            var training = dataset
            training.recordings = split.folds[f].training.map { dataset.recordings[$0] }
            var options = configuration.training
            options.seed = seed
            let model = try Trainer.train(
              dataset: training, spec: spec, validationGroup: .subject, options: options
            ).model
            var tallies = [Tally(), Tally()]
            for set in sets[f] {
              for (k, stream) in [set.plain, set.rotated].enumerated() {
                let run = try StreamReplay.engine(
                  model: model, configuration: settings, stream: stream,
                  channels: dataset.channels, labels: dataset.labels)
                tallies[k].add(
                  labels: run.labels, pushUp: pushUpIndex, known: set.known,
                  counted: run.repetitions)
              }
            }
            learned.set(f * seeds.count + s, tallies)
          } catch {
            errors.set(f * seeds.count + s, error)
          }
          let finished = done.increment()
          progress?("push-up runs: trained and streamed \(finished) of \(total) models")
        }
      }
    }
    group.wait()
    if let error = errors.values.compactMap({ $0 }).first { throw error }

    // Baselines: threshold rules tuned per fold; the chest counter needs no tuning.
    var rules = [Tally(), Tally()]
    var chest = [Tally(), Tally()]
    for (f, fold) in split.folds.enumerated() {
      let tuned = StreamReplay.tuneThresholds(
        recordings: fold.training.map { dataset.recordings[$0] }, axes: axes,
        labels: dataset.labels, windowSeconds: configuration.thresholdWindowSeconds)
      for set in sets[f] {
        for (k, stream) in [set.plain, set.rotated].enumerated() {
          let run = StreamReplay.thresholds(
            cutoffs: tuned.cutoffs, voteLength: configuration.voteLength,
            windowSeconds: configuration.thresholdWindowSeconds, stream: stream, axes: axes,
            labels: dataset.labels)
          rules[k].add(labels: run.labels, pushUp: pushUpIndex, known: set.known, counted: 0)
          var counter = ChestPushUpCounter(thresholds: .tuned, sampleRateHz: rate)
          for t in 0..<stream.sampleCount {
            _ = counter.push(
              x: stream.columns[axes[0]][t], y: stream.columns[axes[1]][t],
              z: stream.columns[axes[2]][t])
          }
          chest[k].add(labels: [], pushUp: pushUpIndex, known: set.known, counted: counter.count)
        }
      }
    }
    var results: [PushUpResult] = []
    for k in 0..<2 {
      var perSeed: [PushUpScore] = []
      for s in seeds.indices {
        var merged = Tally()
        for f in split.folds.indices {
          guard let tally = learned.values[f * seeds.count + s]?[k] else { continue }
          merged.samples += tally.samples
          merged.pushUp += tally.pushUp
          merged.known += tally.known
          merged.counted += tally.counted
          merged.absoluteError += tally.absoluteError
          merged.sets += tally.sets
        }
        perSeed.append(merged.score)
      }
      let rotated = k == 1
      results.append(PushUpResult(method: "learned, streamed", rotated: rotated, seeds: perSeed))
      results.append(
        PushUpResult(
          method: "thresholds, tuned, vote of \(configuration.voteLength)", rotated: rotated,
          seeds: [rules[k].score]))
      results.append(
        PushUpResult(
          method: "earbud counter on chest axes, -0.7/+0.4 g", rotated: rotated,
          seeds: [chest[k].score]))
    }
    return PushUpReport(
      source: split.source, runs: split.runs.count, folds: split.folds.count,
      sets: sets.reduce(0) { $0 + $1.count }, results: results)
  }
}
