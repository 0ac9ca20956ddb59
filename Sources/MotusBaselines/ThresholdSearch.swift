// Tunes `ActivityThresholds` on labelled window statistics: coordinate-wise grid search that
// maximises macro-F1 over the classes present. Grids are quantiles of each statistic.

/// Grid search over the threshold rules' cut-offs.
public enum ThresholdSearch {
  /// - Parameters:
  ///   - statistics: One entry per training window.
  ///   - labels: The true class of each window.
  ///   - start: The starting point (for example `ActivityThresholds.typical`).
  ///   - gridSize: Candidate values per cut-off (quantiles of the matching statistic).
  ///   - sweeps: Passes over the six cut-offs; each pass keeps only improvements.
  /// - Returns: The best cut-offs found and their training macro-F1.
  /// - Complexity: O(sweeps * 6 * gridSize * windows).
  public static func tune(
    statistics: [ActivityWindowStatistics], labels: [ThresholdActivity],
    start: ActivityThresholds = .typical, gridSize: Int = 40, sweeps: Int = 4
  ) -> (cutoffs: ActivityThresholds, macroF1: Double) {
    precondition(statistics.count == labels.count, "\(statistics.count) vs \(labels.count)")
    precondition(gridSize >= 2 && sweeps >= 1, "gridSize \(gridSize), sweeps \(sweeps)")
    let grids: [[Float]] = ActivityThresholds.parameters.map { parameter in
      let values: [Float]
      switch parameter.name {
      case "stillStd", "runStd": values = statistics.map(\.motionStd)
      case "vibrationRMS": values = statistics.map(\.vibrationRMS)
      case "stepCadence", "runCadence": values = statistics.map(\.cadenceHz)
      default: values = statistics.map(\.tilt)
      }
      return quantiles(values, count: gridSize)
    }
    var best = start
    var bestScore = macroF1(best, statistics, labels)
    for _ in 0..<sweeps {
      var improved = false
      for (p, parameter) in ActivityThresholds.parameters.enumerated() {
        for value in grids[p] {
          var candidate = best
          candidate[keyPath: parameter.keyPath] = value
          let score = macroF1(candidate, statistics, labels)
          if score > bestScore + 1e-12 {
            bestScore = score
            best = candidate
            improved = true
          }
        }
      }
      if !improved { break }
    }
    return (best, bestScore)
  }

  /// Macro-F1 of `cutoffs` over the classes that occur in `labels`.
  public static func macroF1(
    _ cutoffs: ActivityThresholds, _ statistics: [ActivityWindowStatistics],
    _ labels: [ThresholdActivity]
  ) -> Double {
    let all = ThresholdActivity.allCases
    var tp = [Int](repeating: 0, count: all.count)
    var fp = tp
    var fn = tp
    for (s, truth) in zip(statistics, labels) {
      let t = all.firstIndex(of: truth) ?? 0
      let p = all.firstIndex(of: cutoffs.classify(s)) ?? 0
      if t == p { tp[t] += 1 } else { fp[p] += 1; fn[t] += 1 }
    }
    var sum = 0.0
    var classes = 0
    for c in all.indices where tp[c] + fn[c] > 0 {
      classes += 1
      let denominator = Double(2 * tp[c] + fp[c] + fn[c])
      sum += denominator > 0 ? Double(2 * tp[c]) / denominator : 0
    }
    return classes > 0 ? sum / Double(classes) : 0
  }

  /// `count` evenly spaced quantiles of `values` (sorted copy), distinct.
  static func quantiles(_ values: [Float], count: Int) -> [Float] {
    let sorted = values.filter(\.isFinite).sorted()
    guard !sorted.isEmpty else { return [] }
    var out: [Float] = []
    for k in 0..<count {
      let q = sorted[min(sorted.count - 1, k * (sorted.count - 1) / max(count - 1, 1))]
      if out.last != q { out.append(q) }
    }
    return out
  }
}
