// Per-sample scoring of predicted label streams against the truth: confusion counts,
// change latency and flicker. Labels are indices into the class list; -1 means no label yet,
// -2 an unknown answer (`StreamReplay.noLabel`, `.unknown`).

/// Accumulates one method's per-sample predictions over several streams.
struct ScoreCounter {
  let classCount: Int
  let sampleRateHz: Double
  let stableSamples: Int
  // counts[truth][predicted]; predicted == classCount means no label yet, classCount + 1 an
  // unknown answer.
  var counts: [[Int]]
  var latencies: [Double] = []
  var missed = 0
  var changes = 0
  var predictedChanges = 0
  var samples = 0

  init(classCount: Int, sampleRateHz: Double, stableSeconds: Double) {
    self.classCount = classCount
    self.sampleRateHz = sampleRateHz
    stableSamples = max(1, Int((stableSeconds * sampleRateHz).rounded()))
    counts = [[Int]](
      repeating: [Int](repeating: 0, count: classCount + 2), count: classCount)
  }

  /// Adds another counter's counts (same classes and rate).
  mutating func merge(_ other: ScoreCounter) {
    precondition(other.classCount == classCount, "\(other.classCount) vs \(classCount) classes")
    for t in counts.indices { for p in counts[t].indices { counts[t][p] += other.counts[t][p] } }
    latencies += other.latencies
    missed += other.missed
    changes += other.changes
    predictedChanges += other.predictedChanges
    samples += other.samples
  }

  mutating func add(truth: [Int32], predicted: [Int32]) {
    precondition(truth.count == predicted.count, "\(truth.count) vs \(predicted.count)")
    samples += truth.count
    var previous: Int32 = -1
    for (t, p) in zip(truth, predicted) where t >= 0 {
      counts[Int(t)][p >= 0 ? Int(p) : (p == StreamReplay.unknown ? classCount + 1 : classCount)] +=
        1
    }
    for p in predicted {
      if p >= 0 && previous >= 0 && p != previous { predictedChanges += 1 }
      if p >= 0 { previous = p }
    }
    var i = 1
    while i < truth.count {
      guard truth[i] != truth[i - 1] else {
        i += 1
        continue
      }
      var end = i + 1
      while end < truth.count && truth[end] == truth[i] { end += 1 }
      changes += 1
      var found: Int?
      var run = 0
      for k in i..<end {
        run = predicted[k] == truth[i] ? run + 1 : 0
        if run >= stableSamples || (run > 0 && k == end - 1) {
          found = k - run + 1
          break
        }
      }
      if let found { latencies.append(Double(found - i) / sampleRateHz) } else { missed += 1 }
      i = end
    }
  }

  /// F1 of class `c` among the non-negative classes (`negative[t]` rows are left out).
  func f1(_ c: Int, negative: [Bool]) -> Double {
    let tp = counts[c][c]
    let fn = counts[c].reduce(0, +) - tp
    var fp = 0
    for t in 0..<classCount where t != c && !negative[t] { fp += counts[t][c] }
    let d = Double(2 * tp + fp + fn)
    return d > 0 ? Double(2 * tp) / d : 0
  }

  /// Per label, how often it is answered where the truth is another label (another class or
  /// a negative one), over every sample with a truth:
  /// - `precision`: right answers over every sample answered the label, negative truths
  ///   counted as false positives; nil when the label was never answered, and for negative
  ///   labels (`negative[c]`);
  /// - `minutesPerHour`: those false alarms in minutes per hour of the scored samples;
  /// - `rate`: their share of the samples whose truth is another label, which is every
  ///   sample where the label is absent.
  func falseAlarms(negative: [Bool]) -> FalseAlarms {
    let total = counts.reduce(0) { $0 + $1.reduce(0, +) }
    var alarms = FalseAlarms()
    for c in 0..<classCount {
      let answered = counts.reduce(0) { $0 + $1[c] }
      let wrong = answered - counts[c][c]
      let others = total - counts[c].reduce(0, +)
      alarms.precision.append(
        negative[c] || answered == 0 ? nil : Double(counts[c][c]) / Double(answered))
      alarms.minutesPerHour.append(total > 0 ? 60 * Double(wrong) / Double(total) : 0)
      alarms.rate.append(others > 0 ? Double(wrong) / Double(others) : 0)
    }
    return alarms
  }

  /// `falseAlarms(negative:)`'s figures, one per label.
  struct FalseAlarms {
    var precision: [Double?] = []
    var minutesPerHour: [Double] = []
    var rate: [Double] = []
  }

  /// Scores over the classes that occur in the truth, leaving out negative classes
  /// (`negative[c]`), whose samples only count towards `negativesUnknown`.
  func score(method: String, cpuSeconds: Double, negative: [Bool]? = nil) -> MethodScore {
    let negative = negative ?? [Bool](repeating: false, count: classCount)
    let present = (0..<classCount).filter { !negative[$0] && counts[$0].reduce(0, +) > 0 }
    let f1s = (0..<classCount).map { negative[$0] ? 0 : f1($0, negative: negative) }
    let real = (0..<classCount).filter { !negative[$0] }
    let total = real.reduce(0) { $0 + counts[$1].reduce(0, +) }
    let correct = real.reduce(0) { $0 + counts[$1][$1] }
    let unlabelled = real.reduce(0) { $0 + counts[$1][classCount] + counts[$1][classCount + 1] }
    let unknown = real.reduce(0) { $0 + counts[$1][classCount + 1] }
    let negativeTotal = (0..<classCount).filter { negative[$0] }
      .reduce(0) { $0 + counts[$1].reduce(0, +) }
    let negativeUnknown = (0..<classCount).filter { negative[$0] }
      .reduce(0) { $0 + counts[$1][classCount + 1] }
    let sorted = latencies.sorted()
    let minutes = Double(samples) / sampleRateHz / 60
    var score = MethodScore(
      method: method, f1: f1s,
      macroF1: present.isEmpty ? 0 : present.map { f1s[$0] }.reduce(0, +) / Double(present.count),
      accuracy: total > 0 ? Double(correct) / Double(total) : 0,
      coverage: total > 0 ? 1 - Double(unlabelled) / Double(total) : 0, confusion: counts,
      medianLatencySeconds: sorted.isEmpty ? nil : sorted[sorted.count / 2],
      missedChanges: missed, changes: changes,
      flickerPerMinute: minutes > 0 ? Double(predictedChanges) / minutes : 0,
      cpuSecondsPerSample: samples > 0 ? cpuSeconds / Double(samples) : 0)
    score.lostToUnknown = total > 0 ? Double(unknown) / Double(total) : 0
    let alarms = falseAlarms(negative: negative)
    score.precision = alarms.precision
    score.falseAlarmMinutesPerHour = alarms.minutesPerHour
    score.falseAlarmRate = alarms.rate
    score.negativesUnknown =
      negativeTotal > 0 ? Double(negativeUnknown) / Double(negativeTotal) : nil
    return score
  }
}
