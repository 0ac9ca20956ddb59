// The last layer refitted on a few labelled windows, held near the weights it had:
//
//   loss(θ) = Σ_i s_i·(-log softmax(W·h_i + b)[y_i]) + (λ/2)·||θ - θ₀||²
//   ∇_W = Σ_i s_i·(p_i - onehot(y_i))·h_iᵀ + λ(W - W₀),   ∇_b = Σ_i s_i·(p_i - onehot(y_i)) + λ(b - b₀)
//
// θ = (W [K, D] row-major, then b [K]); a frozen class's gradient is held at zero, so its row
// and bias keep θ₀; h_i the layer's inputs (standardised features for
// logistic regression, the last hidden layer for an MLP). Strongly convex for λ > 0, so
// limited-memory BFGS from θ₀ reaches the one minimum; every sum runs in Double in a fixed
// order, so the same windows give the same weights on every machine.

import Foundation
import MotusLinearAlgebra

/// Softmax regression over fixed inputs, penalised towards a starting point.
struct PenalisedSoftmaxFit {
  let inputs: Matrix
  let labels: [Int]
  let sampleWeights: [Double]
  let start: [Double]
  let penalty: Double
  let classCount: Int
  /// Per class, whether its row and bias may move (a frozen one keeps its start).
  let movable: [Bool]

  var parameterCount: Int { classCount * (inputs.columnCount + 1) }

  /// The loss at `theta`, and its gradient.
  /// - Complexity: O(*N D K*).
  func evaluate(_ theta: [Double]) -> (loss: Double, gradient: [Double]) {
    let d = inputs.columnCount
    let k = classCount
    var gradient = [Double](repeating: 0, count: parameterCount)
    var loss = 0.0
    var logits = [Double](repeating: 0, count: k)
    inputs.values.withUnsafeBufferPointer { x in
      for i in 0..<inputs.rowCount {
        let row = x.baseAddress! + i * d
        var maximum = -Double.infinity
        for c in 0..<k {
          var z = theta[k * d + c]
          let w = c * d
          for j in 0..<d { z += theta[w + j] * Double(row[j]) }
          logits[c] = z
          maximum = max(maximum, z)
        }
        var sum = 0.0
        for c in 0..<k {
          logits[c] = exp(logits[c] - maximum)
          sum += logits[c]
        }
        let s = sampleWeights[i]
        loss += s * (maximum + log(sum) - (log(logits[labels[i]]) + maximum))
        for c in 0..<k {
          let delta = s * (logits[c] / sum - (c == labels[i] ? 1 : 0))
          gradient[k * d + c] += delta
          let w = c * d
          for j in 0..<d { gradient[w + j] += delta * Double(row[j]) }
        }
      }
    }
    for c in 0..<k where !movable[c] {
      for j in 0..<d { gradient[c * d + j] = 0 }
      gradient[k * d + c] = 0
    }
    for p in 0..<parameterCount {
      let difference = theta[p] - start[p]
      loss += penalty / 2 * difference * difference
      gradient[p] += penalty * difference
    }
    return (loss, gradient)
  }

  /// The minimiser, from `start`: limited-memory BFGS (two-loop recursion, 8 pairs) with a
  /// backtracking Armijo line search, until the largest gradient entry is below `tolerance`.
  func minimise(maxIterations: Int, tolerance: Double) -> (theta: [Double], iterations: Int) {
    var theta = start
    var (loss, gradient) = evaluate(theta)
    var pairs: [(s: [Double], y: [Double], rho: Double)] = []
    var iteration = 0
    while iteration < maxIterations, gradient.map(abs).max() ?? 0 > tolerance {
      iteration += 1
      var direction = Self.direction(gradient: gradient, pairs: pairs)
      var slope = dot(gradient, direction)
      if slope >= 0 {  // not a descent direction: steepest descent, history forgotten
        pairs.removeAll()
        direction = gradient.map { -$0 }
        slope = dot(gradient, direction)
      }
      var step = 1.0
      var trial = theta
      var trialLoss = loss
      var trialGradient = gradient
      var accepted = false
      for _ in 0..<40 {
        for p in theta.indices { trial[p] = theta[p] + step * direction[p] }
        (trialLoss, trialGradient) = evaluate(trial)
        if trialLoss <= loss + 1e-4 * step * slope {
          accepted = true
          break
        }
        step /= 2
      }
      guard accepted else { break }
      let s = zip(trial, theta).map { $0 - $1 }
      let y = zip(trialGradient, gradient).map { $0 - $1 }
      let curvature = dot(s, y)
      if curvature > 1e-12 {
        pairs.append((s, y, 1 / curvature))
        if pairs.count > 8 { pairs.removeFirst() }
      }
      (theta, loss, gradient) = (trial, trialLoss, trialGradient)
    }
    return (theta, iteration)
  }

  /// `-H·g` by the two-loop recursion over the stored pairs (Nocedal and Wright, Algorithm 7.4).
  private static func direction(
    gradient: [Double], pairs: [(s: [Double], y: [Double], rho: Double)]
  ) -> [Double] {
    var q = gradient
    var alphas = [Double](repeating: 0, count: pairs.count)
    for m in pairs.indices.reversed() {
      alphas[m] = pairs[m].rho * dot(pairs[m].s, q)
      for p in q.indices { q[p] -= alphas[m] * pairs[m].y[p] }
    }
    if let last = pairs.last {
      let scale = 1 / (last.rho * dot(last.y, last.y))
      for p in q.indices { q[p] *= scale }
    }
    for m in pairs.indices {
      let beta = pairs[m].rho * dot(pairs[m].y, q)
      for p in q.indices { q[p] += (alphas[m] - beta) * pairs[m].s[p] }
    }
    return q.map { -$0 }
  }
}

private func dot(_ a: [Double], _ b: [Double]) -> Double {
  var sum = 0.0
  for i in a.indices { sum += a[i] * b[i] }
  return sum
}
