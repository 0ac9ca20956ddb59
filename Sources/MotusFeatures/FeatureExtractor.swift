// Turns one window of channel columns into the feature vector a FeatureSpec names.
// Input: columns[c][t] (c in spec.recipes order), window [start, start + n). Output: F Floats.
// Units: statistics in the channel's unit; rates in 1/s; lags, frequencies in s and Hz;
// band powers in (channel unit)^2 (|X_k|^2 / n summed over the band's bins), log band powers
// log10 of (channel unit)^2; angles in rad.
//
// Definitions (the NumPy reference in Tests/MotusFeaturesTests/Reference computes the same):
// - std, skewness, kurtosis: population moments of d = x - mean (ddof 0; skewness m3/m2^1.5,
//   excess kurtosis m4/m2^2 - 3, as scipy's biased defaults); 0 when m2 == 0.
// - percentiles: NumPy's default linear interpolation at q * (n - 1); iqr = p75 - p25;
//   mad = median(|x - median(x)|), unscaled.
// - mean_crossing_rate: count of t in 1..<n with (d[t-1] >= 0) != (d[t] >= 0), times rate / n.
// - acf: r[k] = sum_{t < n-k} d[t] d[t+k] / sum_t d[t]^2. acf_peak is the highest r[k] with
//   r[k] > r[k-1] and r[k] >= r[k+1] over lags k in [max(1, round(0.2 s * rate)), n / 2];
//   acf_lag is that k in seconds (smallest k on ties); both 0 when there is none.
// - spectrum: periodic Hann w[t] = 0.5 - 0.5 cos(2 pi t / n) (scipy.signal.get_window("hann"),
//   not the symmetric np.hanning) times d; P[k] = |X[k]|^2 / n for bins k in 0...n/2 at
//   f[k] = k * rate / n. Band b holds bins with lo <= f[k] < hi (the last band also takes
//   f[k] == hi). dominant_hz is the arg max of P over k >= 1 (DC is a windowing artefact),
//   dominant_share its P over the total; centroid_hz = sum f P / sum P; entropy =
//   -sum p ln p / ln(n/2 + 1) with p = P / sum P. All 0 when the total power is 0.
//   log_band = log10(band + logPowerFloor) for each band (the floor keeps it finite).
// - corr_xy/xz/yz: Pearson correlation of two axes, 0 when either std is 0.
// - gravity_angle: mean over samples of acos(v . g / (|v| |g|)), skipping zero vectors.

import Foundation
import MotusData

/// Computes a spec's features for one window at a time, with no allocation per window.
///
///     var extractor = try FeatureExtractor(spec: spec)
///     var row = [Float](repeating: 0, count: extractor.featureCount)
///     row.withUnsafeMutableBufferPointer { extractor.extract(columns: cols, start: 0, into: $0) }
///
/// Scratch buffers are allocated once in `init`. Copies share them until one of them
/// extracts, which then takes its own (copy-on-write), so a copy per thread is safe.
public struct FeatureExtractor: Sendable {
  public let spec: FeatureSpec
  /// Computed on demand: 383 names are about 24 KB, more than a third of a stream's memory.
  public var featureNames: [String] { spec.featureNames }
  public let featureCount: Int
  private var storage: Storage
  /// The recent windows' features, when the spec has a context (`FeatureContext`).
  private var context: ContextWindows?

  /// Plans the extractor; throws `FeatureSpecError` when the spec is invalid.
  public init(spec: FeatureSpec) throws {
    try spec.validate()
    self.spec = spec
    self.storage = Storage(spec: spec)
    self.context = spec.context.map {
      ContextWindows(context: $0, featureNames: spec.windowFeatureNames)
    }
    self.featureCount = storage.outputCount + (context?.outputCount ?? 0)
    precondition(featureCount == spec.featureNames.count, "feature layout out of sync")
  }

  /// Writes the features of window `[start, start + spec.windowLength)` into `output`. With a
  /// context, windows must come in time order, and `restartContext()` marks where a recording
  /// or stream begins.
  ///
  /// - Parameters:
  ///   - columns: One column per `spec.recipes` entry, `columns[c][t]`.
  ///   - start: First sample of the window.
  ///   - output: At least `featureCount` Floats, in `featureNames` order.
  /// - Complexity: O(C n log n) for C channels and window length n; no heap allocation.
  public mutating func extract(
    columns: [[Float]], start: Int, into output: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(
      columns.count == spec.recipes.count,
      "expected \(spec.recipes.count) columns (one per recipe), got \(columns.count)")
    precondition(output.count >= featureCount, "output has \(output.count) < \(featureCount)")
    let n = spec.windowLength
    for column in columns {
      precondition(
        start >= 0 && start + n <= column.count,
        "window [\(start), \(start + n)) is outside a column of \(column.count) samples")
    }
    if !isKnownUniquelyReferenced(&storage) { storage = Storage(spec: spec) }
    storage.extract(columns: columns, start: start, output: output.baseAddress!)
    if context != nil {
      let base = output.baseAddress!
      context!.append(base, writingTo: base + storage.outputCount)
    }
  }

