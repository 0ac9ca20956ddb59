// Allocation-free kernels behind FeatureExtractor, on raw Float pointers of window length n.
// FeatureExtractor+Reference.swift holds the plain versions they are tested against.

import Foundation

enum FeatureKernels {
  /// Sorts `n` Floats ascending in place (Shell sort, Ciura gaps): no recursion, no
  /// allocation, and bounded even with NaN.
  /// The last pass (gap 1) is an insertion sort, so any length sorts correctly.
  /// - Complexity: about O(n^1.3) comparisons for n up to a few thousand.
  static func shellSort(_ a: UnsafeMutablePointer<Float>, _ n: Int) {
    let gaps = (701, 301, 132, 57, 23, 10, 4, 1)
    withUnsafeBytes(of: gaps) { raw in
      for gap in raw.bindMemory(to: Int.self) where gap < n {
        for i in gap..<n {
          let value = a[i]
          var j = i
          while j >= gap && a[j - gap] > value {
            a[j] = a[j - gap]
            j -= gap
          }
          a[j] = value
        }
      }
    }
  }

  /// Sorts `n` Floats ascending with a bitonic network over the next power of two (padded
  /// with +infinity). Every compare-exchange is a min/max with no data-dependent branch, and
  /// each stage's pairs are independent, so the loops vectorise; random data sorts several
  /// times faster than with a comparison sort. `shellSort` is the reference it is tested
  /// against.
  ///
  /// - Parameter scratch: At least `bitonicLength(n)` Floats.
  /// - Complexity: O(p log^2 p) min/max pairs, p = `bitonicLength(n)`.
  static func bitonicSort(
    _ a: UnsafeMutablePointer<Float>, _ n: Int, scratch x: UnsafeMutablePointer<Float>
  ) {
    let p = bitonicLength(n)
    x.update(from: a, count: n)
    for i in n..<p { x[i] = .infinity }
    if p < 8 {
      shellSort(x, p)
      a.update(from: x, count: n)
      return
    }
    // x is viewed as p / 4 lanes of SIMD4; distances >= 4 pair whole vectors, distances
    // 1 and 2 (and the mirror of a 4-block) pair lanes within a vector.
    var k = 2
    while k <= p {
      // Merge step 1: compare mirrored pairs of each block of k (sorts two ascending runs).
      if k == 2 {
        withinVectors(
          x, p, swap: { SIMD4($0[1], $0[0], $0[3], $0[2]) }, takeMax: [false, true, false, true])
      } else if k == 4 {
        withinVectors(
          x, p, swap: { SIMD4($0[3], $0[2], $0[1], $0[0]) }, takeMax: [false, false, true, true])
      } else {
        var block = 0
        while block < p {
          var i = 0
          while i < k / 2 {
            let lo = x + block + i, hi = x + block + k - 4 - i
            let u = load4(lo), w = load4(hi)
            let v = SIMD4(w[3], w[2], w[1], w[0])
            store4(u.replacing(with: v, where: v .< u), lo)
            let high = u.replacing(with: v, where: u .< v)
            store4(SIMD4(high[3], high[2], high[1], high[0]), hi)
            i &+= 4
          }
          block &+= k
        }
      }
      // Then half-cleaners of distance k/4, k/8, ..., 1.
      var d = k / 4
      while d >= 4 {
        var start = 0
        while start < p {
          var i = start
          while i < start &+ d {
            let u = load4(x + i), v = load4(x + i + d)
            store4(u.replacing(with: v, where: v .< u), x + i)
            store4(u.replacing(with: v, where: u .< v), x + i + d)
            i &+= 4
          }
          start &+= 2 * d
        }
        d /= 2
      }
      if k >= 8 {
        withinVectors(
          x, p, swap: { SIMD4($0[2], $0[3], $0[0], $0[1]) }, takeMax: [false, false, true, true])
      }
      if k >= 4 {
        withinVectors(
          x, p, swap: { SIMD4($0[1], $0[0], $0[3], $0[2]) }, takeMax: [false, true, false, true])
      }
      k *= 2
    }
    a.update(from: x, count: n)
  }

