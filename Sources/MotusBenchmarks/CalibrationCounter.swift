// How far the probability an engine shows can be trusted, sample by sample: the expected
// calibration error over ten equal-width bins of the shown probability, and how often each
// confidence level (low, medium, high) is right. Only samples whose truth is one of the classes
// and whose answer names a class count.

import MotusModels

/// Accumulates shown answers, their probabilities and confidence levels against the truth.
struct CalibrationCounter: Sendable {
  static let binCount = 10
  private(set) var binSamples = [Int](repeating: 0, count: binCount)
  private(set) var binProbability = [Double](repeating: 0, count: binCount)
  private(set) var binCorrect = [Int](repeating: 0, count: binCount)
  /// Per `ConfidenceLevel.allCases`.
  private(set) var levelSamples = [Int](repeating: 0, count: ConfidenceLevel.allCases.count)
  private(set) var levelCorrect = [Int](repeating: 0, count: ConfidenceLevel.allCases.count)

  /// - Parameters:
  ///   - truth, predicted: Label indices per sample (`predicted < 0`: no answer or unknown).
  ///   - probability: The shown answer's probability per sample.
  ///   - level: The shown answer's `ConfidenceLevel.allCases` index per sample.
  ///   - negative: Per label, whether it is a negative label (left out).
  mutating func add(
    truth: [Int32], predicted: [Int32], probability: [Float], level: [UInt8], negative: [Bool]
  ) {
    precondition(
      truth.count == predicted.count && probability.count == truth.count
        && level.count == truth.count, "per-sample arrays differ in length")
    for t in truth.indices where truth[t] >= 0 && predicted[t] >= 0 && !negative[Int(truth[t])] {
      let p = Double(probability[t])
      let bin = min(Self.binCount - 1, max(0, Int(p * Double(Self.binCount))))
      let right = truth[t] == predicted[t] ? 1 : 0
      binSamples[bin] += 1
      binProbability[bin] += p
      binCorrect[bin] += right
      levelSamples[Int(level[t])] += 1
      levelCorrect[Int(level[t])] += right
    }
  }

  mutating func merge(_ other: CalibrationCounter) {
    for b in 0..<Self.binCount {
      binSamples[b] += other.binSamples[b]
      binProbability[b] += other.binProbability[b]
      binCorrect[b] += other.binCorrect[b]
    }
    for l in levelSamples.indices {
      levelSamples[l] += other.levelSamples[l]
      levelCorrect[l] += other.levelCorrect[l]
    }
  }

  /// Σ_b (n_b / n) · |accuracy_b − mean probability_b|; nil without samples.
  var expectedCalibrationError: Double? {
    let total = binSamples.reduce(0, +)
    guard total > 0 else { return nil }
    var error = 0.0
    for b in 0..<Self.binCount where binSamples[b] > 0 {
      let n = Double(binSamples[b])
      error += n / Double(total) * abs(Double(binCorrect[b]) / n - binProbability[b] / n)
    }
    return error
  }

  /// Per level: its share of the answers and how often it was right (nil when never given).
  var levels: [TransferScore.LevelScore] {
    let total = levelSamples.reduce(0, +)
    return ConfidenceLevel.allCases.enumerated().map { l, level in
      TransferScore.LevelScore(
        level: level, share: total > 0 ? Double(levelSamples[l]) / Double(total) : 0,
        accuracy: levelSamples[l] > 0
          ? Double(levelCorrect[l]) / Double(levelSamples[l]) : nil)
    }
  }
}
