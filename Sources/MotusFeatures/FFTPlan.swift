// Forward discrete Fourier transform of split-complex Float data, planned once per length.
// X[k] = sum_t x[t] * exp(-2 pi i k t / n), k in 0..<n, unscaled (as numpy.fft.fft).
// Power-of-two lengths run an iterative radix-2 FFT; other lengths use Bluestein's chirp-z
// algorithm on a power-of-two plan of length >= 2n - 1. Tables are built in Double.

import Foundation

/// A reusable plan for the length-`length` DFT.
///
///     let plan = FFTPlan(length: 8)
///     var re: [Float] = [1, 0, 0, 0, 0, 0, 0, 0], im = [Float](repeating: 0, count: 8)
///     plan.forward(real: &re, imag: &im)   // all ones
///
/// `forward(real:imag:scratch:)` does not allocate: callers that run it often keep a
/// `scratchCount`-long buffer (zero for power-of-two lengths).
/// - Complexity: O(n log n) per transform; planning is O(n) (Bluestein: O(m log m), m >= 2n-1).
public struct FFTPlan: Sendable {
  public let length: Int
  /// Floats of scratch `forward(real:imag:scratch:)` needs.
  public let scratchCount: Int

  // Radix-2 tables (empty for Bluestein lengths): bit-reversed index of each position, and
  // per stage of size s = 2h >= 4 the twiddles exp(-2 pi i k / s), k < h, stored
  // contiguously at offset h - 2 so a stage reads them with vector loads.
  private let bitReversed: [Int32]
  private let twiddleReal: [Float]
  private let twiddleImag: [Float]
  private let bluestein: Bluestein?
  private let packing: RealPacking?

  /// Floats of scratch `forwardReal(input:real:imag:scratch:)` needs.
  public var realScratchCount: Int {
    if let packing { return length + packing.half.scratchCount }
    return 2 * length + scratchCount
  }

  // An even-length real input as a half-length complex one: z[m] = x[2m] + i x[2m+1].
  private final class RealPacking: Sendable {
    let half: FFTPlan
    // exp(-2 pi i k / n), k in 0...n/2.
    let twiddleReal: [Float]
    let twiddleImag: [Float]

    init(length n: Int) {
      half = FFTPlan(length: n / 2)
      twiddleReal = (0...(n / 2)).map { Float(cos(-2 * Double.pi * Double($0) / Double(n))) }
      twiddleImag = (0...(n / 2)).map { Float(sin(-2 * Double.pi * Double($0) / Double(n))) }
    }
  }

  // A class only because a struct cannot contain its own type (the inner plan).
  private final class Bluestein: Sendable {
    let inner: FFTPlan
    // chirp w[k] = exp(-i pi k^2 / n), k < n.
    let chirpReal: [Float]
    let chirpImag: [Float]
    // FFT of the conjugate chirp wrapped to the inner length, pre-scaled by 1/m.
    let kernelReal: [Float]
    let kernelImag: [Float]

    /// Plans the chirp-z transform of `length` through an inner power-of-two FFT of
    /// m >= 2 length - 1.
    init(length: Int) {
      var m = 1
      while m < 2 * length - 1 { m <<= 1 }
      inner = FFTPlan(length: m)
      // k^2 mod 2n keeps the angle small, so the chirp stays accurate for long lengths.
      var chirpRe = [Float](repeating: 0, count: length)
      var chirpIm = [Float](repeating: 0, count: length)
      for k in 0..<length {
        let angle = Double.pi * Double((k * k) % (2 * length)) / Double(length)
        chirpRe[k] = Float(cos(angle))
        chirpIm[k] = Float(-sin(angle))
      }
      var kernelRe = [Float](repeating: 0, count: m)
      var kernelIm = [Float](repeating: 0, count: m)
      for k in 0..<length {
        kernelRe[k] = chirpRe[k]
        kernelIm[k] = -chirpIm[k]
        if k > 0 {
          kernelRe[m - k] = chirpRe[k]
          kernelIm[m - k] = -chirpIm[k]
        }
      }
      inner.forward(real: &kernelRe, imag: &kernelIm)
      let scale = 1 / Float(m)
      for i in 0..<m {
        kernelRe[i] *= scale
        kernelIm[i] *= scale
      }
      chirpReal = chirpRe
      chirpImag = chirpIm
      kernelReal = kernelRe
      kernelImag = kernelIm
    }
  }

  public static func isPowerOfTwo(_ n: Int) -> Bool { n > 0 && n & (n - 1) == 0 }

  public init(length: Int) {
    precondition(length >= 1, "FFT length must be positive, got \(length)")
    self.length = length
    packing = length >= 4 && length % 2 == 0 ? RealPacking(length: length) : nil
    if FFTPlan.isPowerOfTwo(length) {
      var bits = 0
      while 1 << bits < length { bits += 1 }
      var reversed = [Int32](repeating: 0, count: length)
      for i in 0..<length {
        var r = 0
        for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
        reversed[i] = Int32(r)
      }
      bitReversed = reversed
      var stageRe: [Float] = [], stageIm: [Float] = []
      var size = 4
      while size <= length {
        for k in 0..<(size / 2) {
          stageRe.append(Float(cos(-2 * Double.pi * Double(k) / Double(size))))
          stageIm.append(Float(sin(-2 * Double.pi * Double(k) / Double(size))))
        }
        size *= 2
      }
      twiddleReal = stageRe
      twiddleImag = stageIm
      bluestein = nil
      scratchCount = 0
      return
    }
    bitReversed = []
    twiddleReal = []
    twiddleImag = []
    let plan = Bluestein(length: length)
    bluestein = plan
    scratchCount = 2 * plan.inner.length
  }