  /// Compare-exchanges lane pairs inside every SIMD4 of `x`: each lane meets `swap`'s lane
  /// and keeps the max where `takeMax`, else the min.
  @inline(__always)
  private static func withinVectors(
    _ x: UnsafeMutablePointer<Float>, _ p: Int, swap: (SIMD4<Float>) -> SIMD4<Float>,
    takeMax: SIMDMask<SIMD4<Int32>>
  ) {
    var i = 0
    while i < p {
      let u = load4(x + i), v = swap(u)
      let low = u.replacing(with: v, where: v .< u)
      let high = u.replacing(with: v, where: u .< v)
      store4(low.replacing(with: high, where: takeMax), x + i)
      i &+= 4
    }
  }

  @inline(__always)
  private static func load4(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
  }

  @inline(__always)
  private static func store4(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
  }

  /// The padded length `bitonicSort` works on: the next power of two >= max(n, 2).
  static func bitonicLength(_ n: Int) -> Int {
    var p = 2
    while p < n { p <<= 1 }
    return p
  }

  /// The median of |s - m| for sorted `s` and its median `m`, without another sort: the
  /// deviations left of `m` (read backwards) and right of it are two ascending runs, and
  /// the k-th smallest of two sorted runs is a binary search.
  /// - Complexity: O(log n).
  static func medianAbsoluteDeviation(_ s: UnsafePointer<Float>, _ n: Int, median m: Double)
    -> Double
  {
    // split = first index with s[split] >= m.
    var low = 0, high = n
    while low < high {
      let mid = (low + high) / 2
      if Double(s[mid]) < m { low = mid + 1 } else { high = mid }
    }
    let split = low
    let lower = kthDeviation((n - 1) / 2, s, n, split, m)
    return n % 2 == 1 ? lower : (lower + kthDeviation(n / 2, s, n, split, m)) / 2
  }

  /// The k-th smallest (0-based) of A[i] = m - s[split-1-i] and B[j] = s[split+j] - m.
  private static func kthDeviation(
    _ k: Int, _ s: UnsafePointer<Float>, _ n: Int, _ split: Int, _ m: Double
  ) -> Double {
    let a = split, b = n - split, taken = k + 1
    func left(_ i: Int) -> Double { m - Double(s[split - 1 - i]) }
    func right(_ j: Int) -> Double { Double(s[split + j]) - m }
    // Smallest i (taken from A) with A[i] >= B[taken - i - 1].
    var low = Swift.max(0, taken - b), high = Swift.min(taken, a)
    while low < high {
      let i = (low + high) / 2
      if left(i) < right(taken - i - 1) { low = i + 1 } else { high = i }
    }
    let j = taken - low
    return Swift.max(low > 0 ? left(low - 1) : -.infinity, j > 0 ? right(j - 1) : -.infinity)
  }

  /// acos(c) for c in [-1, 1], inline: Abramowitz & Stegun 4.4.46,
  /// acos(x) = sqrt(1 - x) (a0 + a1 x + ... + a7 x^7) for x in [0, 1], |error| <= 2e-8 rad,
  /// and acos(-x) = pi - acos(x). A libm call per sample cost more than the rest of the
  /// angle feature.
  @inline(__always)
  static func arccos(_ c: Double) -> Double {
    let x = abs(c)
    var poly = -0.0012624911
    poly = poly * x + 0.0066700901
    poly = poly * x - 0.0170881256
    poly = poly * x + 0.0308918810
    poly = poly * x - 0.0501743046
    poly = poly * x + 0.0889789874
    poly = poly * x - 0.2145988016
    poly = poly * x + 1.5707963050
    let angle = (1 - x).squareRoot() * poly
    return c < 0 ? Double.pi - angle : angle
  }

  /// `arccos` on four lanes (same approximation).
  @inline(__always)
  static func arccos(_ c: SIMD4<Double>) -> SIMD4<Double> {
    let negative = c .< 0
    let x = c.replacing(with: -c, where: negative)
    var poly = SIMD4<Double>(repeating: -0.0012624911)
    poly = poly * x + 0.0066700901
    poly = poly * x - 0.0170881256
    poly = poly * x + 0.0308918810
    poly = poly * x - 0.0501743046
    poly = poly * x + 0.0889789874
    poly = poly * x - 0.2145988016
    poly = poly * x + 1.5707963050
    let angle = (1 - x).squareRoot() * poly
    return angle.replacing(with: Double.pi - angle, where: negative)
  }

