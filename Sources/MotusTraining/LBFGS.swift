// Limited-memory BFGS (Nocedal and Wright, Numerical Optimization, 2nd ed., Algorithm 7.4/7.5:
// two-loop recursion) with a backtracking Armijo line search, for the full-batch, smooth,
// convex logistic loss. Vectors of P parameters; the direction maths runs in Double, and the
// m stored (s, y) pairs live in two flat [m, P] ring buffers.

/// Minimises a smooth function of `P` Float parameters.
public enum LBFGS {
  public struct Result: Sendable {
    public var parameters: [Float]
    public var loss: Double
    public var iterations: Int
    /// Calls of the function (line-search trials included).
    public var evaluations: Int
    /// True when the gradient or loss change fell below tolerance (not the iteration cap).
    public var converged: Bool
  }

  /// - Parameters:
  ///   - initial: Starting point, `P` values.
  ///   - maxIterations: Cap on iterations (each does one or more function evaluations).
  ///   - gradientTolerance: Stop when `max |g_i| <= gradientTolerance` (scipy's `pgtol`, which
  ///     scikit-learn sets to its `tol`).
  ///   - memory: Number of `(s, y)` pairs kept. Default 10 (scipy's default). More pairs cost
  ///     `O(memory · P)` per iteration and can save many function evaluations on
  ///     ill-conditioned problems (see `NetworkFitting.lbfgsMemory`).
  ///   - function: Returns the loss and its gradient (`P` values) at a point.
  ///   - iterationDone: Called after each iteration with (iteration, loss, parameters).
  /// - Returns: The last accepted point, its loss, and whether a stopping rule was met.
  public static func minimize(
    initial: [Float], maxIterations: Int, gradientTolerance: Double = 1e-5, memory: Int = 10,
    function: ([Float]) -> (loss: Double, gradient: [Float]),
    iterationDone: ((Int, Double, [Float]) -> Void)? = nil
  ) -> Result {
    precondition(memory >= 1, "memory must be >= 1, got \(memory)")
    let p = initial.count
    var x = initial.map(Double.init)
    var evaluations = 1
    var (f, gFloat) = function(initial)
    var g = gFloat.map(Double.init)
    var history = CurvatureHistory(memory: memory, parameterCount: p)
    var direction = [Double](repeating: 0, count: p)
    var newX = x
    var iteration = 0
    func result(_ converged: Bool) -> Result {
      Result(
        parameters: x.map(Float.init), loss: f, iterations: iteration, evaluations: evaluations,
        converged: converged)
    }
    while iteration < maxIterations {
      if g.reduce(0, { max($0, abs($1)) }) <= gradientTolerance { return result(true) }
      history.searchDirection(gradient: g, into: &direction)
      var slope = dotArrays(g, direction)
      if slope >= 0 {  // not a descent direction: restart from steepest descent
        history.forget()
        let norm = max(1e-12, dotArrays(g, g).squareRoot())
        for i in 0..<p { direction[i] = -g[i] / norm }
        slope = dotArrays(g, direction)
      }
      let trial = backtrack(
        from: x, loss: f, direction: direction, slope: slope, into: &newX,
        evaluations: &evaluations, function: function)
      iteration += 1
      guard let (newF, newG) = trial else {
        // no decrease at Float precision: we are at the optimum as far as Float can tell
        return result(true)
      }
      history.add(from: x, to: newX, gradient: g, newGradient: newG)
      let change = f - newF
      swap(&x, &newX)
      f = newF
      g = newG
      iterationDone?(iteration, f, x.map(Float.init))
      if change <= 1e-10 * max(1, abs(f)) { return result(true) }
    }
    return result(false)
  }

  /// Backtracking line search on the Armijo condition f(x + t d) <= f + c1 t slope, from t = 1
  /// halving up to 40 times. The accepted point is left in `newX`; nil when no trial decreases
  /// the loss (or every trial's loss is not finite).
  private static func backtrack(
    from x: [Double], loss f: Double, direction: [Double], slope: Double,
    into newX: inout [Double], evaluations: inout Int,
    function: ([Float]) -> (loss: Double, gradient: [Float])
  ) -> (loss: Double, gradient: [Double])? {
    var step = 1.0
    for _ in 0..<40 {
      for j in 0..<x.count { newX[j] = x[j] + step * direction[j] }
      let (trialF, trialG) = function(newX.map(Float.init))
      evaluations += 1
      if trialF.isFinite && trialF <= f + 1e-4 * step * slope {
        return (trialF, trialG.map(Double.init))
      }
      step *= 0.5
    }
    return nil
  }

