// Per-sample scoring of predicted label streams against the truth: confusion counts,
// change latency and flicker. Labels are indices into the class list; -1 means no label.

/// Accumulates one method's per-sample predictions over several streams.
struct ScoreCounter {
  let classCount: Int
  let sampleRateHz: Double
  let stableSamples: Int
  // counts[truth][predicted], predicted == classCount means no label yet.
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
      repeating: [Int](repeating: 0, count: classCount + 1), count: classCount)
  }

  mutating func add(truth: [Int32], predicted: [Int32]) {
    precondition(truth.count == predicted.count, "\(truth.count) vs \(predicted.count)")
    samples += truth.count
    var previous: Int32 = -1
    for (t, p) in zip(truth, predicted) where t >= 0 {
      counts[Int(t)][p >= 0 ? Int(p) : classCount] += 1
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

  func f1(_ c: Int) -> Double {
    let tp = counts[c][c]
    let fn = counts[c].reduce(0, +) - tp
    var fp = 0
    for t in 0..<classCount where t != c { fp += counts[t][c] }
    let d = Double(2 * tp + fp + fn)
    return d > 0 ? Double(2 * tp) / d : 0
  }

  func score(method: String, cpuSeconds: Double) -> MethodScore {
    let present = (0..<classCount).filter { counts[$0].reduce(0, +) > 0 }
    let f1s = (0..<classCount).map(f1)
    let total = counts.reduce(0) { $0 + $1.reduce(0, +) }
    let correct = (0..<classCount).reduce(0) { $0 + counts[$1][$1] }
    let unlabelled = counts.reduce(0) { $0 + $1[classCount] }
    let sorted = latencies.sorted()
    let minutes = Double(samples) / sampleRateHz / 60
    return MethodScore(
      method: method, f1: f1s,
      macroF1: present.isEmpty ? 0 : present.map { f1s[$0] }.reduce(0, +) / Double(present.count),
      accuracy: total > 0 ? Double(correct) / Double(total) : 0,
      coverage: total > 0 ? 1 - Double(unlabelled) / Double(total) : 0, confusion: counts,
      medianLatencySeconds: sorted.isEmpty ? nil : sorted[sorted.count / 2],
      missedChanges: missed, changes: changes,
      flickerPerMinute: minutes > 0 ? Double(predictedChanges) / minutes : 0,
      cpuSecondsPerSample: samples > 0 ? cpuSeconds / Double(samples) : 0)
  }
}
