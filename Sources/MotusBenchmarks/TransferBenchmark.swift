// `motus bench transfer`: how the learned engine and the tuned threshold rules do on data from a
// source or a body placement that training never saw. Held-out groups:
// - each source of a manifest in turn (train on every other source, test on it);
// - each placement of a source that declares placements (`placementSeparator`): train on its
//   other placements, test on this one, never with the same people on both sides (subjects
//   split into folds; each fold's people are tested on this placement by a model trained
//   without them).
// Every group is scored per sample like `motus bench accuracy`: the test subjects' recordings
// (per placement) joined end to end and streamed sample by sample. Scores are over the six-class
// samples; negative-label samples count how often the engine answers unknown. The learned
// engine runs once per seed (training is seeded); the threshold rules, tuned on the same
// training recordings, have no seed.

import Foundation
import MotusBaselines
import MotusData
import MotusFeatures
import MotusModels
import MotusStreaming
import MotusTraining

/// Leave-one-source-out and leave-one-placement-out transfer benchmark.
public enum TransferBenchmark {
  public struct Configuration: Sendable {
    public var seeds: [UInt64] = [1, 2, 3]
    /// Window and feature choices of the learned model (`motus train`'s defaults).
    public var features = FeatureChoice()
    /// Training options of the learned model; the seed is replaced by each of `seeds`.
    public var training = TrainingOptions()
    /// The stream's smoothing for the "streamed" rows.
    public var streamed: Smoothing = .switchPenalty(
      switchProbability: StreamConfiguration.defaultSwitchProbability)
    /// Subject folds per held-out placement.
    public var placementFolds = 2
    /// Sources to hold out (nil: every source); placements are held out for every source
    /// that declares them unless `placements` is false.
    public var sources: [String]? = nil
    public var placements = true
    /// The threshold rules' window and the vote length of their debounced variant.
    public var thresholdWindowSeconds = 2.56
    public var voteLength = 5
    /// Models trained at once (each on one core; OpenBLAS is single-threaded).
    public var parallelism = 2
    /// Folds of the push-up runs (0: no push-up section).
    public var pushUpFolds = 4
    /// Seeds the random sensor rotation of each held-out push-up set.
    public var rotationSeed: UInt64 = 7

    public init() {}
  }

  /// One held-out group: a source, or a placement of a source.
  public struct Group: Sendable {
    public enum Kind: String, Codable, Sendable { case source, placement }
    public var name: String
    public var kind: Kind
    /// Each fold trains on `training` and tests `test` (indices into the dataset's recordings).
    public var folds: [(training: [Int], test: [Int])]
  }

  /// The held-out groups `configuration` asks for.
  public static func groups(data: ManifestLoadResult, configuration: Configuration) -> [Group] {
    let recordings = data.result.dataset.recordings
    let sourceOf = recordings.map { data.sourceName(of: $0) }
    let sourceNames = data.manifest.sources.map(\.name).filter { name in
      configuration.sources?.contains(name) ?? true
    }
    var groups: [Group] = []
    for source in sourceNames {
      let test = recordings.indices.filter { sourceOf[$0] == source }
      guard !test.isEmpty else { continue }
      let training = recordings.indices.filter { sourceOf[$0] != source }
      groups.append(Group(name: source, kind: .source, folds: [(training, test)]))
    }
    guard configuration.placements else { return groups }
    for source in data.manifest.sources where source.placementSeparator != nil {
      let members = recordings.indices.filter { sourceOf[$0] == source.name }
      let placementOf = Dictionary(
        uniqueKeysWithValues: members.map { ($0, data.placement(of: recordings[$0]) ?? "") })
      let placements = Array(Set(placementOf.values)).filter { !$0.isEmpty }.sorted()
      guard placements.count >= 2 else { continue }
      let subjects = Array(Set(members.map { recordings[$0].subject })).sorted(by: naturalOrder)
      let foldCount = min(max(configuration.placementFolds, 2), subjects.count)
      guard foldCount >= 2 else { continue }
      for placement in placements {
        var folds: [(training: [Int], test: [Int])] = []
        for fold in 0..<foldCount {
          // Contiguous folds in natural order: subjects 1-3 and 4-6 of six.
          let lower = fold * subjects.count / foldCount
          let upper = (fold + 1) * subjects.count / foldCount
          let held = Set(subjects[lower..<upper])
          let test = members.filter {
            held.contains(recordings[$0].subject) && placementOf[$0] == placement
          }
          let training = recordings.indices.filter { index in
            guard sourceOf[index] == source.name else { return true }
            return !held.contains(recordings[index].subject) && placementOf[index] != placement
          }
          if !test.isEmpty { folds.append((training, test)) }
        }
        groups.append(Group(name: "\(source.name) \(placement)", kind: .placement, folds: folds))
      }
    }
    return groups
  }

