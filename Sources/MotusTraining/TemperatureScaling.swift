// Temperature scaling (Guo, Pleiss, Sun and Weinberger, "On calibration of modern neural
// networks", ICML 2017): one scalar T > 0 dividing the logits [N, K], chosen to minimise the
// validation negative log-likelihood, with sharpening (T < 1) bounded by the validation
// accuracy. Argmax (and so accuracy) is unchanged.

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
      let lse = LogSumExp(count: k) { Double(logits.values[i * k + $0]) / temperature }
      total += lse.crossEntropy(
        labelLogit: Double(logits.values[i * k + labels[i]]) / temperature, .unshifted)
    }
    return total / Double(logits.rowCount)
  }

  /// The temperature minimising the NLL, by golden-section search on `log T` over
  /// `[log T_min, log 1000]` (NLL is unimodal in `log T` for practical logits), to
  /// `|Δ log T| < 1e-6`. Returns 1 when there are no rows.
  ///
  /// Raising T (softening) is searched up to 1000: weakly penalised models can be overconfident
  /// by a factor of 20 or more. Sharpening (T < 1) is bounded by `sharpeningLimit`: a validation
  /// part classified perfectly (or nearly) makes the NLL fall all the way to T → 0, which says
  /// nothing about new data and saturates probabilities to 0 and 1, so held-out calibration gets
  /// worse, not better. `T_min` is the temperature at which the mean top probability equals
  /// the validation accuracy estimate `(correct + 1) / (n + 2)` (Laplace's rule of succession):
  /// the model may be sharpened until it is, on average, as confident as the validation part
  /// supports, and no further. It is 1 (no sharpening) when the model already is that
  /// confident, and never below 0.05.
  public static func fit(logits: Matrix, labels: [Int]) -> Float {
    precondition(
      logits.rowCount == labels.count, "\(logits.rowCount) logit rows, \(labels.count) labels")
    guard logits.rowCount > 0 else { return 1 }
    let ratio = (5.0.squareRoot() - 1) / 2
    var lo = Foundation.log(sharpeningLimit(logits: logits, labels: labels))
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

  /// The lowest temperature `fit` considers, in `[0.05, 1]`: where the mean top-class
  /// probability of `softmax(logits / T)` reaches `(correct + 1) / (n + 2)`, `correct` being
  /// the rows whose argmax is their label (bisection on `log T` to `1e-6`; the mean top
  /// probability falls as T grows).
  /// - Complexity: O(*N K*) per bisection step, about 22 steps.
  public static func sharpeningLimit(logits: Matrix, labels: [Int]) -> Double {
    precondition(
      logits.rowCount == labels.count, "\(logits.rowCount) logit rows, \(labels.count) labels")
    let n = logits.rowCount
    let k = logits.columnCount
    guard n > 0, k > 0 else { return 1 }
    var correct = 0
    for i in 0..<n {
      var arg = 0
      for c in 1..<k where logits.values[i * k + c] > logits.values[i * k + arg] { arg = c }
      if arg == labels[i] { correct += 1 }
    }
    let supported = Double(correct + 1) / Double(n + 2)
    func meanTop(_ temperature: Double) -> Double {
      var total = 0.0
      for i in 0..<n {
        var maxZ = -Double.infinity
        for c in 0..<k { maxZ = max(maxZ, Double(logits.values[i * k + c])) }
        var sum = 0.0
        for c in 0..<k {
          sum += Foundation.exp((Double(logits.values[i * k + c]) - maxZ) / temperature)
        }
        total += 1 / sum
      }
      return total / Double(n)
    }
    let floor = 0.05
    if meanTop(1) >= supported { return 1 }
    if meanTop(floor) <= supported { return floor }
    var lo = Foundation.log(floor)  // too confident here
    var hi = 0.0  // not confident enough here
    while hi - lo > 1e-6 {
      let mid = (lo + hi) / 2
      if meanTop(Foundation.exp(mid)) > supported { lo = mid } else { hi = mid }
    }
    return Foundation.exp(hi)
  }
}
