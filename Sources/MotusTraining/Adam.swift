// Adam (Kingma and Ba, "Adam: A method for stochastic optimization", ICLR 2015, Algorithm 1),
// on a flat parameter vector of P Floats.

/// The Adam optimiser state for `P` parameters.
public struct Adam: Sendable {
  public var learningRate: Float
  public var beta1: Float
  public var beta2: Float
  public var epsilon: Float
  /// First and second moment estimates, `P` values each.
  public private(set) var firstMoment: [Float]
  public private(set) var secondMoment: [Float]
  /// Number of updates done.
  public private(set) var step: Int = 0

  /// Defaults as in the paper and scikit-learn's `MLPClassifier`.
  public init(
    parameterCount: Int, learningRate: Float = 1e-3, beta1: Float = 0.9, beta2: Float = 0.999,
    epsilon: Float = 1e-8
  ) {
    self.learningRate = learningRate
    self.beta1 = beta1
    self.beta2 = beta2
    self.epsilon = epsilon
    firstMoment = [Float](repeating: 0, count: parameterCount)
    secondMoment = [Float](repeating: 0, count: parameterCount)
  }

  /// One step: `θ -= lr_t · m / (√v + ε)` with the bias correction folded into `lr_t`,
  /// as scikit-learn does: `lr_t = lr · √(1 - β2^t) / (1 - β1^t)`.
  /// - Complexity: O(*P*).
  public mutating func update(_ parameters: inout [Float], gradient: [Float]) {
    precondition(
      parameters.count == firstMoment.count && gradient.count == firstMoment.count,
      "Adam has \(firstMoment.count) parameters, got \(parameters.count) and \(gradient.count)")
    step += 1
    let t = Float(step)
    let correctedRate = learningRate * (1 - pow(beta2, t)).squareRoot() / (1 - pow(beta1, t))
    let (beta1, beta2, epsilon) = (beta1, beta2, epsilon)
    // Buffer pointers: no bounds or uniqueness checks in the loop, so it vectorises (the same
    // operations per element in the same order, so the same bits).
    parameters.withUnsafeMutableBufferPointer { theta in
      gradient.withUnsafeBufferPointer { grad in
        firstMoment.withUnsafeMutableBufferPointer { m in
          secondMoment.withUnsafeMutableBufferPointer { v in
            for i in 0..<theta.count {
              let g = grad[i]
              // the biased first moment (momentum) and second moment (uncentred variance)
              m[i] = beta1 * m[i] + (1 - beta1) * g
              v[i] = beta2 * v[i] + (1 - beta2) * g * g
              theta[i] -= correctedRate * m[i] / (v[i].squareRoot() + epsilon)
            }
          }
        }
      }
    }
  }
}

@inline(__always) func pow(_ base: Float, _ exponent: Float) -> Float {
  // Integer exponents only (step counts): repeated squaring keeps this Foundation-free and exact
  // to the same rounding on every platform.
  var result: Float = 1
  var b = base
  var e = Int(exponent)
  while e > 0 {
    if e & 1 == 1 { result *= b }
    b *= b
    e >>= 1
  }
  return result
}
