// The scored windows of one evaluation and every summary drawn from them.
// N = windows, K = model classes. Probabilities are calibrated, `[N, K]`, rows sum to 1.

import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusStreaming
import MotusTraining

/// Per-window predictions of a model on labelled data, with metrics and breakdowns.
public struct EvaluationResult: Sendable {
  /// The model's classes: indices in `truth`, `predicted` and probability columns.
  public var classes: [String]
  /// True class of each window (its majority label). Shape `[N]`.
  public var truth: [Int]
  /// Most probable class of each window (the unknown threshold is not applied). Shape `[N]`.
  public var predicted: [Int]
  /// Calibrated probabilities, `[N, K]`.
  public var probabilities: Matrix
  /// Recording (session name, `#k` after a gap) and subject of each window. Shape `[N]`.
  public var sessions: [String]
  public var subjects: [String]
  /// Timestamp in seconds of each window's first sample. Shape `[N]`.
  public var startTimes: [Double]

  public var confusion: ConfusionMatrix
  public var accuracy: Double
  public var macroF1: Double
  public var balancedAccuracy: Double
  /// Mean negative log-likelihood (natural log) of the true class.
  public var logLoss: Double
  /// Expected calibration error over `reliability`'s 15 bins.
  public var expectedCalibrationError: Double
  /// One entry per model class, in `classes` order.
  public var perClass: [ClassMetrics]
  /// Worst first: lowest accuracy, then lowest macro-F1, then name.
  public var perSubject: [GroupMetrics]
  public var perSession: [GroupMetrics]
  /// Per data source, worst first, when every subject is named `source:subject` as a manifest
  /// names them (`motionsense:17`); empty otherwise.
  public var perSource: [GroupMetrics]
  /// 15 equal-width confidence bins (`Metrics.expectedCalibrationError`'s binning).
  public var reliability: [ReliabilityBin]
  /// Recordings that gave no window (shorter than one window, or dropped while loading).
  public var skippedRecordings: [SkippedRecording]
  /// Windows dropped because their majority label covered less than the minimum purity.
  public var droppedImpureCount: Int
  /// The model's window, hop (samples) and rate (Hz).
  public var windowLength: Int
  public var hopLength: Int
  public var sampleRateHz: Double

  public var windowCount: Int { truth.count }
  /// The model's threshold: a top probability below it answers `unknown` (0 = never).
  public var unknownThreshold: Float = 0
  /// How `probabilities` were smoothed over each recording before scoring (see
  /// `Evaluation.run`); `.none` scores single windows.
  public var smoothing: Smoothing = .none
  /// The trips the hidden Markov smoother knew (nil: none, or another smoothing).
  public var trips: TripRule?
  /// The class evidence the hidden Markov smoother asked, when it changed something for this
  /// model's classes (nil: none, or another smoothing).
  public var evidence: ClassEvidence?
  /// `smoothing` as the command line spells it, with its trips and class evidence when it had
  /// them.
  public var smoothingDescription: String {
    smoothing.description + (trips.map { "; \($0)" } ?? "") + (evidence.map { "; \($0)" } ?? "")
  }
  /// Per window, why the model answers unknown for it (nil: it names its top class). Empty
  /// when not computed; the other metrics score every window by its top class.
  public var unknownReasons: [UnknownReason?] = []
  /// Windows of negative labels (activities that are none of the classes), when there were.
  public var negatives: NegativeSummary?

  /// How many windows of negative labels there were and how the model answered them.
  public struct NegativeSummary: Sendable, Equatable {
    public var labels: [String]
    public var windows = 0
    /// Windows answered unknown, by `UnknownReason` raw value.
    public var unknownByReason: [String: Int] = [:]
    /// Windows answered a class, by class: false alarms, since none of the classes is right.
    public var answeredAs: [String: Int] = [:]

    public init(labels: [String]) { self.labels = labels }

    public var answeredUnknown: Int { unknownByReason.values.reduce(0, +) }
    /// Share of the negative windows answered unknown.
    public var unknownShare: Double {
      windows > 0 ? Double(answeredUnknown) / Double(windows) : 0
    }
    /// Share of the negative windows answered `label` (false alarms); nil when none was.
    public func share(answered label: String) -> Double? {
      answeredAs[label].map { Double($0) / Double(max(windows, 1)) }
    }
  }