  /// Forgets the recent windows: the next window begins a recording, or a stream after a gap.
  public mutating func restartContext() { context?.restart() }

  /// Convenience form that allocates the row (tests, one-off use).
  public mutating func extract(columns: [[Float]], start: Int) -> [Float] {
    var row = [Float](repeating: 0, count: featureCount)
    row.withUnsafeMutableBufferPointer { extract(columns: columns, start: start, into: $0) }
    return row
  }
}

// MARK: - Planned state and the hot loops

extension FeatureExtractor {
  /// Tables and scratch. Mutated only through a uniquely referenced `FeatureExtractor`.
  final class Storage: @unchecked Sendable {
    let n: Int
    let rate: Double
    let statistics: [Statistic]
    let spectral: [SpectralFeature]
    let channelColumns: [Int]
    let vectorColumns: [(Int, Int, Int)]
    let vectorHasAngle: [Bool]
    let gravityColumns: (Int, Int, Int)?
    // Decomposed vectors, and whether each takes its direction from the gravity columns.
    let decomposedColumns: [(Int, Int, Int)]
    let decomposedUsesGravity: [Bool]
    // The vertical and horizontal series of the vector being decomposed.
    let vertical: UnsafeMutableBufferPointer<Float>
    let horizontal: UnsafeMutableBufferPointer<Float>
    let needsSort: Bool
    let needsACF: Bool
    let needsSpectrum: Bool
    let minLag: Int
    let maxLag: Int
    let bandBins: [Range<Int>]
    let logPowerFloor: Double
    let binCount: Int
    let outputCount: Int
    let fft: FFTPlan
    let hann: UnsafeMutableBufferPointer<Float>
    // Scratch.
    let deviation: UnsafeMutableBufferPointer<Float>
    // The sorted window, then the sort's work area (2 x its padded length).
    let sorted: UnsafeMutableBufferPointer<Float>
    // The windowed spectrum input.
    let work: UnsafeMutableBufferPointer<Float>
    let fftReal: UnsafeMutableBufferPointer<Float>
    let fftImag: UnsafeMutableBufferPointer<Float>
    let fftScratch: UnsafeMutableBufferPointer<Float>
    let acf: UnsafeMutableBufferPointer<Float>
    let power: UnsafeMutableBufferPointer<Double>
    let statisticValues: UnsafeMutableBufferPointer<Double>

    init(spec: FeatureSpec) {
      n = spec.windowLength
      rate = spec.sampleRateHz
      statistics = spec.statistics
      spectral = spec.spectral
      var columnOf: [String: Int] = [:]
      for (i, recipe) in spec.recipes.enumerated() where columnOf[recipe.name] == nil {
        columnOf[recipe.name] = i
      }
      func column(_ name: String) -> Int {
        guard let c = columnOf[name] else { preconditionFailure("unknown channel \(name)") }
        return c
      }
      channelColumns = spec.channels.map(column)
      vectorColumns = spec.vectors.map { (column($0[0]), column($0[1]), column($0[2])) }
      vectorHasAngle = spec.vectors.map(spec.hasGravityAngle)
      gravityColumns = spec.gravity.map { (column($0[0]), column($0[1]), column($0[2])) }
      decomposedColumns = spec.decomposedVectors.map {
        (column($0[0]), column($0[1]), column($0[2]))
      }
      decomposedUsesGravity = spec.decomposedVectors.map(spec.hasGravityAngle)
      let sortStats: Set<Statistic> = [.p10, .p25, .median, .p75, .p90, .iqr, .mad]
      needsSort = statistics.contains(where: sortStats.contains)
      needsACF =
        statistics.contains(.autocorrelationPeak) || statistics.contains(.autocorrelationLag)
      needsSpectrum = !spectral.isEmpty
      (minLag, maxLag) = spec.autocorrelationLags
      binCount = n / 2 + 1
      logPowerFloor = spec.logPowerFloor
      let bins = spectral.contains(where: \.isPerBand) ? spec.bandBinRanges : []
      bandBins = bins
      var perChannel = statistics.count
      for feature in spectral { perChannel += feature.isPerBand ? bins.count : 1 }
      outputCount =
        perChannel * (spec.channels.count + 2 * spec.decomposedVectors.count)
        + vectorHasAngle.reduce(0) { $0 + ($1 ? 4 : 3) }
      fft = FFTPlan(length: n)
      func floats(_ count: Int) -> UnsafeMutableBufferPointer<Float> {
        let p = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(count, 1))
        p.initialize(repeating: 0)
        return p
      }
      hann = floats(n)
      for t in 0..<n { hann[t] = Float(0.5 - 0.5 * cos(2 * Double.pi * Double(t) / Double(n))) }
      // Zero padding past n for the autocorrelation kernel; only [0, n) is ever written.
      deviation = floats(n + FeatureKernels.autocorrelationPadding)
      sorted = floats(Swift.max(n, 2 * FeatureKernels.bitonicLength(n)))
      work = floats(n)
      vertical = floats(n)
      horizontal = floats(n)
      fftReal = floats(n)
      fftImag = floats(n)
      fftScratch = floats(fft.realScratchCount)
      acf = floats(n / 2 + 5)
      power = UnsafeMutableBufferPointer<Double>.allocate(capacity: binCount)
      power.initialize(repeating: 0)
      statisticValues = UnsafeMutableBufferPointer<Double>.allocate(
        capacity: Statistic.allCases.count)
      statisticValues.initialize(repeating: 0)
    }