  /// In-place forward DFT of `length` split-complex values.
  ///
  /// - Parameters:
  ///   - real, imag: `length` values each; replaced by the transform.
  ///   - scratch: At least `scratchCount` Floats (may be empty for power-of-two lengths).
  public func forward(
    real: UnsafeMutablePointer<Float>, imag: UnsafeMutablePointer<Float>,
    scratch: UnsafeMutableBufferPointer<Float>
  ) {
    if let bluestein {
      precondition(scratch.count >= scratchCount, "scratch \(scratch.count) < \(scratchCount)")
      forwardBluestein(bluestein, real: real, imag: imag, scratch: scratch.baseAddress!)
    } else {
      forwardRadix2(real: real, imag: imag)
    }
  }

  /// The first `length / 2 + 1` bins of the DFT of a real input (the rest mirror them).
  ///
  /// Even lengths transform `length / 2` complex values, then untangle them: about half the
  /// work of `forward`.
  /// - Parameters:
  ///   - input: `length` real values (not modified).
  ///   - real, imag: Receive bins `0...length / 2`.
  ///   - scratch: At least `realScratchCount` Floats.
  public func forwardReal(
    input x: UnsafePointer<Float>, real: UnsafeMutablePointer<Float>,
    imag: UnsafeMutablePointer<Float>, scratch: UnsafeMutableBufferPointer<Float>
  ) {
    precondition(
      scratch.count >= realScratchCount, "scratch \(scratch.count) < \(realScratchCount)")
    let base = scratch.baseAddress!
    guard let packing else {
      let re = base, im = base + length
      for t in 0..<length {
        re[t] = x[t]
        im[t] = 0
      }
      forward(
        real: re, imag: im,
        scratch: UnsafeMutableBufferPointer(rebasing: scratch[(2 * length)...]))
      real.update(from: re, count: length / 2 + 1)
      imag.update(from: im, count: length / 2 + 1)
      return
    }
    let h = length / 2
    let zr = base, zi = base + h
    if packing.half.bluestein == nil {
      // Radix-2 half: write z straight into bit-reversed order, saving the FFT's own pass.
      packing.half.bitReversed.withUnsafeBufferPointer { reversed in
        for m in 0..<h {
          let j = Int(reversed[m])
          zr[j] = x[2 &* m]
          zi[j] = x[2 &* m &+ 1]
        }
      }
      packing.half.forwardRadix2(real: zr, imag: zi, inputBitReversed: true)
    } else {
      for m in 0..<h {
        zr[m] = x[2 * m]
        zi[m] = x[2 * m + 1]
      }
      packing.half.forward(
        real: zr, imag: zi, scratch: UnsafeMutableBufferPointer(rebasing: scratch[length...]))
    }
    packing.twiddleReal.withUnsafeBufferPointer { twr in
      packing.twiddleImag.withUnsafeBufferPointer { twi in
        let wr = twr.baseAddress!, wi = twi.baseAddress!
        // Even part E = (Z[k] + conj Z[h-k]) / 2, odd part O = -i (Z[k] - conj Z[h-k]) / 2;
        // X[k] = E + w^k O. Bins 1...h-4 four at a time (the mirrors read backwards), with
        // the same operations in the same order as the scalar bins.
        var k = 1
        while k &+ 4 <= h {
          let mirror = h &- k &- 3
          let a = load4(zr + k), b = load4(zi + k)
          let c = reversed(load4(zr + mirror)), d = reversed(load4(zi + mirror))
          let er = (a + c) * 0.5, ei = (b - d) * 0.5
          let or = (b + d) * 0.5, oi = (c - a) * 0.5
          let cr = load4(wr + k), ci = load4(wi + k)
          store4(er + cr * or - ci * oi, real + k)
          store4(ei + cr * oi + ci * or, imag + k)
          k &+= 4
        }
        func bin(_ k: Int) {
          let a = zr[k == h ? 0 : k], b = zi[k == h ? 0 : k]
          let mirror = k == 0 ? 0 : h - k
          let c = zr[mirror], d = zi[mirror]
          let er = (a + c) * 0.5, ei = (b - d) * 0.5
          let or = (b + d) * 0.5, oi = (c - a) * 0.5
          real[k] = er + wr[k] * or - wi[k] * oi
          imag[k] = ei + wr[k] * oi + wi[k] * or
        }
        bin(0)
        while k <= h {
          bin(k)
          k &+= 1
        }
      }
    }
  }

  @inline(__always)
  private func reversed(_ v: SIMD4<Float>) -> SIMD4<Float> { SIMD4(v[3], v[2], v[1], v[0]) }