  /// Share of windows the model names a class for (answers not unknown, for any reason), and
  /// the accuracy on those; NaN accuracy when none is named. Without `unknownReasons`, by the
  /// unknown threshold alone.
  public var named: (coverage: Double, accuracy: Double) {
    guard unknownReasons.count == windowCount else { return selective(threshold: unknownThreshold) }
    var named = 0, correct = 0
    for i in 0..<windowCount where unknownReasons[i] == nil {
      named += 1
      if predicted[i] == truth[i] { correct += 1 }
    }
    return (
      Double(named) / Double(max(windowCount, 1)),
      named > 0 ? Double(correct) / Double(named) : .nan
    )
  }

  /// Windows answered unknown, by reason raw value.
  public var unknownByReason: [String: Int] {
    var counts: [String: Int] = [:]
    for case let reason? in unknownReasons { counts[reason.rawValue, default: 0] += 1 }
    return counts
  }

  /// Share of windows the model names a class for at `threshold` (top probability at or
  /// above it), and the accuracy on those windows; accuracy is NaN when none is named.
  public func selective(threshold: Float) -> (coverage: Double, accuracy: Double) {
    var named = 0, correct = 0
    for i in 0..<windowCount {
      let p = probabilities.row(i)
      guard let top = p.max(), top >= threshold else { continue }
      named += 1
      if predicted[i] == truth[i] { correct += 1 }
    }
    return (
      Double(named) / Double(max(windowCount, 1)),
      named > 0 ? Double(correct) / Double(named) : .nan
    )
  }

  /// Precision, recall, F1 and support of one class.
  public struct ClassMetrics: Sendable, Equatable {
    public var label: String
    public var precision: Double
    public var recall: Double
    public var f1: Double
    /// Windows whose true class this is (0 for a model class absent from the data).
    public var support: Int
  }

  /// Accuracy and macro-F1 of the windows of one subject or session.
  public struct GroupMetrics: Sendable, Equatable {
    public var name: String
    public var windows: Int
    public var accuracy: Double
    /// Over the classes that occur in the group's truth or predictions.
    public var macroF1: Double
  }

  /// One bin `(lower, upper]` of top-class probability.
  public struct ReliabilityBin: Sendable, Equatable {
    public var lower: Double
    public var upper: Double
    public var count: Int
    /// Mean top-class probability in the bin (NaN when empty).
    public var meanConfidence: Double
    /// Fraction of the bin's windows predicted correctly (NaN when empty).
    public var accuracy: Double
  }

  /// A recording that contributed no window.
  public struct SkippedRecording: Sendable, Equatable {
    public var session: String
    public var subject: String
    public var source: String
    public var sampleCount: Int
    public var reason: String

    public init(session: String, subject: String, source: String, sampleCount: Int, reason: String)
    {
      self.session = session
      self.subject = subject
      self.source = source
      self.sampleCount = sampleCount
      self.reason = reason
    }
  }
}

extension EvaluationResult: WindowTiming {}

