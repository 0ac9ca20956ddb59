// What `motus bench accuracy` measures per method: per-sample classification scores,
// repetition-count errors and first-count latency (s), change latency (s), flicker
// (changes/min) and CPU s/sample.

/// Scores of one method on the held-out streams.
public struct MethodScore: Codable, Sendable, Equatable {
  public var method: String
  /// Per class, in the report's class order; nil when the method does not classify.
  public var f1: [Double]?
  public var macroF1: Double?
  public var accuracy: Double?
  /// Share of samples that named a class (the rest precede the first full window, or were
  /// answered unknown).
  public var coverage: Double?
  /// Sample counts `[truth][predicted]`; the last two columns count samples with no label yet
  /// and samples answered unknown.
  public var confusion: [[Int]]?
  /// Median seconds from a true activity change to the first stable correct label.
  public var medianLatencySeconds: Double?
  /// True changes never followed by a stable correct label, of `changes`.
  public var missedChanges: Int?
  public var changes: Int?
  /// Predicted label changes per minute.
  public var flickerPerMinute: Double?
  /// Repetition counting on joined push-up sets.
  public var repetitionSets: Int?
  public var repetitionsKnown: Int?
  public var repetitionsCounted: Int?
  /// Per set, in stream order.
  public var repetitionCountsPerSet: [Int]?
  public var repetitionsKnownPerSet: [Int]?
  public var repetitionMeanAbsoluteError: Double?
  /// Sum of |counted - known| over the sum of known, in percent.
  public var repetitionPercentError: Double?
  /// Median seconds from a set's first sample to its first counted repetition (the
  /// counter's detection latency), over the sets that counted any.
  public var medianFirstRepetitionSeconds: Double?
  /// Thread CPU seconds per input sample.
  public var cpuSecondsPerSample: Double
  /// Share of class samples answered unknown.
  public var lostToUnknown: Double?
  /// Share of negative-label samples (none of the classes) answered unknown; nil without any.
  public var negativesUnknown: Double?
  /// Per class (in the report's class order, negatives included): right answers over every
  /// sample answered the class, negative truths counting as false positives; nil for a class
  /// never answered and for negative labels.
  public var precision: [Double?]?
  /// Per class, samples answered the class whose truth is another class or a negative label
  /// (false alarms), in minutes per hour of the test samples.
  public var falseAlarmMinutesPerHour: [Double]?
  /// Per class, false alarms over the samples whose truth is another label (every sample when
  /// the class is absent from the test data).
  public var falseAlarmRate: [Double]?
  /// The same scores per source of the held-out subjects (`method` holds the source's name),
  /// in order of first appearance; nil for a method that does not classify. A false alarm in
  /// one source is hidden in the pooled rates by the others' samples; here it is not.
  public var bySource: [MethodScore]?
}

/// The whole comparison.
public struct AccuracyReport: Codable, Sendable, Equatable {
  /// Every label of the data, negatives included (per-class arrays follow this order).
  public var classes: [String]
  /// Labels that are none of the classes: scored only as the share answered unknown.
  public var negativeLabels: [String] = []
  public var sampleRateHz: Double
  public var trainingSubjects: [String]
  public var testSubjects: [String]
  public var testSamples: Int
  public var truthChangesPerMinute: Double
  /// Seconds a label must hold to count as stable.
  public var stableSeconds: Double
  public var methods: [MethodScore]
  /// Shake detections per minute on test data, by true class.
  public var shakesPerMinute: [String: Double]
  public var typicalCutoffs: [String: Float]
  public var tunedCutoffs: [String: Float]
  public var tunedTrainingMacroF1: Double
  /// The learned model's own validation report, when it was trained here.
  public var learnedModel: String
}
