// The plain, slow definition of every feature, in Double on Swift arrays: the algorithmic
// reference the fast FeatureExtractor is tested against (naive DFT, full sort, every lag).
// Shapes as in FeatureExtractor: columns[c][t] in recipe order, one window, F values out.

import Foundation
import MotusData
import MotusFeatures

extension FeatureExtractor {
  /// The features of window `[start, start + spec.windowLength)`, computed plainly in Double.
  ///
  /// - Complexity: O(C n^2); for tests and checks, not for streaming.
  public static func referenceFeatures(
    spec: FeatureSpec, columns: [[Float]], start: Int
  ) -> [Double] {
    let n = spec.windowLength
    let rate = spec.sampleRateHz
    func window(_ name: String) -> [Double] {
      guard let c = spec.recipes.firstIndex(where: { $0.name == name }) else {
        preconditionFailure("unknown channel \(name)")
      }
      return columns[c][start..<(start + n)].map(Double.init)
    }
    var out: [Double] = []
    func appendChannelFeatures(_ x: [Double]) {
      let stats = referenceStatistics(x, rate: rate)
      for statistic in spec.statistics { out.append(stats[statistic] ?? .nan) }
      let spectral = referenceSpectrum(x, rate: rate, bandEdgesHz: spec.bandEdgesHz)
      for feature in spec.spectral {
        if feature == .bandPowers {
          out += spectral.bands
        } else if feature == .logBandPowers {
          out += spectral.bands.map { log10($0 + spec.logPowerFloor) }
        } else {
          out.append(spectral.values[feature] ?? .nan)
        }
      }
    }
    for channel in spec.channels { appendChannelFeatures(window(channel)) }
    for axes in spec.vectors {
      let (x, y, z) = (window(axes[0]), window(axes[1]), window(axes[2]))
      out += [pearson(x, y), pearson(x, z), pearson(y, z)]
      if spec.hasGravityAngle(axes), let g = spec.gravity {
        out.append(referenceMeanAngle([x, y, z], g.map(window)))
      }
    }
    for axes in spec.decomposedVectors {
      let reference = spec.hasGravityAngle(axes) ? spec.gravity ?? axes : axes
      let parts = referenceDecomposition(axes.map(window), reference: reference.map(window))
      appendChannelFeatures(parts.vertical)
      appendChannelFeatures(parts.horizontal)
    }
    return out
  }

  /// The mean over samples of the angle between v and g, skipping zero vectors; 0 for none.
  public static func referenceMeanAngle(_ v: [[Double]], _ g: [[Double]]) -> Double {
    var angles: [Double] = []
    for t in v[0].indices {
      let a = v.map { $0[t] }, h = g.map { $0[t] }
      let na = sqrt(a.map { $0 * $0 }.reduce(0, +)), nh = sqrt(h.map { $0 * $0 }.reduce(0, +))
      if na == 0 || nh == 0 { continue }
      let cosine = zip(a, h).map(*).reduce(0, +) / (na * nh)
      angles.append(acos(min(1, max(-1, cosine))))
    }
    return angles.isEmpty ? 0 : angles.reduce(0, +) / Double(angles.count)
  }

  /// v's component along the unit mean of `reference`, and the magnitude of the rest.
  public static func referenceDecomposition(_ v: [[Double]], reference: [[Double]])
    -> (vertical: [Double], horizontal: [Double])
  {
    let mean = reference.map { $0.reduce(0, +) }
    let norm = sqrt(mean.map { $0 * $0 }.reduce(0, +))
    let unit = norm > 0 ? mean.map { $0 / norm } : [0, 0, 0]
    var vertical: [Double] = [], horizontal: [Double] = []
    for t in v[0].indices {
      let along = v[0][t] * unit[0] + v[1][t] * unit[1] + v[2][t] * unit[2]
      let rest = (0..<3).map { v[$0][t] - along * unit[$0] }
      vertical.append(along)
      horizontal.append(sqrt(rest.map { $0 * $0 }.reduce(0, +)))
    }
    return (vertical, horizontal)
  }

  public static func referencePercentile(_ sorted: [Double], _ q: Double) -> Double {
    let position = q * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
  }

