// What `motus bench transfer` reports: per held-out group and method, per-sample scores over the
// classes the group has (negative-label samples left out), how often negatives and real
// classes are answered unknown, the calibration of the learned engine's shown probability,
// and the median and range over seeds.

import MotusModels

/// Per-sample scores of one method on one held-out group, for one seed.
public struct TransferScore: Codable, Sendable, Equatable {
  /// Over the group's classes (those with samples), on their samples only.
  public var macroF1: Double
  public var accuracy: Double
  /// Recall of each of the group's classes, in `GroupResult.classes` order.
  public var recall: [Double]
  /// Share of class samples answered unknown.
  public var lostToUnknown: Double
  /// Share of negative-label samples answered unknown; nil when the group has none.
  public var negativesUnknown: Double?
  public var samples: Int
  /// Sample counts `[truth][predicted]` over the dataset's labels (rows of labels with no
  /// samples are all 0); the last two columns count samples with no label yet and samples
  /// answered unknown.
  public var confusion: [[Int]]
  /// Expected calibration error of the shown probability (10 bins), over samples of the
  /// group's classes answered with a class; nil for methods without probabilities.
  public var expectedCalibrationError: Double?
  /// Share and accuracy of each confidence level over the same samples; empty for methods
  /// without confidence.
  public var levels: [LevelScore]
  /// Per class of the report (`TransferReport.classes`, every non-negative label, present in
  /// the group or not): right answers over every sample answered the class, negative truths
  /// counting as false positives; nil when the class was never answered.
  public var precision: [Double?]
  /// Per class of the report: samples answered the class whose truth is another class or a
  /// negative label (false alarms), in minutes per hour of the group's samples.
  public var falseAlarmMinutesPerHour: [Double]
  /// Per class of the report: false alarms over the group's samples whose truth is another
  /// label, negatives included (over every sample of a group without the class).
  public var falseAlarmRate: [Double]

  /// One confidence level's share of the answers and how often it was right.
  public struct LevelScore: Codable, Sendable, Equatable {
    public var level: ConfidenceLevel
    public var share: Double
    /// nil when the level was never given.
    public var accuracy: Double?
  }

  init(
    counter: ScoreCounter, present: [Int], negative: [Bool],
    calibration: CalibrationCounter? = nil
  ) {
    let k = counter.classCount
    let unknownColumn = k + 1
    var f1: [Double] = []
    var recall: [Double] = []
    var correct = 0
    var total = 0
    var unknown = 0
    for c in present {
      let row = counter.counts[c]
      let support = row.reduce(0, +)
      let tp = row[c]
      var fp = 0
      for t in present where t != c { fp += counter.counts[t][c] }
      let d = Double(2 * tp + fp + (support - tp))
      f1.append(d > 0 ? Double(2 * tp) / d : 0)
      recall.append(support > 0 ? Double(tp) / Double(support) : 0)
      correct += tp
      total += support
      unknown += row[unknownColumn]
    }
    var negatives = 0
    var negativesUnknown = 0
    for t in 0..<k where negative[t] {
      negatives += counter.counts[t].reduce(0, +)
      negativesUnknown += counter.counts[t][unknownColumn]
    }
    macroF1 = f1.isEmpty ? 0 : f1.reduce(0, +) / Double(f1.count)
    accuracy = total > 0 ? Double(correct) / Double(total) : 0
    self.recall = recall
    lostToUnknown = total > 0 ? Double(unknown) / Double(total) : 0
    self.negativesUnknown = negatives > 0 ? Double(negativesUnknown) / Double(negatives) : nil
    samples = total + negatives
    confusion = counter.counts
    expectedCalibrationError = calibration?.expectedCalibrationError
    levels = calibration?.levels ?? []
    let classes = (0..<k).filter { !negative[$0] }
    let alarms = counter.falseAlarms(negative: negative)
    precision = classes.map { alarms.precision[$0] }
    falseAlarmMinutesPerHour = classes.map { alarms.minutesPerHour[$0] }
    falseAlarmRate = classes.map { alarms.rate[$0] }
  }
}

/// The median and range of one figure over seeds.
public struct SeedSummary: Codable, Sendable, Equatable {
  public var median: Double
  public var min: Double
  public var max: Double

  /// Median (the mean of the middle two for an even count), minimum and maximum; nil when
  /// `values` is empty.
  public init?(_ values: [Double]) {
    let sorted = values.sorted()
    guard let first = sorted.first, let last = sorted.last else { return nil }
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    min = first
    max = last
  }
}

/// The whole transfer table.
public struct TransferReport: Codable, Sendable, Equatable {
  public struct MethodResult: Codable, Sendable, Equatable {
    public var method: String
    /// One score per seed (one for methods without a seed).
    public var seeds: [TransferScore]