  /// Runs every group.
  ///
  /// - Parameters:
  ///   - data: A loaded manifest with raw acceleration axes (for the threshold rules).
  ///   - progress: Called with a short description of each finished step.
  /// - Throws: `BenchmarkError.missingChannels`, and feature or training errors.
  public static func run(
    data: ManifestLoadResult, configuration: Configuration = .init(),
    progress: (@Sendable (String) -> Void)? = nil
  ) throws -> TransferReport {
    let dataset = data.result.dataset
    let axes = AccuracyBenchmark.acceleration.compactMap { dataset.channels.firstIndex(of: $0) }
    guard axes.count == 3 else {
      throw BenchmarkError.missingChannels(
        needed: AccuracyBenchmark.acceleration, available: dataset.channels)
    }
    let rate = dataset.recordings.first?.sampleRateHz ?? 1
    let spec = try configuration.features.spec(for: data.result)
    let groups = groups(data: data, configuration: configuration)
    guard !groups.isEmpty else { throw BenchmarkError.noTransferGroups }

    // One task per (group, fold, seed) trains a model and streams the fold's test subjects.
    struct Task {
      var group: Int
      var fold: Int
      var seed: UInt64
    }
    var tasks: [Task] = []
    for (g, group) in groups.enumerated() {
      for f in group.folds.indices {
        for seed in configuration.seeds { tasks.append(Task(group: g, fold: f, seed: seed)) }
      }
    }
    let streamsOf: [[[BenchmarkStream]]] = groups.map { group in
      group.folds.map { fold in
        testStreams(recordings: fold.test, data: data)
      }
    }
    let streamConfiguration = {
      var settings = StreamConfiguration()
      settings.inputRateHz = rate
      return settings
    }()

    let results = ResultBox<[ScoreCounter]>(count: tasks.count)
    let thresholdResults = ResultBox<[ScoreCounter]>(count: groups.count)
    let errors = ResultBox<Error>(count: tasks.count)
    let done = Counter()
    let total = tasks.count
    let classCount = dataset.labels.count
    let negative = dataset.labels.indices.map { dataset.isNegative(labelIndex: $0) }
    @Sendable func counter() -> ScoreCounter {
      ScoreCounter(classCount: classCount, sampleRateHz: rate, stableSeconds: 3)
    }

    // Threshold rules: tuned per fold on its training recordings, no seed.
    DispatchQueue.concurrentPerform(iterations: groups.count) { g in
      var raw = counter()
      var voted = counter()
      for (f, fold) in groups[g].folds.enumerated() {
        let tuned = StreamReplay.tuneThresholds(
          recordings: fold.training.map { dataset.recordings[$0] }, axes: axes,
          labels: dataset.labels, windowSeconds: configuration.thresholdWindowSeconds)
        for stream in streamsOf[g][f] {
          for (length, target) in [(1, 0), (configuration.voteLength, 1)] {
            let run = StreamReplay.thresholds(
              cutoffs: tuned.cutoffs, voteLength: length,
              windowSeconds: configuration.thresholdWindowSeconds, stream: stream, axes: axes,
              labels: dataset.labels)
            if target == 0 {
              raw.add(truth: stream.truth, predicted: run.labels)
            } else {
              voted.add(truth: stream.truth, predicted: run.labels)
            }
          }
        }
      }
      thresholdResults.set(g, [raw, voted])
    }
    progress?("tuned the threshold rules for \(groups.count) groups")

    let queue = DispatchQueue(label: "transfer", attributes: .concurrent)
    let slots = DispatchSemaphore(value: max(1, configuration.parallelism))
    let group = DispatchGroup()
    for (index, task) in tasks.enumerated() {
      slots.wait()
      queue.async(group: group) {
        defer { slots.signal() }
        do {
          let fold = groups[task.group].folds[task.fold]
          var training = dataset
          training.recordings = fold.training.map { dataset.recordings[$0] }
          var options = configuration.training
          options.seed = task.seed
          let model = try Trainer.train(
            dataset: training, spec: spec, validationGroup: .subject, options: options
          ).model
          var single = counter()
          var streamed = counter()
          for stream in streamsOf[task.group][task.fold] {
            for smoothing in [Smoothing.none, configuration.streamed] {
              var settings = streamConfiguration
              settings.smoothing = smoothing
              let run = try StreamReplay.engine(
                model: model, configuration: settings, stream: stream,
                channels: dataset.channels, labels: dataset.labels)
              if smoothing == .none {
                single.add(truth: stream.truth, predicted: run.labels)
              } else {
                streamed.add(truth: stream.truth, predicted: run.labels)
              }
            }
          }
          results.set(index, [single, streamed])
        } catch {
          errors.set(index, error)
        }
        let finished = done.increment()
        progress?(
          "trained and streamed \(finished) of \(total) models (\(groups[task.group].name), "
            + "seed \(task.seed))")
      }
    }
    group.wait()
    if let error = errors.values.compactMap({ $0 }).first { throw error }

    // Sum folds per (group, seed), then summarise over seeds.
    var reports: [TransferReport.GroupResult] = []
    for (g, group) in groups.enumerated() {
      var perSeed: [[ScoreCounter]] = []
      for seed in configuration.seeds {
        var merged = [counter(), counter()]
        for (index, task) in tasks.enumerated() where task.group == g && task.seed == seed {
          guard let counters = results.values[index] else { continue }
          for m in 0..<2 { merged[m].merge(counters[m]) }
        }
        perSeed.append(merged)
      }
      let thresholds = thresholdResults.values[g] ?? [counter(), counter()]
      let present = (0..<classCount).filter { c in
        !negative[c] && thresholds[0].counts[c].reduce(0, +) > 0
      }
      func summary(_ name: String, _ counters: [ScoreCounter]) -> TransferReport.MethodResult {
        TransferReport.MethodResult(
          method: name,
          seeds: counters.map { TransferScore(counter: $0, present: present, negative: negative) })
      }
      let testSubjects = Set(
        group.folds.flatMap { $0.test.map { dataset.recordings[$0].subject } })
      reports.append(
        TransferReport.GroupResult(
          name: group.name, kind: group.kind, classes: present.map { dataset.labels[$0] },
          testSubjects: testSubjects.sorted(by: naturalOrder),
          testSamples: thresholds[0].samples, folds: group.folds.count,
          methods: [
            summary("learned, single windows", perSeed.map { $0[0] }),
            summary("learned, streamed", perSeed.map { $0[1] }),
            summary("thresholds, tuned", [thresholds[0]]),
            summary("thresholds, tuned, vote of \(configuration.voteLength)", [thresholds[1]]),
          ]))
    }
    let pushUps =
      configuration.pushUpFolds > 0
      ? try pushUps(
        data: data, spec: spec, configuration: configuration, axes: axes, progress: progress)
      : nil
    return TransferReport(
      manifest: data.manifest.name ?? data.manifestFile, classes: dataset.classLabels,
      negativeLabels: dataset.negativeLabels, sampleRateHz: rate,
      seeds: configuration.seeds, featureSpec: describe(spec),
      training: describe(configuration.training), streamed: configuration.streamed.description,
      groups: reports, pushUps: pushUps)
  }

