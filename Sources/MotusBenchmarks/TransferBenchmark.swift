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
import MotusIngest
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
    /// What the learned model's validation part (calibration, confidence levels) holds out.
    public var validationGroup = Trainer.ValidationGroup.source
    /// The stream's smoothing for the "streamed" rows.
    public var streamed: Smoothing = .hiddenMarkov(
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
    /// Jobs run at once: models trained, folds tuned, recordings windowed (each on one core;
    /// OpenBLAS is single-threaded). Results do not depend on it.
    public var parallelism = ProcessInfo.processInfo.activeProcessorCount
    /// Folds of the runs of the push-up source with known counts, held out within it (0, the
    /// default: none; the held-out push-up sources are counted in their own groups).
    public var pushUpFolds = 0
    /// Seeds the random sensor rotation of each held-out push-up set.
    public var rotationSeed: UInt64 = 7
    /// Keep every held-out window's calibrated probabilities and novelty score
    /// (`TransferReport.windows`), for studying smoothing and unknown rules without training.
    public var keepWindows = false
    /// Structure of the motion in the learned engine's streams (`StreamConfiguration`'s
    /// settings of the same names and defaults; trips act in the streamed rows' smoother
    /// only).
    public var pushUpGate: PushUpGate? = StreamConfiguration().pushUpGate
    public var trips: TripRule? = StreamConfiguration().trips
    public var evidence = StreamConfiguration().evidence
    /// More streamed rows, each `"learned, streamed, " + name` with its own structure
    /// settings, from the same trained models: a rule with and without at the cost of one
    /// training. Their push-up sets of known count are not streamed.
    public var variants: [Variant] = []

    /// A streamed row's structure settings.
    public struct Variant: Sendable {
      public var name: String
      public var pushUpGate: PushUpGate?
      public var trips: TripRule?
      public var evidence: ClassEvidence

      public init(
        name: String, pushUpGate: PushUpGate?, trips: TripRule?,
        evidence: ClassEvidence = StreamConfiguration().evidence
      ) {
        self.name = name
        self.pushUpGate = pushUpGate
        self.trips = trips
        self.evidence = evidence
      }
    }

    public init() {}

    /// The stream settings of the learned engine's rows at `rate`, with `smoothing`.
    func streamSettings(rate: Double, smoothing: Smoothing) -> StreamConfiguration {
      var settings = StreamConfiguration()
      settings.inputRateHz = rate
      settings.smoothing = smoothing
      settings.pushUpGate = pushUpGate
      settings.trips = trips
      settings.evidence = evidence
      return settings
    }

    /// The streamed settings of the rows after the first two: one per variant.
    func variantSettings(rate: Double) -> [StreamConfiguration] {
      variants.map { variant in
        var settings = streamSettings(rate: rate, smoothing: streamed)
        settings.pushUpGate = variant.pushUpGate
        settings.trips = variant.trips
        settings.evidence = variant.evidence
        return settings
      }
    }

    /// The streamed rows' settings as the report states them.
    var streamedDescription: String {
      ([streamed.description]
        + [pushUpGate?.description, trips?.description, evidence.description].compactMap { $0 })
        .joined(separator: "; ")
    }
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
  public static func groups(data: WholeLoad, configuration: Configuration) -> [Group] {
    let recordings = data.result.dataset.recordings
    let sourceOf = recordings.map { data.sourceName(of: $0) }
    let sources = data.manifest?.sources ?? []
    let sourceNames = sources.map(\.name).filter { name in
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
    for source in sources where source.placementSeparator != nil {
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

  /// Runs every group (and the push-up section when `pushUpFolds > 0`).
  ///
  /// - Parameters:
  ///   - data: A loaded manifest with raw acceleration axes (for the threshold rules).
  ///   - progress: Called with a short description of each finished step.
  /// - Throws: `BenchmarkError.missingChannels`, and feature or training errors.
  public static func run(
    data: WholeLoad, configuration: Configuration = .init(),
    progress: (@Sendable (String) -> Void)? = nil
  ) throws -> TransferReport {
    let setup = try Setup(data: data, configuration: configuration)
    let thresholds = try thresholdScores(setup)
    progress?("tuned and ran the threshold rules for \(setup.groups.count) groups")
    let learned = try learnedScores(setup, progress: progress)
    let groups = setup.groups.indices.map { g in
      summary(setup, group: g, thresholds: thresholds[g], learned: learned[g])
    }
    let pushUps =
      configuration.pushUpFolds > 0
      ? try pushUps(
        data: data, spec: setup.spec, configuration: configuration, axes: setup.axes,
        progress: progress)
      : nil
    let dataset = data.result.dataset
    let windows = configuration.keepWindows ? learned.flatMap { $0.flatMap(\.windows) } : nil
    return TransferReport(
      manifest: data.manifest?.name ?? data.manifestFile ?? "", classes: dataset.classLabels,
      negativeLabels: dataset.negativeLabels, sampleRateHz: setup.rate,
      seeds: configuration.seeds, featureSpec: describe(setup.spec),
      training: describe(configuration.training), streamed: configuration.streamedDescription,
      groups: groups, pushUps: pushUps, windows: windows)
  }

  /// What every step shares: the data, the groups and their test streams, the learned
  /// model's feature spec.
  struct Setup: Sendable {
    let data: WholeLoad
    let configuration: Configuration
    let axes: [Int]
    let rate: Double
    let spec: FeatureSpec
    let groups: [Group]
    /// `[group][fold]`: one stream per test subject and placement.
    let streams: [[[BenchmarkStream]]]
    /// `[group][fold]`: each test recording of known repetition count (a push-up set) as its
    /// own stream, as recorded and under a random sensor rotation.
    let knownSets: [[[HeldOutSet]]]
    let negative: [Bool]

    init(data: WholeLoad, configuration: Configuration) throws {
      let dataset = data.result.dataset
      let acceleration = AccuracyBenchmark.acceleration
      axes = acceleration.compactMap { dataset.channels.firstIndex(of: $0) }
      guard axes.count == 3 else {
        throw BenchmarkError.missingChannels(needed: acceleration, available: dataset.channels)
      }
      self.data = data
      self.configuration = configuration
      rate = dataset.recordings.first?.sampleRateHz ?? 1
      spec = try configuration.features.spec(for: data.result)
      groups = TransferBenchmark.groups(data: data, configuration: configuration)
      guard !groups.isEmpty else { throw BenchmarkError.noTransferGroups }
      let held = self.groups
      // Each group's streams joined on its own core.
      streams = parallelMap(count: held.count, parallelism: configuration.parallelism) { g in
        held[g].folds.map { TransferBenchmark.testStreams(recordings: $0.test, data: data) }
      }
      knownSets = parallelMap(count: held.count, parallelism: configuration.parallelism) { g in
        TransferBenchmark.heldOutSets(
          data: data,
          folds: held[g].folds.map { fold in
            (
              fold.training,
              fold.test.filter { data.knownRepetitions[dataset.recordings[$0].session] != nil }
            )
          }, seed: configuration.rotationSeed)
      }
      negative = dataset.labels.indices.map { dataset.isNegative(labelIndex: $0) }
    }

    var dataset: Dataset { data.result.dataset }

    func counter() -> ScoreCounter {
      ScoreCounter(classCount: dataset.labels.count, sampleRateHz: rate, stableSeconds: 3)
    }

    /// The dataset restricted to a fold's training recordings.
    func training(group: Int, fold: Int) -> Dataset {
      var training = dataset
      training.recordings = groups[group].folds[fold].training.map { dataset.recordings[$0] }
      return training
    }
  }

  /// Per group, the threshold rules tuned on each fold's training recordings (no seed):
  /// `[raw, vote of voteLength]`, summed over folds; and on the group's sets of known
  /// repetition count, the voted rules and the earbud counter, `[as recorded, rotated]`.
  /// Every fold of every group is tuned and run on its own core; folds are summed in order.
  static func thresholdScores(_ setup: Setup) throws
    -> [(counters: [ScoreCounter], rules: [Tally], counter: [Tally])]
  {
    let jobs = setup.groups.indices.flatMap { g in
      setup.groups[g].folds.indices.map { f in (group: g, fold: f) }
    }
    let results = parallelMap(count: jobs.count, parallelism: setup.configuration.parallelism) {
      thresholdFold(setup, group: jobs[$0].group, fold: jobs[$0].fold)
    }
    var merged = setup.groups.map { _ in
      (
        counters: [setup.counter(), setup.counter()], rules: [Tally(), Tally()],
        counter: [Tally(), Tally()]
      )
    }
    for (job, result) in zip(jobs, results) {
      for k in 0..<2 {
        merged[job.group].counters[k].merge(result.counters[k])
        merged[job.group].rules[k].merge(result.rules[k])
        merged[job.group].counter[k].merge(result.counter[k])
      }
    }
    return merged
  }

  /// One fold's threshold rules: `thresholdScores` for fold `f` of group `g` alone.
  static func thresholdFold(_ setup: Setup, group g: Int, fold f: Int)
    -> (counters: [ScoreCounter], rules: [Tally], counter: [Tally])
  {
    let configuration = setup.configuration
    let labels = setup.dataset.labels
    let pushUp = Int32(labels.firstIndex(of: ThresholdActivity.pushUp.rawValue) ?? -1)
    var counters = [setup.counter(), setup.counter()]
    let tuned = StreamReplay.tuneThresholds(
      recordings: setup.training(group: g, fold: f).recordings, axes: setup.axes,
      labels: labels, windowSeconds: configuration.thresholdWindowSeconds)
    for stream in setup.streams[g][f] {
      for (k, voteLength) in [1, configuration.voteLength].enumerated() {
        let run = StreamReplay.thresholds(
          cutoffs: tuned.cutoffs, voteLength: voteLength,
          windowSeconds: configuration.thresholdWindowSeconds, stream: stream,
          axes: setup.axes, labels: labels)
        counters[k].add(truth: stream.truth, predicted: run.labels)
      }
    }
    let baseline = baselinePushUps(
      sets: setup.knownSets[g][f], cutoffs: tuned.cutoffs, configuration: configuration,
      axes: setup.axes, labels: labels, pushUp: pushUp)
    return (counters, baseline.rules, baseline.counter)
  }

  /// One trained model's results on its fold: scores `[single windows, streamed]`, the
  /// calibration of both, and push-up sets of known count `[as recorded, rotated]`.
  struct LearnedRun: Sendable {
    var counters: [ScoreCounter]
    var calibration: [CalibrationCounter]
    var pushUps = [Tally(), Tally()]
    var windows: [TransferReport.HeldOutWindow] = []

    /// Rows: single windows, streamed, then one per configured variant.
    init(_ setup: Setup) {
      counters = (0..<(2 + setup.configuration.variants.count)).map { _ in setup.counter() }
      calibration = counters.map { _ in CalibrationCounter() }
    }

    mutating func merge(_ other: LearnedRun) {
      for k in counters.indices {
        counters[k].merge(other.counters[k])
        calibration[k].merge(other.calibration[k])
      }
      for k in 0..<2 { pushUps[k].merge(other.pushUps[k]) }
      windows += other.windows
    }
  }

  /// Every recording's windows and those of its perturbed copies, one table per seed: each
  /// fold trains on the rows of its training recordings, so windows and copies are made once
  /// (a copy of a recording is the same in every fold that trains on it). The recordings'
  /// own windows, the same for every seed, are made once; every part (a run of recordings,
  /// as recorded or one seed's copy) is perturbed and windowed on its own core, and the parts
  /// join in order, so the tables do not depend on `parallelism`.
  static func windowTables(_ setup: Setup) throws -> [WindowTable] {
    let options = setup.configuration.training
    try Trainer.checkAugmentation(options)
    let extractor = try FeatureExtractor(spec: setup.spec)
    let dataset = setup.dataset
    let seeds = setup.configuration.seeds
    let copies = seeds.map { SendableCopies(copies: options.augmentation?.windowCopies(seed: $0)) }
    let numbers = copies.first?.copies?.numbers ?? []
    if !numbers.isEmpty {
      let window = SlidingWindow(length: setup.spec.windowLength, hop: setup.spec.hopLength)
      try WindowTable.checkMemory(
        windowCount: window.count(in: dataset.recordings) * (1 + seeds.count * numbers.count),
        featureCount: extractor.featureCount,
        hint: "use a longer --hop, fewer features or --augment copies, or less data at once.")
    }
    let parts = recordingParts(dataset.recordings, count: 4 * setup.configuration.parallelism)
    // Job (copy 0, the recordings as they are, with no seed) or (seed, copy number), per part.
    let kinds =
      [(seed: 0, number: 0)] + seeds.indices.flatMap { s in numbers.map { (seed: s, number: $0) } }
    var tables: [WindowTable?] = try parallelMap(
      count: kinds.count * parts.count, parallelism: setup.configuration.parallelism
    ) { job in
      let (kind, range) = (kinds[job / parts.count], parts[job % parts.count])
      var part = dataset
      part.recordings = Array(dataset.recordings[range])
      if kind.number > 0, let make = copies[kind.seed].copies?.make {
        part = try make(kind.number, part, range.lowerBound)
      }
      return try WindowTable.make(dataset: part, extractor: extractor, minimumPurity: 0)
    }
    // Each part is let go as it joins, so that no part outlives its joining.
    func joined(_ kind: Int) -> WindowTable {
      var kindParts: [WindowTable] = []
      for i in (kind * parts.count)..<((kind + 1) * parts.count) {
        if let part = tables[i] { kindParts.append(part) }
        tables[i] = nil
      }
      return WindowTable.join(&kindParts)
    }
    let recorded = joined(0)
    return seeds.indices.map { s in
      var all = [recorded] + numbers.indices.map { joined(1 + s * numbers.count + $0) }
      return WindowTable.join(&all)
    }
  }

  /// `WindowTable.Copies` made by `Augmentation.windowCopies`, whose `make` only reads the
  /// augmentation and the seed it captured.
  struct SendableCopies: @unchecked Sendable { let copies: WindowTable.Copies? }

  /// Up to `count` contiguous runs of recordings with about the same number of samples.
  static func recordingParts(_ recordings: [Recording], count: Int) -> [Range<Int>] {
    guard !recordings.isEmpty else { return [0..<0] }
    let total = max(1, recordings.reduce(0) { $0 + $1.sampleCount })
    var parts: [Range<Int>] = []
    var start = 0
    var done = 0
    for (i, r) in recordings.enumerated() {
      done += r.sampleCount
      // Close a part where the samples so far reach its share of the whole.
      if done * count >= total * (parts.count + 1) || i == recordings.count - 1 {
        parts.append(start..<(i + 1))
        start = i + 1
      }
    }
    return parts
  }

  /// Per group and seed, the learned engine, each fold's model trained without the fold's
  /// test recordings, summed over folds.
  static func learnedScores(_ setup: Setup, progress: (@Sendable (String) -> Void)?) throws
    -> [[LearnedRun]]
  {
    let configuration = setup.configuration
    let tables = try windowTables(setup)
    progress?("windowed every recording and its copies for \(tables.count) seeds")
    let jobs = setup.groups.indices.flatMap { g in
      setup.groups[g].folds.indices.flatMap { f in
        configuration.seeds.indices.map { s in (group: g, fold: f, seed: s) }
      }
    }
    let recordingCount = setup.dataset.recordings.count
    let done = ConcurrentSlots<Int>(count: 1)
    let results = try parallelMap(count: jobs.count, parallelism: configuration.parallelism) {
      index in
      let job = jobs[index]
      var options = configuration.training
      options.seed = configuration.seeds[job.seed]
      var training = [Bool](repeating: false, count: recordingCount)
      for r in setup.groups[job.group].folds[job.fold].training { training[r] = true }
      // Copies are numbered after the recordings: copy k of recording r is row r + k·R.
      let table = tables[job.seed].keepingRecordings { training[$0 % recordingCount] }
      let model = try Trainer.train(
        windows: table, negativeLabels: setup.dataset.negativeLabels, spec: setup.spec,
        validationGroup: configuration.validationGroup, options: options,
        sourceWeights: setup.data.sourceWeights
      ).model
      var run = try stream(model: model, setup: setup, group: job.group, fold: job.fold)
      if configuration.keepWindows {
        let held = Set(setup.groups[job.group].folds[job.fold].test)
        run.windows = heldOutWindows(
          model: model, table: tables[job.seed].keepingRecordings { held.contains($0) },
          group: setup.groups[job.group].name, fold: job.fold, seed: options.seed)
      }
      progress?(
        "trained and streamed \(done.increment()) of \(jobs.count) models "
          + "(\(setup.groups[job.group].name), seed \(options.seed))")
      return run
    }
    var merged = setup.groups.map { _ in
      configuration.seeds.map { _ in LearnedRun(setup) }
    }
    for (job, run) in zip(jobs, results) { merged[job.group][job.seed].merge(run) }
    return merged
  }

  /// Every window of `table` (a fold's held-out recordings) with `model`'s calibrated
  /// probabilities and novelty score.
  static func heldOutWindows(
    model: TrainedModel, table: WindowTable, group: String, fold: Int, seed: UInt64
  ) -> [TransferReport.HeldOutWindow] {
    let probabilities = model.predictProbabilities(table.features)
    let novelty = model.noveltyScores(table.features)
    let k = probabilities.columnCount
    return (0..<table.windowCount).map { i in
      TransferReport.HeldOutWindow(
        group: group, fold: fold, seed: seed, session: table.session(at: i),
        start: table.startTimes[i], label: table.label(at: i),
        probabilities: Array(probabilities.values[(i * k)..<((i + 1) * k)]),
        classes: model.classes, noveltyScore: novelty?[i],
        noveltyThreshold: model.novelty?.threshold)
    }
  }

  /// `model` on a fold's test streams, without and with the stream's smoothing, and on its
  /// push-up sets of known count (each from a fresh engine, as recorded and rotated).
  static func stream(model: TrainedModel, setup: Setup, group g: Int, fold f: Int) throws
    -> LearnedRun
  {
    let configuration = setup.configuration
    var run = LearnedRun(setup)
    let rows =
      [Smoothing.none, configuration.streamed].map {
        configuration.streamSettings(rate: setup.rate, smoothing: $0)
      } + configuration.variantSettings(rate: setup.rate)
    for stream in setup.streams[g][f] {
      for (k, settings) in rows.enumerated() {
        let replay = try StreamReplay.engine(
          model: model, configuration: settings, stream: stream,
          channels: setup.dataset.channels, labels: setup.dataset.labels)
        run.counters[k].add(truth: stream.truth, predicted: replay.labels)
        run.calibration[k].add(
          truth: stream.truth, predicted: replay.labels, probability: replay.probabilities,
          level: replay.confidenceLevels, negative: setup.negative)
      }
    }
    let pushUp = Int32(setup.dataset.labels.firstIndex(of: ThresholdActivity.pushUp.rawValue) ?? -1)
    let settings = configuration.streamSettings(rate: setup.rate, smoothing: configuration.streamed)
    for set in setup.knownSets[g][f] {
      for (k, stream) in [set.plain, set.rotated].enumerated() {
        let replay = try StreamReplay.engine(
          model: model, configuration: settings, stream: stream,
          channels: setup.dataset.channels, labels: setup.dataset.labels)
        run.pushUps[k].add(
          labels: replay.labels, pushUp: pushUp, known: set.known, counted: replay.repetitions)
      }
    }
    return run
  }

  /// One group's report: its classes (those with samples), and every method's scores.
  static func summary(
    _ setup: Setup, group g: Int,
    thresholds: (counters: [ScoreCounter], rules: [Tally], counter: [Tally]),
    learned: [LearnedRun]
  ) -> TransferReport.GroupResult {
    let dataset = setup.dataset
    let group = setup.groups[g]
    let present = dataset.labels.indices.filter { c in
      !setup.negative[c] && thresholds.counters[0].counts[c].reduce(0, +) > 0
    }
    func result(_ name: String, _ counters: [ScoreCounter], _ calibration: [CalibrationCounter]?)
      -> TransferReport.MethodResult
    {
      TransferReport.MethodResult(
        method: name,
        seeds: counters.indices.map {
          TransferScore(
            counter: counters[$0], present: present, negative: setup.negative,
            calibration: calibration?[$0])
        })
    }
    let testSubjects = Set(group.folds.flatMap { $0.test.map { dataset.recordings[$0].subject } })
    let voted = "thresholds, tuned, vote of \(setup.configuration.voteLength)"
    var pushUps: [PushUpResult]? = nil
    if setup.knownSets[g].contains(where: { !$0.isEmpty }) {
      pushUps = [false, true].enumerated().flatMap { k, rotated in
        [
          PushUpResult(
            method: "learned, streamed", rotated: rotated,
            seeds: learned.map { $0.pushUps[k].score }),
          PushUpResult(method: voted, rotated: rotated, seeds: [thresholds.rules[k].score]),
          PushUpResult(
            method: "earbud counter on chest axes, -0.7/+0.4 g", rotated: rotated,
            seeds: [thresholds.counter[k].score]),
        ]
      }
    }
    return TransferReport.GroupResult(
      name: group.name, kind: group.kind, classes: present.map { dataset.labels[$0] },
      testSubjects: testSubjects.sorted(by: naturalOrder),
      testSamples: thresholds.counters[0].samples,
      folds: group.folds.count,
      methods: [
        result(
          "learned, single windows", learned.map { $0.counters[0] },
          learned.map { $0.calibration[0] }),
        result(
          "learned, streamed", learned.map { $0.counters[1] }, learned.map { $0.calibration[1] }),
        result("thresholds, tuned", [thresholds.counters[0]], nil),
        result(voted, [thresholds.counters[1]], nil),
      ]
        + setup.configuration.variants.enumerated().map { v, variant in
          result(
            "learned, streamed, \(variant.name)", learned.map { $0.counters[2 + v] },
            learned.map { $0.calibration[2 + v] })
        }, pushUps: pushUps)
  }

  /// One stream per test subject and placement, recordings joined in natural session order.
  static func testStreams(recordings indices: [Int], data: WholeLoad)
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
    let model = options.model
    var parts = [model.family.rawValue]
    if model.family == .mlp {
      parts.append("hidden \(model.hiddenLayerSizes.map(String.init).joined(separator: ","))")
    }
    // The penalty is named when it is not the estimator's own default.
    let l2 = model.shared.l2Penalty
    if l2 != ModelChoice(model.family).shared.l2Penalty { parts.append("l2 \(l2)") }
    if let augmentation = options.augmentation, augmentation.copies > 0 {
      parts.append("augment \(augmentation.copies) x \(augmentation.perturbation)")
    }
    parts.append(
      "negatives \(options.negatives.rawValue)"
        + (options.negatives == .learnAsClass ? " (rate \(options.negativeRate))" : ""))
    let weighting = model.shared.classWeighting
    parts.append(
      weighting == .none
        ? "no class weights" : "class weights \(ClassWeighting.write(weighting))")
    if options.sourceBalance != .none {
      parts.append("sources balanced \(options.sourceBalance.rawValue)")
    }
    if options.noveltyComponents > 0 {
      parts.append("novelty \(options.noveltyComponents) components, rate \(options.noveltyRate)")
    }
    return parts.joined(separator: ", ")
  }
}
