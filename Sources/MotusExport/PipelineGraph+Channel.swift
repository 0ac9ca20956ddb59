// Per-channel statistics and spectral features of y [N, C, W] double, as FeatureExtractor
// computes them (its header gives the definitions). Reductions run over axis 2 with keepdims,
// so every feature is [N, C, 1] (band powers [N, C, bands]) until the final Concat.

import Foundation
import MotusFeatures

extension PipelineGraph {
  /// [N, C, P]: `spec.statistics` in order, then `spec.spectral` with bands expanded.
  func channelFeatures(_ y: String) -> String {
    let mean = reduce("ReduceMean", y)
    let d = g.add("Sub", [y, mean])
    let d2 = g.add("Mul", [d, d])
    // FeatureExtractor keeps d in float for the autocorrelation and the spectrum.
    let dFloat = roundedToFloat(d)
    let m2 = reduce("ReduceMean", d2)
    let std = g.add("Sqrt", [m2])
    let varies = positive(m2)
    var value: [Statistic: String] = [
      .mean: mean, .std: std,
      .min: reduce("ReduceMin", y), .max: reduce("ReduceMax", y),
      .rms: g.add("Sqrt", [reduce("ReduceMean", g.add("Mul", [y, y]))]),
    ]
    let m3 = reduce("ReduceMean", g.add("Mul", [d2, d]))
    let m4 = reduce("ReduceMean", g.add("Mul", [d2, d2]))
    value[.skewness] = g.add(
      "Where", [varies, g.add("Div", [m3, g.add("Mul", [m2, std])]), g.scalar(0)])
    value[.kurtosis] = g.add(
      "Where",
      [
        varies, g.add("Sub", [g.add("Div", [m4, g.add("Mul", [m2, m2])]), g.scalar(3)]),
        g.scalar(0),
      ])
    value[.meanCrossingRate] = meanCrossingRate(d)
    let sortedStatistics: Set<Statistic> = [.p10, .p25, .median, .p75, .p90, .iqr, .mad]
    if spec.statistics.contains(where: sortedStatistics.contains) {
      let sorted = ascending(y)
      for (statistic, q) in [
        (Statistic.p10, 0.10), (.p25, 0.25), (.median, 0.5), (.p75, 0.75), (.p90, 0.90),
      ] {
        value[statistic] = percentile(sorted, q)
      }
      value[.iqr] = g.add("Sub", [value[.p75]!, value[.p25]!])
      let deviations = g.add("Abs", [g.add("Sub", [y, value[.median]!])])
      value[.mad] = percentile(ascending(deviations), 0.5)
    }
    if spec.statistics.contains(.autocorrelationPeak)
      || spec.statistics.contains(.autocorrelationLag)
    {
      let energy = reduce("ReduceSum", g.add("Mul", [dFloat, dFloat]))
      let peak = autocorrelationPeak(dFloat, energy: energy)
      value[.autocorrelationPeak] = peak.value
      value[.autocorrelationLag] = peak.lagSeconds
    }
    var parts = spec.statistics.map { value[$0]! }
    if !spec.spectral.isEmpty { parts += spectralFeatures(dFloat) }
    return g.add("Concat", parts, [.int("axis", 2)])
  }

  /// `op` over axis 2, keeping it.
  func reduce(_ op: String, _ x: String) -> String {
    if op == "ReduceSum" { return g.add(op, [x, g.int64s([2])], [.int("keepdims", 1)]) }
    return g.add(op, [x], [.ints("axes", [2]), .int("keepdims", 1)])
  }

  /// Crossings of the mean per second: sign changes of d between neighbours, times rate / W.
  private func meanCrossingRate(_ d: String) -> String {
    let negative = g.add("Cast", [g.add("Less", [d, g.scalar(0)])], [.int("to", 11)])
    let changes = g.add(
      "Abs", [g.add("Sub", [slice(negative, 1, n, axis: 2), slice(negative, 0, n - 1, axis: 2)])])
    return g.add("Mul", [reduce("ReduceSum", changes), g.scalar(spec.sampleRateHz / Double(n))])
  }