    deinit {
      for buffer in [
        hann, deviation, sorted, work, fftReal, fftImag, fftScratch, acf, vertical, horizontal,
      ] {
        buffer.deallocate()
      }
      power.deallocate()
      statisticValues.deallocate()
    }

    func extract(columns: [[Float]], start: Int, output: UnsafeMutablePointer<Float>) {
      var out = output
      for c in channelColumns {
        columns[c].withUnsafeBufferPointer { column in
          out = channelFeatures(column.baseAddress! + start, out)
        }
      }
      for (v, axes) in vectorColumns.enumerated() {
        columns[axes.0].withUnsafeBufferPointer { xs in
          columns[axes.1].withUnsafeBufferPointer { ys in
            columns[axes.2].withUnsafeBufferPointer { zs in
              let x = xs.baseAddress! + start, y = ys.baseAddress! + start
              let z = zs.baseAddress! + start
              let r = correlations(x, y, z)
              out[0] = Float(r.xy)
              out[1] = Float(r.xz)
              out[2] = Float(r.yz)
              out += 3
              if vectorHasAngle[v], let g = gravityColumns {
                columns[g.0].withUnsafeBufferPointer { gxs in
                  columns[g.1].withUnsafeBufferPointer { gys in
                    columns[g.2].withUnsafeBufferPointer { gzs in
                      out[0] = Float(
                        meanAngle(
                          x, y, z, gxs.baseAddress! + start, gys.baseAddress! + start,
                          gzs.baseAddress! + start))
                      out += 1
                    }
                  }
                }
              }
            }
          }
        }
      }
      for (v, axes) in decomposedColumns.enumerated() {
        let reference = decomposedUsesGravity[v] ? gravityColumns ?? axes : axes
        columns[axes.0].withUnsafeBufferPointer { xs in
          columns[axes.1].withUnsafeBufferPointer { ys in
            columns[axes.2].withUnsafeBufferPointer { zs in
              columns[reference.0].withUnsafeBufferPointer { rxs in
                columns[reference.1].withUnsafeBufferPointer { rys in
                  columns[reference.2].withUnsafeBufferPointer { rzs in
                    decompose(
                      xs.baseAddress! + start, ys.baseAddress! + start, zs.baseAddress! + start,
                      reference: rxs.baseAddress! + start, rys.baseAddress! + start,
                      rzs.baseAddress! + start)
                  }
                }
              }
            }
          }
        }
        out = channelFeatures(UnsafePointer(vertical.baseAddress!), out)
        out = channelFeatures(UnsafePointer(horizontal.baseAddress!), out)
      }
    }