extension EvaluationResult {
  /// Builds every summary from per-window truth, predictions and probabilities.
  ///
  /// - Parameters:
  ///   - truth, predicted: `N` indices into `classes`; `N >= 1`.
  ///   - probabilities: `[N, classes.count]`.
  ///   - sessions, subjects, startTimes: `N` values each.
  public init(
    classes: [String], truth: [Int], predicted: [Int], probabilities: Matrix,
    sessions: [String], subjects: [String], startTimes: [Double],
    skippedRecordings: [SkippedRecording] = [], droppedImpureCount: Int = 0,
    windowLength: Int, hopLength: Int, sampleRateHz: Double
  ) {
    let n = truth.count
    precondition(
      predicted.count == n && probabilities.rowCount == n && sessions.count == n
        && subjects.count == n && startTimes.count == n,
      "per-window arrays disagree: truth \(n), predicted \(predicted.count), probabilities "
        + "\(probabilities.rowCount), sessions \(sessions.count), subjects \(subjects.count), "
        + "starts \(startTimes.count)")
    precondition(
      probabilities.columnCount == classes.count,
      "\(probabilities.columnCount) probability columns for \(classes.count) classes")
    self.classes = classes
    self.truth = truth
    self.predicted = predicted
    self.probabilities = probabilities
    self.sessions = sessions
    self.subjects = subjects
    self.startTimes = startTimes
    let confusion = ConfusionMatrix(truth: truth, predicted: predicted, classCount: classes.count)
    self.confusion = confusion
    accuracy = confusion.accuracy
    macroF1 = confusion.macroF1
    balancedAccuracy = confusion.balancedAccuracy
    logLoss = Metrics.logLoss(probabilities: probabilities, labels: truth)
    expectedCalibrationError = Metrics.expectedCalibrationError(
      probabilities: probabilities, labels: truth, binCount: Self.reliabilityBinCount)
    perClass = classes.indices.map { c in
      ClassMetrics(
        label: classes[c], precision: confusion.precision(c), recall: confusion.recall(c),
        f1: confusion.f1(c), support: confusion.support(c))
    }
    perSubject = Self.breakdown(
      names: subjects, truth: truth, predicted: predicted, classCount: classes.count)
    perSession = Self.breakdown(
      names: sessions, truth: truth, predicted: predicted, classCount: classes.count)
    let sources = subjects.compactMap(Manifest.source(ofSubject:))
    perSource =
      sources.count == subjects.count
      ? Self.breakdown(
        names: sources, truth: truth, predicted: predicted, classCount: classes.count)
      : []
    reliability = Self.reliabilityBins(
      probabilities: probabilities, predicted: predicted, truth: truth,
      binCount: Self.reliabilityBinCount)
    self.skippedRecordings = skippedRecordings
    self.droppedImpureCount = droppedImpureCount
    self.windowLength = windowLength
    self.hopLength = hopLength
    self.sampleRateHz = sampleRateHz
  }

  /// Bins of the reliability diagram and of the reported ECE.
  public static let reliabilityBinCount = 15

  /// Metrics per distinct name, worst first (accuracy, then macro-F1, then natural name order).
  /// - Complexity: O(N + groups·K²).
  static func breakdown(
    names: [String], truth: [Int], predicted: [Int], classCount: Int
  ) -> [GroupMetrics] {
    var rowsByName: [String: [Int]] = [:]
    for (row, name) in names.enumerated() { rowsByName[name, default: []].append(row) }
    let groups = rowsByName.map { name, rows in
      let matrix = ConfusionMatrix(
        truth: rows.map { truth[$0] }, predicted: rows.map { predicted[$0] },
        classCount: classCount)
      return GroupMetrics(
        name: name, windows: rows.count, accuracy: matrix.accuracy, macroF1: matrix.macroF1)
    }
    return groups.sorted { a, b in
      if a.accuracy != b.accuracy { return a.accuracy < b.accuracy }
      if a.macroF1 != b.macroF1 { return a.macroF1 < b.macroF1 }
      return naturalOrder(a.name, b.name)
    }
  }

  /// Windows binned by the probability of the predicted class, `(m-1)/M < p <= m/M`, as
  /// `Metrics.expectedCalibrationError` bins them (so `Σ n_b/N·|acc_b - conf_b|` is the ECE).
  static func reliabilityBins(
    probabilities: Matrix, predicted: [Int], truth: [Int], binCount: Int
  ) -> [ReliabilityBin] {
    var count = [Int](repeating: 0, count: binCount)
    var correct = [Int](repeating: 0, count: binCount)
    var confidence = [Double](repeating: 0, count: binCount)
    for i in truth.indices {
      let p = Double(probabilities[i, predicted[i]])
      let bin = min(binCount - 1, max(0, Int((p * Double(binCount)).rounded(.up)) - 1))
      count[bin] += 1
      confidence[bin] += p
      if predicted[i] == truth[i] { correct[bin] += 1 }
    }
    return (0..<binCount).map { b in
      ReliabilityBin(
        lower: Double(b) / Double(binCount), upper: Double(b + 1) / Double(binCount),
        count: count[b], meanConfidence: confidence[b] / Double(count[b]),
        accuracy: Double(correct[b]) / Double(count[b]))
    }
  }
}