  /// The window sorted ascending along axis 2.
  private func ascending(_ x: String) -> String {
    g.add(
      "TopK", [x, g.int64s([n])], outputs: 2,
      [
        .int("axis", 2), .int("largest", 0), .int("sorted", 1),
      ])[0]
  }

  /// NumPy's linear percentile of sorted values: interpolation at q (W - 1).
  private func percentile(_ sorted: String, _ q: Double) -> String {
    let position = q * Double(n - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, n - 1)
    let a = g.add("Gather", [sorted, g.int64s([lower])], [.int("axis", 2)])
    let b = g.add("Gather", [sorted, g.int64s([upper])], [.int("axis", 2)])
    return g.add(
      "Add", [a, g.add("Mul", [g.add("Sub", [b, a]), g.scalar(position - Double(lower))])])
  }

  /// The highest local maximum of the autocorrelation over the spec's lags, and its lag.
  ///
  /// The sums r[k] = sum_t d[t] d[t + k] come from the power spectrum S of d zero-padded to M,
  /// a power of two of at least 2W - 1 (no wrap-around for k < W): S is real and even, so its
  /// own DFT is real and r[k] = (1/M) Re DFT(S)[k]. Two DFTs of M points and no table, so the
  /// graph grows with W, not W^2 (a W x W/2 cosine table was 256 MB at W = 8,192).
  private func autocorrelationPeak(_ d: String, energy: String) -> (
    value: String, lagSeconds: String
  ) {
    let (minLag, maxLag) = spec.autocorrelationLags
    guard minLag <= maxLag, maxLag + 1 < n else { return (g.scalar(0), g.scalar(0)) }
    var m = 1
    while m < 2 * n - 1 { m *= 2 }
    let s = power(d, length: m, onesided: false)  // [N, C, M]
    let transformed = g.add(
      "DFT", [g.add("Reshape", [s, g.int64s([-1, m, 1])]), g.constant([m], shape: [])],
      [.int("axis", 1), .int("onesided", 1)])  // [N C, M/2 + 1, 2]
    let real = g.add("Gather", [transformed, g.constant([0], shape: [])], [.int("axis", 2)])
    let channels = spec.channels.count + 2 * spec.decomposedVectors.count
    let sums = g.add("Reshape", [real, g.int64s([-1, channels, m / 2 + 1])])
    // Lags minLag - 1 ... maxLag + 1, so that every lag searched has both neighbours.
    let r = g.add(
      "Mul", [slice(sums, minLag - 1, maxLag + 2, axis: 2), g.scalar(1 / Double(m))])
    let count = maxLag - minLag + 3
    let centre = slice(r, 1, count - 1, axis: 2)
    let previous = slice(r, 0, count - 2, axis: 2)
    let next = slice(r, 2, count, axis: 2)
    let isPeak = g.add(
      "And", [g.add("Greater", [centre, previous]), g.add("GreaterOrEqual", [centre, next])])
    let peaks = g.add("Where", [isPeak, centre, g.scalar(-.infinity)])
    let best = reduce("ReduceMax", peaks)
    let first = g.add(
      "ArgMax", [peaks], [.int("axis", 2), .int("keepdims", 1), .int("select_last_index", 0)])
    let found = g.add("And", [positive(energy), g.add("Greater", [best, g.scalar(-.infinity)])])
    let lag = g.add(
      "Div",
      [
        g.add("Add", [g.add("Cast", [first], [.int("to", 11)]), g.scalar(Double(minLag))]),
        g.scalar(spec.sampleRateHz),
      ])
    return (
      g.add("Where", [found, g.add("Div", [best, energy]), g.scalar(0)]),
      g.add("Where", [found, lag, g.scalar(0)])
    )
  }