    /// Fills `vertical` and `horizontal` from the vector (x, y, z): v = a . u and
    /// h = sqrt(max(|a|^2 - v^2, 0)), u the unit mean of (rx, ry, rz) over the window.
    /// A zero mean leaves no direction: v = 0 and h = |a|.
    private func decompose(
      _ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ z: UnsafePointer<Float>,
      reference rx: UnsafePointer<Float>, _ ry: UnsafePointer<Float>, _ rz: UnsafePointer<Float>
    ) {
      var (mx, my, mz) = (0.0, 0.0, 0.0)
      for t in 0..<n {
        mx += Double(rx[t])
        my += Double(ry[t])
        mz += Double(rz[t])
      }
      let norm = (mx * mx + my * my + mz * mz).squareRoot()
      let (ux, uy, uz) = norm > 0 ? (mx / norm, my / norm, mz / norm) : (0, 0, 0)
      for t in 0..<n {
        let (a, b, c) = (Double(x[t]), Double(y[t]), Double(z[t]))
        let v = a * ux + b * uy + c * uz
        vertical[t] = Float(v)
        horizontal[t] = Float(Swift.max(a * a + b * b + c * c - v * v, 0).squareRoot())
      }
    }

    /// Writes one channel's statistics then spectral features; returns the next slot.
    private func channelFeatures(
      _ x: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>
    ) -> UnsafeMutablePointer<Float> {
      let nD = Double(n)
      let range = FeatureKernels.sumMinMax(x, n)
      let mean = range.sum / nD
      let dev = deviation.baseAddress!
      let sums = FeatureKernels.centralSums(x, n, mean: mean, deviation: dev)
      let m2 = sums.s2 / nD
      let values = statisticValues
      values[slot(.mean)] = mean
      values[slot(.std)] = m2.squareRoot()
      values[slot(.min)] = Double(range.low)
      values[slot(.max)] = Double(range.high)
      values[slot(.rms)] = (sums.squares / nD).squareRoot()
      values[slot(.skewness)] = m2 > 0 ? (sums.s3 / nD) / (m2 * m2.squareRoot()) : 0
      values[slot(.kurtosis)] = m2 > 0 ? (sums.s4 / nD) / (m2 * m2) - 3 : 0
      values[slot(.meanCrossingRate)] = Double(FeatureKernels.signChanges(dev, n)) * rate / nD
      if needsSort { orderStatistics(x) }
      if needsACF {
        let peak = FeatureKernels.autocorrelationPeak(
          dev, n, minLag: minLag, maxLag: maxLag, scratch: acf.baseAddress!)
        values[slot(.autocorrelationPeak)] = peak.value
        values[slot(.autocorrelationLag)] = Double(peak.lag) / rate
      }
      var out = output
      for statistic in statistics {
        out.pointee = Float(values[slot(statistic)])
        out += 1
      }
      if needsSpectrum { out = spectralFeatures(out) }
      return out
    }

    /// Percentiles, iqr and mad of x into `statisticValues`, from its sorted copy.
    private func orderStatistics(_ x: UnsafePointer<Float>) {
      let s = sorted.baseAddress!
      let values = statisticValues
      FeatureKernels.bitonicSorted(x, n, into: s)
      let p25 = FeatureKernels.percentile(s, n, 0.25)
      let p75 = FeatureKernels.percentile(s, n, 0.75)
      let median = FeatureKernels.percentile(s, n, 0.5)
      values[slot(.p10)] = FeatureKernels.percentile(s, n, 0.10)
      values[slot(.p25)] = p25
      values[slot(.median)] = median
      values[slot(.p75)] = p75
      values[slot(.p90)] = FeatureKernels.percentile(s, n, 0.90)
      values[slot(.iqr)] = p75 - p25
      values[slot(.mad)] = FeatureKernels.medianAbsoluteDeviation(s, n, median: median)
    }

    @inline(__always)
    private func slot(_ statistic: Statistic) -> Int {
      switch statistic {
      case .mean: 0
      case .std: 1
      case .min: 2
      case .max: 3
      case .p10: 4
      case .p25: 5
      case .median: 6
      case .p75: 7
      case .p90: 8
      case .iqr: 9
      case .rms: 10
      case .mad: 11
      case .skewness: 12
      case .kurtosis: 13
      case .meanCrossingRate: 14
      case .autocorrelationPeak: 15
      case .autocorrelationLag: 16
      }
    }