    public var macroF1: SeedSummary? { SeedSummary(seeds.map(\.macroF1)) }
    public var accuracy: SeedSummary? { SeedSummary(seeds.map(\.accuracy)) }
    public var lostToUnknown: SeedSummary? { SeedSummary(seeds.map(\.lostToUnknown)) }
    public var negativesUnknown: SeedSummary? { SeedSummary(seeds.compactMap(\.negativesUnknown)) }
    public var expectedCalibrationError: SeedSummary? {
      SeedSummary(seeds.compactMap(\.expectedCalibrationError))
    }
    /// Median over seeds of how often `level` answers were right (seeds that never gave it
    /// left out), and of its share of the answers.
    public func level(_ level: ConfidenceLevel) -> (share: Double, accuracy: Double?)? {
      let scores = seeds.compactMap { $0.levels.first { $0.level == level } }
      guard let share = SeedSummary(scores.map(\.share))?.median else { return nil }
      return (share, SeedSummary(scores.compactMap(\.accuracy))?.median)
    }
    /// Median over seeds of each class's precision (seeds that never answered it left out;
    /// nil when none did), in `TransferReport.classes` order.
    public var precision: [Double?] {
      guard let count = seeds.first?.precision.count else { return [] }
      return (0..<count).map { c in SeedSummary(seeds.compactMap { $0.precision[c] })?.median }
    }
    /// Median over seeds of each class's false alarms per hour, in `TransferReport.classes`
    /// order.
    public var falseAlarmMinutesPerHour: [Double] { medians(\.falseAlarmMinutesPerHour) }
    /// Median over seeds of each class's false-alarm rate, in `TransferReport.classes` order.
    public var falseAlarmRate: [Double] { medians(\.falseAlarmRate) }
    private func medians(_ figure: KeyPath<TransferScore, [Double]>) -> [Double] {
      guard let count = seeds.first?[keyPath: figure].count else { return [] }
      return (0..<count).map { c in SeedSummary(seeds.map { $0[keyPath: figure][c] })?.median ?? 0 }
    }
    /// Median recall per class.
    public var recall: [Double] {
      guard let count = seeds.first?.recall.count else { return [] }
      return (0..<count).map { c in SeedSummary(seeds.map { $0.recall[c] })?.median ?? 0 }
    }
  }

  public struct GroupResult: Codable, Sendable, Equatable {
    public var name: String
    public var kind: TransferBenchmark.Group.Kind
    /// The six-class labels the group has, in dataset order.
    public var classes: [String]
    public var testSubjects: [String]
    public var testSamples: Int
    public var folds: Int
    public var methods: [MethodResult]
    /// Push-up sets of known repetition count among the held-out recordings, each streamed
    /// from a fresh engine as recorded and rotated; nil when the group has none.
    public var pushUps: [TransferBenchmark.PushUpResult]?

    /// The learned engine's streamed macro-F1 median minus the better threshold variant's.
    public var streamedMargin: Double? {
      guard let learned = methods.first(where: { $0.method == "learned, streamed" })?.macroF1,
        let best = methods.filter({ $0.method.hasPrefix("thresholds") })
          .compactMap({ $0.macroF1?.median }).max()
      else { return nil }
      return learned.median - best
    }
  }

  public var manifest: String
  public var classes: [String]
  public var negativeLabels: [String]
  public var sampleRateHz: Double
  public var seeds: [UInt64]
  /// The learned model's features and training, in words.
  public var featureSpec: String
  public var training: String
  public var streamed: String
  public var groups: [GroupResult]
  /// Push-up runs held out, as recorded and rotated; nil when not run.
  public var pushUps: TransferBenchmark.PushUpReport?
  /// Every held-out window's probabilities (`Configuration.keepWindows`); nil otherwise.
  public var windows: [HeldOutWindow]?

  /// One held-out window as the learned model of its group, fold and seed scored it.
  public struct HeldOutWindow: Codable, Sendable, Equatable {
    public var group: String
    public var fold: Int
    public var seed: UInt64
    public var session: String
    /// Seconds from the recording's start.
    public var start: Double
    /// The window's majority label.
    public var label: String
    /// Calibrated, in `classes` order.
    public var probabilities: [Float]
    public var classes: [String]
    public var noveltyScore: Float?
    public var noveltyThreshold: Float?
  }

  /// Median, over groups with two or more classes, of the learned engine's streamed median
  /// accuracy. A one-class group held out with its source has no class left to learn (the
  /// push-up source), so its zero says nothing about transfer; the margins skip it too.
  public var medianStreamedAccuracy: Double? {
    SeedSummary(
      groups.filter { $0.classes.count >= 2 }.compactMap { group in
        group.methods.first { $0.method == "learned, streamed" }?.accuracy?.median
      })?.median
  }
}
