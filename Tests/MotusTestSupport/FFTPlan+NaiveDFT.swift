// The O(n^2) definition of the DFT in Double: the reference `FFTPlan` is tested against
// (FFTPlanTests, and the reference features of FeatureExtractor+Reference.swift).

import Foundation
import MotusFeatures

extension FFTPlan {
  /// The O(n^2) definition in Double: the reference the plan is tested against.
  public static func naiveDFT(real: [Double], imag: [Double]) -> (real: [Double], imag: [Double]) {
    precondition(real.count == imag.count, "real \(real.count) vs imag \(imag.count)")
    let n = real.count
    var outRe = [Double](repeating: 0, count: n)
    var outIm = [Double](repeating: 0, count: n)
    for k in 0..<n {
      var sr = 0.0, si = 0.0
      for t in 0..<n {
        // (k * t) mod n keeps the angle exact for long inputs.
        let angle = -2 * Double.pi * Double((k * t) % n) / Double(n)
        let c = cos(angle), s = sin(angle)
        sr += real[t] * c - imag[t] * s
        si += real[t] * s + imag[t] * c
      }
      outRe[k] = sr
      outIm[k] = si
    }
    return (outRe, outIm)
  }
}