  /// |DFT(x)|^2 along axis 2 of x [N, C, W], zero-padded to `length`: [N, C, length/2 + 1]
  /// bins, or all `length` of them when not `onesided`.
  func power(_ x: String, length: Int, onesided: Bool = true) -> String {
    let rows = g.add("Reshape", [x, g.int64s([-1, n, 1])])
    let spectrum = g.add(
      "DFT", [rows, g.constant([length], shape: [])],
      [.int("axis", 1), .int("onesided", onesided ? 1 : 0)])
    let squared = g.add(
      "ReduceSum", [g.add("Mul", [spectrum, spectrum]), g.int64s([2])], [.int("keepdims", 0)])
    let channels = spec.channels.count + 2 * spec.decomposedVectors.count
    let bins = onesided ? length / 2 + 1 : length
    return g.add("Reshape", [squared, g.int64s([-1, channels, bins])])
  }

  /// Band powers and the other spectral features of the Hann-windowed d (float), in `spec.spectral`
  /// order: each [N, C, 1], band powers [N, C, bands].
  private func spectralFeatures(_ d: String) -> [String] {
    let bins = n / 2 + 1
    let binHz = spec.sampleRateHz / Double(n)
    let hann = (0..<n).map { t in
      Double(Float(0.5 - 0.5 * cos(2 * Double.pi * Double(t) / Double(n))))
    }
    // FeatureExtractor windows the float deviation with a float Hann window.
    let windowed = g.add("Mul", [d, g.constant(hann, shape: [n])])
    let p = g.add("Div", [power(roundedToFloat(windowed), length: n), g.scalar(Double(n))])
    let total = reduce("ReduceSum", p)
    let hasPower = positive(total)
    func orZero(_ x: String) -> String { g.add("Where", [hasPower, x, g.scalar(0)]) }
    // Band b sums bins lo..<hi: c[hi] - c[lo] of the running sums c[k] = p[0] + ... + p[k-1]
    // (c[0] = 0), so the graph holds two indices per band, not a bins x bands table.
    let ranges = spec.bandBinRanges
    let zero = g.add("Mul", [slice(p, 0, 1, axis: 2), g.scalar(0)])
    let running = g.add(
      "CumSum", [g.add("Concat", [p, zero], [.int("axis", 2)]), g.constant([2], shape: [])],
      [.int("exclusive", 1)])  // [N, C, bins + 1]
    let bands = g.add(
      "Sub",
      [
        g.add("Gather", [running, g.int64s(ranges.map(\.upperBound))], [.int("axis", 2)]),
        g.add("Gather", [running, g.int64s(ranges.map(\.lowerBound))], [.int("axis", 2)]),
      ])
    let aboveDC = slice(p, 1, bins, axis: 2)
    let dominant = g.add(
      "ArgMax", [aboveDC], [.int("axis", 2), .int("keepdims", 1), .int("select_last_index", 0)])
    let dominantHz = g.add(
      "Mul",
      [g.add("Add", [g.add("Cast", [dominant], [.int("to", 11)]), g.scalar(1)]), g.scalar(binHz)])
    let frequencies = (0..<bins).map { Double($0) * binHz }
    let q = g.add("Div", [p, total])
    let qLogQ = g.add("Where", [positive(q), g.add("Mul", [q, g.add("Log", [q])]), g.scalar(0)])
    let entropy = g.add("Div", [reduce("ReduceSum", qLogQ), g.scalar(-log(Double(bins)))])
    return spec.spectral.map { feature in
      switch feature {
      case .bandPowers: bands
      case .logBandPowers:
        g.add(
          "Div",
          [g.add("Log", [g.add("Add", [bands, g.scalar(spec.logPowerFloor)])]), g.scalar(log(10))])
      case .dominantFrequency: orZero(dominantHz)
      case .dominantShare: orZero(g.add("Div", [reduce("ReduceMax", aboveDC), total]))
      case .spectralCentroid:
        orZero(
          g.add("Div", [g.add("MatMul", [p, g.constant(frequencies, shape: [bins, 1])]), total]))
      case .spectralEntropy: orZero(entropy)
      }
    }
  }
}