  /// One stream per test subject and placement, recordings joined in natural session order.
  static func testStreams(recordings indices: [Int], data: ManifestLoadResult)
    -> [BenchmarkStream]
  {
    let dataset = data.result.dataset
    var keys: [String] = []
    var members: [String: [Recording]] = [:]
    for index in indices {
      let r = dataset.recordings[index]
      let key = r.subject + "|" + (data.placement(of: r) ?? "")
      if members[key] == nil { keys.append(key) }
      members[key, default: []].append(r)
    }
    return keys.map { key in
      BenchmarkStream.make(
        name: key, recordings: members[key] ?? [], channelCount: dataset.channels.count,
        knownRepetitions: data.knownRepetitions)
    }
  }

  static func describe(_ spec: FeatureSpec) -> String {
    let channels = spec.channels + spec.decomposedChannelNames
    return "\(spec.featureNames.count) features on \(channels.joined(separator: ", ")); window "
      + "\(spec.windowLength), hop \(spec.hopLength) samples at \(spec.sampleRateHz) Hz"
  }

  static func describe(_ options: TrainingOptions) -> String {
    var parts = [options.model.rawValue]
    if options.model == .mlp {
      parts.append("hidden \(options.hiddenLayerSizes.map(String.init).joined(separator: ","))")
    }
    if let l2 = options.l2Penalty { parts.append("l2 \(l2)") }
    if let augmentation = options.augmentation, augmentation.copies > 0 {
      parts.append("augment \(augmentation.copies) x \(augmentation.perturbation)")
    }
    parts.append(
      "negatives \(options.negatives.rawValue)"
        + (options.negatives == .learnAsClass ? " (rate \(options.negativeRate))" : ""))
    if options.classWeighting == .none { parts.append("no class weights") }
    if options.noveltyComponents > 0 {
      parts.append("novelty \(options.noveltyComponents) components, rate \(options.noveltyRate)")
    }
    return parts.joined(separator: ", ")
  }
}

/// Thread-safe slots for results computed concurrently.
final class ResultBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var values: [Value?]

  init(count: Int) { values = [Value?](repeating: nil, count: count) }

  func set(_ index: Int, _ value: Value) {
    lock.lock()
    values[index] = value
    lock.unlock()
  }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value
  }
}