    /// Spectral features of the mean-removed window in `deviation`.
    private func spectralFeatures(_ output: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<
      Float
    > {
      let re = fftReal.baseAddress!, im = fftImag.baseAddress!
      let dev = deviation.baseAddress!, w = hann.baseAddress!
      let windowed = work.baseAddress!
      for t in 0..<n { windowed[t] = dev[t] * w[t] }
      fft.forwardReal(input: windowed, real: re, imag: im, scratch: fftScratch)
      let p = power.baseAddress!
      let binHz = rate / Double(n)
      let sums = FeatureKernels.powerSpectrum(re, im, binCount, scale: 1 / Double(n), into: p)
      let total = sums.total, weighted = sums.indexWeighted * binHz
      // The first largest bin above DC (the branch is rarely taken, so it predicts well).
      var dominant = 0, dominantPower = -1.0
      for k in 1..<Swift.max(binCount, 1) where p[k] > dominantPower {
        dominantPower = p[k]
        dominant = k
      }
      let entropy = FeatureKernels.spectralEntropy(p, binCount, total: total)
      var out = output
      for feature in spectral {
        switch feature {
        case .bandPowers:
          for bins in bandBins {
            var bandPower = 0.0
            for k in bins { bandPower += p[k] }
            out.pointee = Float(bandPower)
            out += 1
          }
          continue
        case .logBandPowers:
          for bins in bandBins {
            var bandPower = 0.0
            for k in bins { bandPower += p[k] }
            out.pointee = Float(log10(bandPower + logPowerFloor))
            out += 1
          }
          continue
        case .dominantFrequency:
          out.pointee = total > 0 ? Float(Double(dominant) * binHz) : 0
        case .dominantShare:
          out.pointee = total > 0 && dominant > 0 ? Float(dominantPower / total) : 0
        case .spectralCentroid:
          out.pointee = total > 0 ? Float(weighted / total) : 0
        case .spectralEntropy:
          out.pointee = Float(entropy)
        }
        out += 1
      }
      return out
    }

    private func correlations(
      _ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ z: UnsafePointer<Float>
    ) -> (xy: Double, xz: Double, yz: Double) {
      var sx = 0.0, sy = 0.0, sz = 0.0
      for t in 0..<n {
        sx += Double(x[t])
        sy += Double(y[t])
        sz += Double(z[t])
      }
      let mx = sx / Double(n), my = sy / Double(n), mz = sz / Double(n)
      var xx = 0.0, yy = 0.0, zz = 0.0, xy = 0.0, xz = 0.0, yz = 0.0
      for t in 0..<n {
        let dx = Double(x[t]) - mx, dy = Double(y[t]) - my, dz = Double(z[t]) - mz
        xx += dx * dx
        yy += dy * dy
        zz += dz * dz
        xy += dx * dy
        xz += dx * dz
        yz += dy * dz
      }
      func r(_ c: Double, _ a: Double, _ b: Double) -> Double {
        a > 0 && b > 0 ? c / (a * b).squareRoot() : 0
      }
      return (r(xy, xx, yy), r(xz, xx, zz), r(yz, yy, zz))
    }

    private func meanAngle(
      _ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ z: UnsafePointer<Float>,
      _ gx: UnsafePointer<Float>, _ gy: UnsafePointer<Float>, _ gz: UnsafePointer<Float>
    ) -> Double {
      // Four samples per step in Double lanes; zero vectors are masked out of sum and count.
      func load(_ p: UnsafePointer<Float>, _ t: Int) -> SIMD4<Double> {
        SIMD4<Double>(UnsafeRawPointer(p + t).loadUnaligned(as: SIMD4<Float>.self))
      }
      var sum = SIMD4<Double>.zero, count = SIMD4<Double>.zero
      var t = 0
      while t + 4 <= n {
        let vx = load(x, t), vy = load(y, t), vz = load(z, t)
        let hx = load(gx, t), hy = load(gy, t), hz = load(gz, t)
        let vv = vx * vx + vy * vy + vz * vz
        let gg = hx * hx + hy * hy + hz * hz
        let valid = (vv .> 0) .& (gg .> 0)
        let norms = (vv * gg).replacing(with: 1, where: .!valid).squareRoot()
        var cosine = (vx * hx + vy * hy + vz * hz) / norms
        cosine.replace(with: 1, where: cosine .> 1)
        cosine.replace(with: -1, where: cosine .< -1)
        let angle = FeatureKernels.arccos(cosine)
        sum += angle.replacing(with: 0, where: .!valid)
        count += SIMD4<Double>.zero.replacing(with: 1, where: valid)
        t += 4
      }
      var total = sum.sum(), samples = count.sum()
      while t < n {
        let vx = Double(x[t]), vy = Double(y[t]), vz = Double(z[t])
        let hx = Double(gx[t]), hy = Double(gy[t]), hz = Double(gz[t])
        let vv = vx * vx + vy * vy + vz * vz
        let gg = hx * hx + hy * hy + hz * hz
        t += 1
        guard vv > 0 && gg > 0 else { continue }
        let cosine = (vx * hx + vy * hy + vz * hz) / (vv * gg).squareRoot()
        total += FeatureKernels.arccos(Swift.min(1, Swift.max(-1, cosine)))
        samples += 1
      }
      return samples > 0 ? total / samples : 0
    }
  }
}
