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
  /// - Parameter scratch: At least `2 * bitonicLength(n)` Floats.
  /// - Complexity: O(p log^2 p) min/max pairs, p = `bitonicLength(n)`.
  static func bitonicSort(
    _ a: UnsafeMutablePointer<Float>, _ n: Int, scratch x: UnsafeMutablePointer<Float>
  ) {
    bitonicSorted(a, n, into: x)
    a.update(from: x, count: n)
  }

  /// Sorts `n` Floats from `a` into `x[0..<n]` ascending (as `bitonicSort`), padded with
  /// +infinity up to p = `bitonicLength(n)`.
  ///
  /// The p values are viewed as R = p / 4 rows of SIMD4, and sorted in the logical order
  /// i = lane * R + row (column-major). Then nearly every compare-exchange of the bitonic
  /// network pairs two rows lane by lane (one min, one max, no shuffle): first each lane's
  /// column is sorted, then the merges across columns add three steps that pair lanes by
  /// shuffles. A final 4x4-block transpose writes the row-major result. Lengths below 32
  /// (too few rows for the blocks of 8) use `shellSort`.
  /// - Parameter x: At least `2 * bitonicLength(n)` Floats: the result, then the work area.
  static func bitonicSorted(
    _ a: UnsafePointer<Float>, _ n: Int, into x: UnsafeMutablePointer<Float>
  ) {
    let p = bitonicLength(n)
    if p < 32 {
      // Too few rows for the blocks of 8; a window this short costs little either way.
      x.update(from: a, count: n)
      for i in n..<p { x[i] = .infinity }
      shellSort(x, p)
      return
    }
    let out = x
    let x = out + p
    x.update(from: a, count: n)
    for i in n..<p { x[i] = .infinity }
    let rows = p / 4
    // Sorts every column: blocks of 8 rows by a network in registers, then the bitonic
    // merges on whole rows.
    sortRowBlocks(x, rows)
    var k = 16
    while k <= rows {
      mirrorRows(x, rows, k)
      cleanRows(x, rows, from: k / 4)
      k *= 2
    }
    mergeColumns(x, rows)
    writeRowMajor(x, rows, into: out)
  }

  /// The bitonic merges across the four sorted columns of `rows` rows, in place.
  @inline(__always)
  private static func mergeColumns(_ x: UnsafeMutablePointer<Float>, _ rows: Int) {
    // Row r is the SIMD4 at x + 4r.
    @inline(__always) func row(_ r: Int) -> UnsafeMutablePointer<Float> { x + 4 &* r }
    // Merge columns 0+1 and 2+3 (blocks of 2R logical values): row r of column 0 meets row
    // R-1-r of column 1, and likewise for columns 2 and 3.
    var r = 0
    while r < rows / 2 {
      let s = rows - 1 - r
      let v = load4(row(r)), w = load4(row(s))
      var low = v, high = SIMD4(w[1], w[0], w[3], w[2])
      exchange(&low, &high)
      store4(SIMD4(low[0], high[1], low[2], high[3]), row(r))
      store4(SIMD4(low[1], high[0], low[3], high[2]), row(s))
      r &+= 1
    }
    cleanRows(x, rows, from: rows / 2)
    // Merge (0+1) with (2+3): column 0 meets column 3 and 1 meets 2, rows mirrored.
    r = 0
    while r < rows / 2 {
      let s = rows - 1 - r
      let v = load4(row(r)), w = load4(row(s))
      var low = v, high = SIMD4(w[3], w[2], w[1], w[0])
      exchange(&low, &high)
      store4(SIMD4(low[0], low[1], high[2], high[3]), row(r))
      store4(SIMD4(low[3], low[2], high[1], high[0]), row(s))
      r &+= 1
    }
    // Distance R: columns 0-1 and 2-3 within each row.
    r = 0
    while r < rows {
      let v = load4(row(r))
      var low = v, high = SIMD4(v[1], v[0], v[3], v[2])
      exchange(&low, &high)
      store4(SIMD4(low[0], high[1], low[2], high[3]), row(r))
      r &+= 1
    }
    cleanRows(x, rows, from: rows / 2)
  }

  /// Writes the column-major rows to `out` in row-major (ascending) order.
  @inline(__always)
  private static func writeRowMajor(
    _ x: UnsafeMutablePointer<Float>, _ rows: Int, into out: UnsafeMutablePointer<Float>
  ) {
    @inline(__always) func row(_ r: Int) -> UnsafeMutablePointer<Float> { x + 4 &* r }
    // Column-major to row-major: a 4x4 block of rows 4b...4b+3 holds, per lane j, the four
    // logical values j R + 4b ..< j R + 4b + 4.
    var r = 0
    while r < rows {
      let (c0, c1, c2, c3) = transpose(
        load4(row(r)), load4(row(r &+ 1)), load4(row(r &+ 2)), load4(row(r &+ 3)))
      store4(c0, out + r)
      store4(c1, out + (rows &+ r))
      store4(c2, out + (2 &* rows &+ r))
      store4(c3, out + (3 &* rows &+ r))
      r &+= 4
    }
  }

  /// Bitonic step 1 on rows: in each block of k rows, row i meets row k-1-i.
  @inline(__always)
  private static func mirrorRows(_ x: UnsafeMutablePointer<Float>, _ rows: Int, _ k: Int) {
    var block = 0
    while block < rows {
      var i = 0
      while i < k / 2 {
        let lo = x + 4 &* (block &+ i), hi = x + 4 &* (block &+ k &- 1 &- i)
        var u = load4(lo), v = load4(hi)
        exchange(&u, &v)
        store4(u, lo)
        store4(v, hi)
        i &+= 1
      }
      block &+= k
    }
  }

  /// Half-cleaners of distance `d`, d/2, ..., 1 rows; the last three (4, 2, 1) run in
  /// registers on each block of 8 rows.
  @inline(__always)
  private static func cleanRows(_ x: UnsafeMutablePointer<Float>, _ rows: Int, from d: Int) {
    var d = d
    while d >= 8 {
      halfCleanRows(x, rows, d)
      d /= 2
    }
    var b = 0
    while b < rows {
      let p = x + 4 &* b
      var r0 = load4(p), r1 = load4(p + 4), r2 = load4(p + 8), r3 = load4(p + 12)
      var r4 = load4(p + 16), r5 = load4(p + 20), r6 = load4(p + 24), r7 = load4(p + 28)
      exchange(&r0, &r4)
      exchange(&r1, &r5)
      exchange(&r2, &r6)
      exchange(&r3, &r7)
      exchange(&r0, &r2)
      exchange(&r1, &r3)
      exchange(&r4, &r6)
      exchange(&r5, &r7)
      exchange(&r0, &r1)
      exchange(&r2, &r3)
      exchange(&r4, &r5)
      exchange(&r6, &r7)
      store8Rows(p, r0, r1, r2, r3, r4, r5, r6, r7)
      b &+= 8
    }
  }

  /// Sorts each column within every block of 8 rows: Batcher's 19-comparator network.
  @inline(__always)
  private static func sortRowBlocks(_ x: UnsafeMutablePointer<Float>, _ rows: Int) {
    var b = 0
    while b < rows {
      let p = x + 4 &* b
      var r0 = load4(p), r1 = load4(p + 4), r2 = load4(p + 8), r3 = load4(p + 12)
      var r4 = load4(p + 16), r5 = load4(p + 20), r6 = load4(p + 24), r7 = load4(p + 28)
      exchange(&r0, &r1)
      exchange(&r2, &r3)
      exchange(&r4, &r5)
      exchange(&r6, &r7)
      exchange(&r0, &r2)
      exchange(&r1, &r3)
      exchange(&r4, &r6)
      exchange(&r5, &r7)
      exchange(&r1, &r2)
      exchange(&r5, &r6)
      exchange(&r0, &r4)
      exchange(&r1, &r5)
      exchange(&r2, &r6)
      exchange(&r3, &r7)
      exchange(&r2, &r4)
      exchange(&r3, &r5)
      exchange(&r1, &r2)
      exchange(&r3, &r4)
      exchange(&r5, &r6)
      store8Rows(p, r0, r1, r2, r3, r4, r5, r6, r7)
      b &+= 8
    }
  }

  @inline(__always)
  private static func store8Rows(
    _ p: UnsafeMutablePointer<Float>, _ r0: SIMD4<Float>, _ r1: SIMD4<Float>,
    _ r2: SIMD4<Float>, _ r3: SIMD4<Float>, _ r4: SIMD4<Float>, _ r5: SIMD4<Float>,
    _ r6: SIMD4<Float>, _ r7: SIMD4<Float>
  ) {
    store4(r0, p)
    store4(r1, p + 4)
    store4(r2, p + 8)
    store4(r3, p + 12)
    store4(r4, p + 16)
    store4(r5, p + 20)
    store4(r6, p + 24)
    store4(r7, p + 28)
  }

  /// A half-cleaner on rows: row i meets row i + d in each block of 2d rows.
  @inline(__always)
  private static func halfCleanRows(_ x: UnsafeMutablePointer<Float>, _ rows: Int, _ d: Int) {
    var q = 0
    let mask = d &- 1
    while q < rows / 2 {
      // The q-th pair: block q / d, offset q % d (d is a power of two).
      let i = ((q & ~mask) << 1) | (q & mask)
      let lo = x + 4 &* i, hi = x + 4 &* (i &+ d)
      var u = load4(lo), v = load4(hi)
      exchange(&u, &v)
      store4(u, lo)
      store4(v, hi)
      q &+= 1
    }
  }

  /// `a, b = min(a, b), max(a, b)` lane-wise (one minps and one maxps).
  @inline(__always)
  private static func exchange(_ a: inout SIMD4<Float>, _ b: inout SIMD4<Float>) {
    let low = a.replacing(with: b, where: b .< a)
    let high = a.replacing(with: b, where: a .< b)
    a = low
    b = high
  }

  @inline(__always)
  private static func reversed(_ v: SIMD4<Float>) -> SIMD4<Float> {
    SIMD4(v[3], v[2], v[1], v[0])
  }

  /// Rows `a, b, c, d` to columns: result `j` holds lane `j` of each.
  @inline(__always)
  private static func transpose(
    _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>
  ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    let ab01 = SIMD4(a[0], b[0], a[1], b[1]), cd01 = SIMD4(c[0], d[0], c[1], d[1])
    let ab23 = SIMD4(a[2], b[2], a[3], b[3]), cd23 = SIMD4(c[2], d[2], c[3], d[3])
    return (
      SIMD4(lowHalf: ab01.lowHalf, highHalf: cd01.lowHalf),
      SIMD4(lowHalf: ab01.highHalf, highHalf: cd01.highHalf),
      SIMD4(lowHalf: ab23.lowHalf, highHalf: cd23.lowHalf),
      SIMD4(lowHalf: ab23.highHalf, highHalf: cd23.highHalf)
    )
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

  /// Normalised spectral entropy of the power bins `p[0..<binCount]` whose sum is `total`:
  /// `-sum q log q / log binCount` with `q = p / total`, in [0, 1]; 0 for one bin or no power.
  /// Four bins at a time with a Float log (relative error ~1e-7, below Float output): a libm
  /// call per bin cost more than the FFT.
  static func spectralEntropy(_ p: UnsafePointer<Double>, _ binCount: Int, total: Double) -> Double {
    guard total > 0 else { return 0 }
    var sum4 = SIMD4<Double>.zero
    let inverseTotal = SIMD4<Double>(repeating: 1 / total)
    var k = 0
    while k + 4 <= binCount {
      let q = UnsafeRawPointer(p + k).loadUnaligned(as: SIMD4<Double>.self) * inverseTotal
      sum4 += q * SIMD4<Double>(naturalLog(SIMD4<Float>(q)))
      k += 4
    }
    var sumPLogP = sum4.sum()
    while k < binCount {
      let q = p[k] / total
      if q > 0 { sumPLogP += q * Foundation.log(q) }
      k += 1
    }
    return binCount > 1 ? -sumPLogP / Foundation.log(Double(binCount)) : 0
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
      // The four lanes' sums at once: halves, then a transpose-add.
      let h0 = s0.lowHalf + s0.highHalf, h1 = s1.lowHalf + s1.highHalf
      let h2 = s2.lowHalf + s2.highHalf, h3 = s3.lowHalf + s3.highHalf
      let a = SIMD4(h0[0], h1[0], h0[2], h1[2]) + SIMD4(h0[1], h1[1], h0[3], h1[3])
      let c = SIMD4(h2[0], h3[0], h2[2], h3[2]) + SIMD4(h2[1], h3[1], h2[3], h3[3])
      UnsafeMutableRawPointer(r + k).storeBytes(
        of: SIMD4(a[0], a[1], c[0], c[1]) + SIMD4(a[2], a[3], c[2], c[3]), as: SIMD4<Float>.self)
      k += 4
    }
    // Whether a lag is a local maximum is a coin toss on noisy data, so the highest peak is
    // found with masks, four lags at a time; then one scan finds its first lag.
    func load(_ i: Int) -> SIMD4<Float> {
      UnsafeRawPointer(r + i).loadUnaligned(as: SIMD4<Float>.self)
    }
    var best4 = SIMD4<Float>(repeating: -.infinity)
    k = minLag
    while k + 3 <= maxLag {
      let value = load(k)
      let peak = (value .> load(k - 1)) .& (value .>= load(k + 1))
      best4.replace(with: value, where: peak .& (value .> best4))
      k += 4
    }
    var best = best4.max()
    while k <= maxLag {
      if r[k] > r[k - 1] && r[k] >= r[k + 1] && r[k] > best { best = r[k] }
      k += 1
    }
    var bestLag = 0
    if best > -.infinity {
      for k in minLag...maxLag where r[k] == best && r[k] > r[k - 1] && r[k] >= r[k + 1] {
        bestLag = k
        break
      }
    }
    return bestLag == 0 ? (0, 0) : (Double(best) / Double(energy), bestLag)
  }

  // MARK: - Moments and crossings (one channel's window, x[0..<n])

  /// The sum (in Double, four lanes), minimum and maximum of x.
  @inline(__always)
  static func sumMinMax(_ x: UnsafePointer<Float>, _ n: Int) -> (sum: Double, low: Float, high: Float) {
    var sum4 = SIMD4<Double>.zero
    var low4 = SIMD4<Float>(repeating: x[0]), high4 = low4
    var t = 0
    while t + 4 <= n {
      let v = UnsafeRawPointer(x + t).loadUnaligned(as: SIMD4<Float>.self)
      sum4 += SIMD4<Double>(v)
      low4 = low4.replacing(with: v, where: v .< low4)
      high4 = high4.replacing(with: v, where: v .> high4)
      t += 4
    }
    var sum = sum4.sum()
    var low = low4.min(), high = high4.max()
    while t < n {
      sum += Double(x[t])
      low = Swift.min(low, x[t])
      high = Swift.max(high, x[t])
      t += 1
    }
    return (sum, low, high)
  }

  /// Sums of d^2, d^3, d^4 and x^2 in Double for d = x - mean, storing d as Float in
  /// `deviation` for the autocorrelation and the spectrum.
  @inline(__always)
  static func centralSums(
    _ x: UnsafePointer<Float>, _ n: Int, mean: Double, deviation dev: UnsafeMutablePointer<Float>
  ) -> (s2: Double, s3: Double, s4: Double, squares: Double) {
    var m2Sum = SIMD4<Double>.zero, m3Sum = m2Sum, m4Sum = m2Sum, squareSum = m2Sum
    let mean4 = SIMD4<Double>(repeating: mean)
    var t = 0
    while t + 4 <= n {
      let v = SIMD4<Double>(UnsafeRawPointer(x + t).loadUnaligned(as: SIMD4<Float>.self))
      let d = v - mean4
      let d2 = d * d
      m2Sum += d2
      m3Sum += d2 * d
      m4Sum += d2 * d2
      squareSum += v * v
      UnsafeMutableRawPointer(dev + t).storeBytes(of: SIMD4<Float>(d), as: SIMD4<Float>.self)
      t += 4
    }
    var s2 = m2Sum.sum(), s3 = m3Sum.sum(), s4 = m4Sum.sum(), squares = squareSum.sum()
    while t < n {
      let v = Double(x[t])
      let d = v - mean
      s2 += d * d
      s3 += d * d * d
      s4 += d * d * d * d
      squares += v * v
      dev[t] = Float(d)
      t += 1
    }
    return (s2, s3, s4, squares)
  }

  /// Sign changes between neighbours of d (Float(d) keeps the sign of d: |d| is far above
  /// Float's minimum). Counted as sign-bit changes, four at a time and without a branch (noisy
  /// channels cross often and at random); d - mean is never -0, so the sign bit is d < 0.
  @inline(__always)
  static func signChanges(_ dev: UnsafePointer<Float>, _ n: Int) -> Int {
    var changes = SIMD4<UInt32>.zero
    var t = 1
    while t + 4 <= n {
      let previous = UnsafeRawPointer(dev + t - 1).loadUnaligned(as: SIMD4<UInt32>.self)
      let current = UnsafeRawPointer(dev + t).loadUnaligned(as: SIMD4<UInt32>.self)
      changes &+= (previous ^ current) &>> 31
      t += 4
    }
    var crossings = Int(changes.wrappedSum())
    while t < n {
      crossings &+= (dev[t - 1] >= 0) != (dev[t] >= 0) ? 1 : 0
      t += 1
    }
    return crossings
  }

  /// P[k] = (re[k]^2 + im[k]^2) * scale for k in 0..<binCount, in Double, with its total and
  /// its first moment over the bin index (sum k P[k]), four bins at a time.
  @inline(__always)
  static func powerSpectrum(
    _ re: UnsafePointer<Float>, _ im: UnsafePointer<Float>, _ binCount: Int, scale: Double,
    into p: UnsafeMutablePointer<Double>
  ) -> (total: Double, indexWeighted: Double) {
    var total4 = SIMD4<Double>.zero, weighted4 = SIMD4<Double>.zero
    var index4 = SIMD4<Double>(0, 1, 2, 3)
    var k = 0
    while k + 4 <= binCount {
      let r = SIMD4<Double>(UnsafeRawPointer(re + k).loadUnaligned(as: SIMD4<Float>.self))
      let i = SIMD4<Double>(UnsafeRawPointer(im + k).loadUnaligned(as: SIMD4<Float>.self))
      let value = (r * r + i * i) * scale
      UnsafeMutableRawPointer(p + k).storeBytes(of: value, as: SIMD4<Double>.self)
      total4 += value
      weighted4 += value * index4
      index4 += 4
      k += 4
    }
    var total = total4.sum(), weighted = weighted4.sum()
    while k < binCount {
      let r = Double(re[k]), i = Double(im[k])
      let value = (r * r + i * i) * scale
      p[k] = value
      total += value
      weighted += Double(k) * value
      k += 1
    }
    return (total, weighted)
  }
}
