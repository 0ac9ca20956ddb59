// A model's answers on single windows, per class: recall (answered the class, not unknown; a
// negative class's windows are right when answered unknown),
// false alarms (answered the class where the truth is another activity, negatives included)
// and the expected calibration error of the top probability over the windows of real classes
// (ten equal-width bins). Counts, so that folds add up.

import MotusIngest
import MotusModels

/// Per-class window counts of one model on some windows.
public struct WindowScore: Sendable, Codable, Equatable {
  /// Windows whose truth is each class (model class order).
  public var truth: [Int]
  /// Windows of each class answered that class.
  public var hits: [Int]
  /// Windows not of each class answered that class.
  public var alarms: [Int]
  /// Windows of each real class whose most probable real class it is, answered unknown or not:
  /// recall before the unknown answers take their share.
  public var mostProbable: [Int]
  /// Calibration bins: windows, summed top probability, right answers.
  public var binWindows = [Int](repeating: 0, count: 10)
  public var binConfidence = [Double](repeating: 0, count: 10)
  public var binRight = [Int](repeating: 0, count: 10)

  /// `model` on `rows` of `table`, whose labels are model classes by name.
  init(model: TrainedModel, table: WindowTable, rows: [Int]) {
    let k = model.classes.count
    truth = [Int](repeating: 0, count: k)
    hits = truth
    alarms = truth
    mostProbable = truth
    guard !rows.isEmpty else { return }
    let classOf = table.labels.map { model.classes.firstIndex(of: $0) }
    let predictions = model.predict(table.features.rows(rows))
    let negative = Set(model.negativeClassIndices)
    for (row, prediction) in zip(rows, predictions) {
      guard let t = classOf[Int(table.labelIndices[row])] else { continue }
      truth[t] += 1
      // A negative class is answered right by unknown, a real class by its name.
      if negative.contains(t) {
        if prediction.isUnknown { hits[t] += 1 } else { alarms[prediction.classIndex] += 1 }
        continue
      }
      if prediction.classIndex == t { mostProbable[t] += 1 }
      if !prediction.isUnknown {
        if prediction.classIndex == t { hits[t] += 1 } else { alarms[prediction.classIndex] += 1 }
      }
      let bin = min(9, Int(prediction.probability * 10))
      binWindows[bin] += 1
      binConfidence[bin] += Double(prediction.probability)
      if prediction.classIndex == t && !prediction.isUnknown { binRight[bin] += 1 }
    }
  }

  mutating func merge(_ other: WindowScore) {
    for c in truth.indices {
      truth[c] += other.truth[c]
      hits[c] += other.hits[c]
      alarms[c] += other.alarms[c]
      mostProbable[c] += other.mostProbable[c]
    }
    for b in binWindows.indices {
      binWindows[b] += other.binWindows[b]
      binConfidence[b] += other.binConfidence[b]
      binRight[b] += other.binRight[b]
    }
  }

  public var windowCount: Int { truth.reduce(0, +) }

  /// nil when no window has the class.
  public func recall(_ c: Int) -> Double? {
    truth[c] > 0 ? Double(hits[c]) / Double(truth[c]) : nil
  }

  /// Recall counting unknown answers by their most probable class; nil when no window has it.
  public func mostProbableRecall(_ c: Int) -> Double? {
    truth[c] > 0 ? Double(mostProbable[c]) / Double(truth[c]) : nil
  }

  /// Share of the windows of other classes answered `c`.
  public func falseAlarms(_ c: Int) -> Double? {
    let others = windowCount - truth[c]
    return others > 0 ? Double(alarms[c]) / Double(others) : nil
  }

  public var expectedCalibrationError: Double {
    let total = binWindows.reduce(0, +)
    guard total > 0 else { return 0 }
    var sum = 0.0
    for b in binWindows.indices where binWindows[b] > 0 {
      sum += abs(binConfidence[b] - Double(binRight[b]))
    }
    return sum / Double(total)
  }
}