  public static func referenceStatistics(_ x: [Double], rate: Double) -> [Statistic: Double] {
    let n = Double(x.count)
    let mean = x.reduce(0, +) / n
    let d = x.map { $0 - mean }
    func moment(_ p: Double) -> Double { d.map { pow($0, p) }.reduce(0, +) / n }
    let m2 = moment(2)
    let sorted = x.sorted()
    let median = referencePercentile(sorted, 0.5)
    var s: [Statistic: Double] = [:]
    s[.mean] = mean
    s[.std] = sqrt(m2)
    s[.min] = sorted.first
    s[.max] = sorted.last
    s[.p10] = referencePercentile(sorted, 0.10)
    s[.p25] = referencePercentile(sorted, 0.25)
    s[.median] = median
    s[.p75] = referencePercentile(sorted, 0.75)
    s[.p90] = referencePercentile(sorted, 0.90)
    s[.iqr] = referencePercentile(sorted, 0.75) - referencePercentile(sorted, 0.25)
    s[.rms] = sqrt(x.map { $0 * $0 }.reduce(0, +) / n)
    s[.mad] = referencePercentile(x.map { abs($0 - median) }.sorted(), 0.5)
    s[.skewness] = m2 > 0 ? moment(3) / pow(m2, 1.5) : 0
    s[.kurtosis] = m2 > 0 ? moment(4) / (m2 * m2) - 3 : 0
    var crossings = 0
    for t in 1..<x.count where (d[t - 1] >= 0) != (d[t] >= 0) { crossings += 1 }
    s[.meanCrossingRate] = Double(crossings) * rate / n
    // Every lag, then the local maxima inside [minLag, n/2].
    let energy = d.map { $0 * $0 }.reduce(0, +)
    let acf = (0..<x.count).map { k in
      energy > 0 ? (0..<(x.count - k)).map { d[$0] * d[$0 + k] }.reduce(0, +) / energy : 0
    }
    let minLag = max(1, Int((0.2 * rate).rounded())), maxLag = x.count / 2
    var peak = 0.0, lag = 0
    if energy > 0 && minLag <= maxLag && maxLag + 1 < x.count {
      for k in minLag...maxLag where acf[k] > acf[k - 1] && acf[k] >= acf[k + 1] {
        if lag == 0 || acf[k] > peak {
          peak = acf[k]
          lag = k
        }
      }
    }
    s[.autocorrelationPeak] = peak
    s[.autocorrelationLag] = Double(lag) / rate
    return s
  }

  public static func referenceSpectrum(
    _ x: [Double], rate: Double, bandEdgesHz edges: [Double]
  ) -> (bands: [Double], values: [SpectralFeature: Double]) {
    let n = x.count
    let mean = x.reduce(0, +) / Double(n)
    let windowed = (0..<n).map { t in
      (x[t] - mean) * (0.5 - 0.5 * cos(2 * Double.pi * Double(t) / Double(n)))
    }
    let spectrum = FFTPlan.naiveDFT(real: windowed, imag: [Double](repeating: 0, count: n))
    let bins = n / 2 + 1
    let power = (0..<bins).map {
      (spectrum.real[$0] * spectrum.real[$0] + spectrum.imag[$0] * spectrum.imag[$0]) / Double(n)
    }
    let frequency = (0..<bins).map { Double($0) * rate / Double(n) }
    let total = power.reduce(0, +)
    var bands: [Double] = []
    for b in 0..<max(edges.count - 1, 0) {
      let last = b == edges.count - 2
      bands.append(
        (0..<bins).filter {
          frequency[$0] >= edges[b]
            && (frequency[$0] < edges[b + 1] || (last && frequency[$0] == edges[b + 1]))
        }.map { power[$0] }.reduce(0, +))
    }
    var values: [SpectralFeature: Double] = [:]
    var dominant = 0
    for k in 1..<max(bins, 1) where dominant == 0 || power[k] > power[dominant] { dominant = k }
    let positive = total > 0
    values[.dominantFrequency] = positive ? frequency[dominant] : 0
    values[.dominantShare] = positive && dominant > 0 ? power[dominant] / total : 0
    values[.spectralCentroid] = positive ? zip(frequency, power).map(*).reduce(0, +) / total : 0
    let p = power.map { positive ? $0 / total : 0 }.filter { $0 > 0 }
    values[.spectralEntropy] =
      positive && bins > 1 ? -p.map { $0 * log($0) }.reduce(0, +) / log(Double(bins)) : 0
    return (bands, values)
  }

  static func pearson(_ a: [Double], _ b: [Double]) -> Double {
    let n = Double(a.count)
    let ma = a.reduce(0, +) / n, mb = b.reduce(0, +) / n
    let sab = zip(a, b).map { ($0 - ma) * ($1 - mb) }.reduce(0, +)
    let saa = a.map { ($0 - ma) * ($0 - ma) }.reduce(0, +)
    let sbb = b.map { ($0 - mb) * ($0 - mb) }.reduce(0, +)
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0
  }
}