  /// The `memory` most recent curvature pairs (s, y) and their ρ = 1 / sᵀy, in two flat
  /// [memory, P] ring buffers: pair j (0 = oldest) is at slot (first + j) % memory.
  private struct CurvatureHistory {
    let memory: Int
    let p: Int
    var s: [Double]
    var y: [Double]
    var rho: [Double]
    var alphas: [Double]
    var first = 0
    var count = 0

    init(memory: Int, parameterCount p: Int) {
      self.memory = memory
      self.p = p
      s = [Double](repeating: 0, count: memory * p)
      y = [Double](repeating: 0, count: memory * p)
      rho = [Double](repeating: 0, count: memory)
      alphas = [Double](repeating: 0, count: memory)
    }

    /// Drops every pair (a restart from steepest descent).
    mutating func forget() { count = 0 }

    /// direction = -H g by the two-loop recursion, H scaled by the newest pair's sᵀy / yᵀy (the
    /// first step, with no pair yet, has unit length).
    mutating func searchDirection(gradient g: [Double], into direction: inout [Double]) {
      let (p, memory, first, count) = (self.p, self.memory, self.first, self.count)
      let rho = self.rho
      s.withUnsafeBufferPointer { s in
        y.withUnsafeBufferPointer { y in
          alphas.withUnsafeMutableBufferPointer { alphas in
            direction.withUnsafeMutableBufferPointer { q in
              for j in 0..<p { q[j] = g[j] }
              for j in stride(from: count - 1, through: 0, by: -1) {
                let slot = (first + j) % memory
                let sj = UnsafeBufferPointer(rebasing: s[(slot * p)..<(slot * p + p)])
                let yj = UnsafeBufferPointer(rebasing: y[(slot * p)..<(slot * p + p)])
                let a = rho[slot] * LBFGS.dot(sj, UnsafeBufferPointer(q))
                alphas[slot] = a
                for i in 0..<p { q[i] -= a * yj[i] }
              }
              let gamma: Double
              if count > 0 {
                let slot = (first + count - 1) % memory
                let yj = UnsafeBufferPointer(rebasing: y[(slot * p)..<(slot * p + p)])
                gamma = 1 / (rho[slot] * LBFGS.dot(yj, yj))  // sᵀy / yᵀy
              } else {
                let norm = LBFGS.dot(UnsafeBufferPointer(q), UnsafeBufferPointer(q)).squareRoot()
                gamma = 1 / max(1e-12, norm)  // the first step has unit length
              }
              for i in 0..<p { q[i] *= gamma }
              for j in 0..<count {
                let slot = (first + j) % memory
                let sj = UnsafeBufferPointer(rebasing: s[(slot * p)..<(slot * p + p)])
                let yj = UnsafeBufferPointer(rebasing: y[(slot * p)..<(slot * p + p)])
                let beta = rho[slot] * LBFGS.dot(yj, UnsafeBufferPointer(q))
                let a = alphas[slot] - beta
                for i in 0..<p { q[i] += a * sj[i] }
              }
              for i in 0..<p { q[i] = -q[i] }
            }
          }
        }
      }
    }

    /// Keeps the pair s = newX - x, y = newG - g only if its curvature is positive (H stays
    /// positive definite); the oldest is overwritten when memory is full.
    mutating func add(
      from x: [Double], to newX: [Double], gradient g: [Double], newGradient newG: [Double]
    ) {
      var sy = 0.0
      for i in 0..<p { sy += (newX[i] - x[i]) * (newG[i] - g[i]) }
      guard sy > 1e-12 else { return }
      let slot = (first + count) % memory
      for i in 0..<p {
        s[slot * p + i] = newX[i] - x[i]
        y[slot * p + i] = newG[i] - g[i]
      }
      rho[slot] = 1 / sy
      if count < memory { count += 1 } else { first = (first + 1) % memory }
    }
  }

  private static func dot(_ a: UnsafeBufferPointer<Double>, _ b: UnsafeBufferPointer<Double>)
    -> Double
  {
    var s = 0.0
    for i in 0..<a.count { s += a[i] * b[i] }
    return s
  }

  private static func dotArrays(_ a: [Double], _ b: [Double]) -> Double {
    a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in dot(pa, pb) } }
  }
}