  /// Convenience form for tests and one-off use (allocates scratch).
  public func forward(real: inout [Float], imag: inout [Float]) {
    precondition(real.count == length && imag.count == length, "expected \(length) values")
    var scratch = [Float](repeating: 0, count: scratchCount)
    real.withUnsafeMutableBufferPointer { re in
      imag.withUnsafeMutableBufferPointer { im in
        scratch.withUnsafeMutableBufferPointer { s in
          forward(real: re.baseAddress!, imag: im.baseAddress!, scratch: s)
        }
      }
    }
  }

  /// - Parameter inputBitReversed: The caller already stored the input in bit-reversed
  ///   order, so the permutation pass is skipped.
  private func forwardRadix2(
    real re: UnsafeMutablePointer<Float>, imag im: UnsafeMutablePointer<Float>,
    inputBitReversed: Bool = false
  ) {
    let n = length
    if n == 1 { return }
    if !inputBitReversed {
      bitReversed.withUnsafeBufferPointer { rev in
        for i in 0..<n {
          let j = Int(rev[i])
          if j > i {
            swap(&re[i], &re[j])
            swap(&im[i], &im[j])
          }
        }
      }
    }
    // Stage of size 2: twiddle 1, so no multiplications.
    var a = 0
    while a < n {
      let tr = re[a &+ 1], ti = im[a &+ 1]
      re[a &+ 1] = re[a] - tr
      im[a &+ 1] = im[a] - ti
      re[a] += tr
      im[a] += ti
      a &+= 2
    }
    if n < 4 { return }
    // Stage of size 4: twiddles 1 and -i.
    a = 0
    while a < n {
      let b = a &+ 2
      var tr = re[b], ti = im[b]
      re[b] = re[a] - tr
      im[b] = im[a] - ti
      re[a] += tr
      im[a] += ti
      // -i (x + iy) = y - ix
      tr = im[b &+ 1]
      ti = -re[b &+ 1]
      re[b &+ 1] = re[a &+ 1] - tr
      im[b &+ 1] = im[a &+ 1] - ti
      re[a &+ 1] += tr
      im[a &+ 1] += ti
      a &+= 4
    }
    // Stages of size >= 8: four butterflies per step with SIMD4.
    twiddleReal.withUnsafeBufferPointer { wr in
      twiddleImag.withUnsafeBufferPointer { wi in
        var half = 4
        while half < n {
          let w = half &- 2
          var start = 0
          while start < n {
            var k = 0
            while k < half {
              let a = start &+ k, b = a &+ half
              let cr = load4(wr.baseAddress! + (w &+ k))
              let ci = load4(wi.baseAddress! + (w &+ k))
              let br = load4(re + b), bi = load4(im + b)
              let tr = cr * br - ci * bi
              let ti = cr * bi + ci * br
              let ar = load4(re + a), ai = load4(im + a)
              store4(ar - tr, re + b)
              store4(ai - ti, im + b)
              store4(ar + tr, re + a)
              store4(ai + ti, im + a)
              k &+= 4
            }
            start &+= 2 &* half
          }
          half &*= 2
        }
      }
    }
  }

  @inline(__always)
  private func load4(_ p: UnsafePointer<Float>) -> SIMD4<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
  }

  @inline(__always)
  private func load4(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
  }

  @inline(__always)
  private func store4(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
  }

  private func forwardBluestein(
    _ plan: Bluestein, real re: UnsafeMutablePointer<Float>, imag im: UnsafeMutablePointer<Float>,
    scratch: UnsafeMutablePointer<Float>
  ) {
    let n = length
    let m = plan.inner.length
    let aRe = scratch, aIm = scratch + m
    plan.chirpReal.withUnsafeBufferPointer { wr in
      plan.chirpImag.withUnsafeBufferPointer { wi in
        // a = x * chirp, zero-padded to m.
        for k in 0..<n {
          aRe[k] = re[k] * wr[k] - im[k] * wi[k]
          aIm[k] = re[k] * wi[k] + im[k] * wr[k]
        }
        for k in n..<m {
          aRe[k] = 0
          aIm[k] = 0
        }
        plan.inner.forwardRadix2(real: aRe, imag: aIm)
        // Multiply by the kernel spectrum, then invert via conj(FFT(conj(.))).
        plan.kernelReal.withUnsafeBufferPointer { kr in
          plan.kernelImag.withUnsafeBufferPointer { ki in
            for k in 0..<m {
              let r = aRe[k] * kr[k] - aIm[k] * ki[k]
              let i = aRe[k] * ki[k] + aIm[k] * kr[k]
              aRe[k] = r
              aIm[k] = -i
            }
          }
        }
        plan.inner.forwardRadix2(real: aRe, imag: aIm)
        // X[k] = chirp[k] * conj(a[k]) (the 1/m is in the kernel).
        for k in 0..<n {
          let cr = aRe[k], ci = -aIm[k]
          re[k] = cr * wr[k] - ci * wi[k]
          im[k] = cr * wi[k] + ci * wr[k]
        }
      }
    }
  }
}
