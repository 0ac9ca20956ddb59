// Temperature scaling (Guo, Pleiss, Sun and Weinberger, "On calibration of modern neural
// networks", ICML 2017): one scalar T > 0 dividing the logits [N, K], chosen to minimise the
// validation negative log-likelihood. Argmax (and so accuracy) is unchanged.

import Foundation
import MotusLinearAlgebra

public enum TemperatureScaling {
  /// Mean negative log-likelihood of `labels` under `softmax(logits / temperature)`.
  public static func negativeLogLikelihood(logits: Matrix, labels: [Int], temperature: Double)
    -> Double
  {
    let k = logits.columnCount
    guard logits.rowCount > 0 else { return .nan }
    var total = 0.0
    for i in 0..<logits.rowCount {
      var maxZ = -Double.infinity
      for c in 0..<k { maxZ = max(maxZ, Double(logits.values[i * k + c]) / temperature) }
      var sum = 0.0
      for c in 0..<k {
        sum += Foundation.exp(Double(logits.values[i * k + c]) / temperature - maxZ)
      }
      total += Foundation.log(sum) + maxZ - Double(logits.values[i * k + labels[i]]) / temperature
    }
    return total / Double(logits.rowCount)
  }

  /// The temperature minimising the NLL, by golden-section search on `log T` over
  /// `[log 0.05, log 1000]` (NLL is unimodal in `log T` for practical logits), to
  /// `|Δ log T| < 1e-6`. Returns 1 when there are no rows.
  ///
  /// The range is asymmetric on purpose: weakly penalised models can be overconfident by a
  /// factor of 20 or more, while a validation part classified perfectly pushes T towards 0
  /// without telling anything; 0.05 bounds that sharpening.
  public static func fit(logits: Matrix, labels: [Int]) -> Float {
    precondition(
      logits.rowCount == labels.count, "\(logits.rowCount) logit rows, \(labels.count) labels")
    guard logits.rowCount > 0 else { return 1 }
    let ratio = (5.0.squareRoot() - 1) / 2
    var lo = Foundation.log(0.05)
    var hi = Foundation.log(1000.0)
    func nll(_ logT: Double) -> Double {
      negativeLogLikelihood(logits: logits, labels: labels, temperature: Foundation.exp(logT))
    }
    var a = hi - ratio * (hi - lo)
    var b = lo + ratio * (hi - lo)
    var fa = nll(a)
    var fb = nll(b)
    while hi - lo > 1e-6 {
      if fa <= fb {
        hi = b
        b = a
        fb = fa
        a = hi - ratio * (hi - lo)
        fa = nll(a)
      } else {
        lo = a
        a = b
        fa = fb
        b = lo + ratio * (hi - lo)
        fb = nll(b)
      }
    }
    return Float(Foundation.exp((lo + hi) / 2))
  }
}