  /// ln(x) on four Float lanes for x >= 0: x = 2^e m with m in [sqrt(1/2), sqrt(2)), then
  /// ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, by its series to s^9 (relative
  /// error ~1e-7, Float's own). Zero gives a finite value (about -88), so 0 * ln 0 = 0.
  @inline(__always)
  static func naturalLog(_ x: SIMD4<Float>) -> SIMD4<Float> {
    let bits = unsafeBitCast(x, to: SIMD4<UInt32>.self)
    var e = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: (bits &>> 23) & 0xff) &- 127)
    var m = unsafeBitCast((bits & 0x007f_ffff) | 0x3f80_0000, to: SIMD4<Float>.self)
    let high = m .> 1.41421356
    m.replace(with: m * 0.5, where: high)
    e.replace(with: e + 1, where: high)
    let s = (m - 1) / (m + 1)
    let s2 = s * s
    var series = SIMD4<Float>(repeating: 1.0 / 9)
    series = series * s2 + 1.0 / 7
    series = series * s2 + 1.0 / 5
    series = series * s2 + 1.0 / 3
    series = series * s2 + 1
    return e * 0.693147181 + 2 * s * series
  }

  /// NumPy's default ("linear") percentile of sorted values: interpolate at q * (n - 1).
  @inline(__always)
  static func percentile(_ sorted: UnsafePointer<Float>, _ n: Int, _ q: Double) -> Double {
    let position = q * Double(n - 1)
    let lower = Int(position.rounded(.down))
    let upper = Swift.min(lower + 1, n - 1)
    let fraction = position - Double(lower)
    let a = Double(sorted[lower]), b = Double(sorted[upper])
    return a + (b - a) * fraction
  }

  /// `sum_{t < count} a[t] * b[t]` with eight Float lanes.
  @inline(__always)
  static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
    var lanes = SIMD8<Float>.zero
    var i = 0
    while i + 8 <= count {
      let va = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self)
      let vb = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self)
      lanes += va * vb
      i += 8
    }
    var total = lanes.sum()
    while i < count {
      total += a[i] * b[i]
      i += 1
    }
    return total
  }

  /// Zeros `autocorrelationPeak` needs after the `n` values of `d`.
  static let autocorrelationPadding = 16

  /// The highest local maximum of the normalised autocorrelation of the mean-removed `d` at
  /// lags `minLag...maxLag` (see FeatureExtractor for the definition).
  ///
  /// - Parameters:
  ///   - d: `n` values followed by `autocorrelationPadding` zeros. The zeros let every lag
  ///     run whole vectors: products past the end vanish, so no lag needs a scalar tail.
  ///   - scratch: At least `maxLag + 5` Floats.
  /// - Returns: The peak and its lag in samples; `(0, 0)` when there is no local maximum.
  static func autocorrelationPeak(
    _ d: UnsafePointer<Float>, _ n: Int, minLag: Int, maxLag: Int,
    scratch r: UnsafeMutablePointer<Float>
  ) -> (value: Double, lag: Int) {
    let energy = dot(d, d, n)
    guard energy > 0, minLag <= maxLag, maxLag + 1 < n else { return (0, 0) }
    // Four lags per sweep share the loads of d[t]; t runs to the longest lag's end rounded
    // up to 8, reading zeros past n.
    var k = minLag - 1
    while k <= maxLag + 1 {
      var s0 = SIMD8<Float>.zero, s1 = SIMD8<Float>.zero
      var s2 = SIMD8<Float>.zero, s3 = SIMD8<Float>.zero
      var t = 0
      let end = n - k
      while t < end {
        let a = UnsafeRawPointer(d + t).loadUnaligned(as: SIMD8<Float>.self)
        let b = d + t + k
        s0 += a * UnsafeRawPointer(b).loadUnaligned(as: SIMD8<Float>.self)
        s1 += a * UnsafeRawPointer(b + 1).loadUnaligned(as: SIMD8<Float>.self)
        s2 += a * UnsafeRawPointer(b + 2).loadUnaligned(as: SIMD8<Float>.self)
        s3 += a * UnsafeRawPointer(b + 3).loadUnaligned(as: SIMD8<Float>.self)
        t += 8
      }
      r[k] = s0.sum()
      r[k + 1] = s1.sum()
      r[k + 2] = s2.sum()
      r[k + 3] = s3.sum()
      k += 4
    }
    var best: Float = -.infinity
    var bestLag = 0
    for k in minLag...maxLag where r[k] > r[k - 1] && r[k] >= r[k + 1] && r[k] > best {
      best = r[k]
      bestLag = k
    }
    return bestLag == 0 ? (0, 0) : (Double(best) / Double(energy), bestLag)
  }
}
