// Limited-memory BFGS (Nocedal and Wright, Numerical Optimization, 2nd ed., Algorithm 7.4/7.5:
// two-loop recursion) with a backtracking Armijo line search, for the full-batch, smooth,
// convex logistic loss. Vectors of P parameters; the direction maths runs in Double.

/// Minimises a smooth function of `P` Float parameters.
public enum LBFGS {
  public struct Result: Sendable {
    public var parameters: [Float]
    public var loss: Double
    public var iterations: Int
    /// True when the gradient or loss change fell below tolerance (not the iteration cap).
    public var converged: Bool
  }

  /// - Parameters:
  ///   - initial: Starting point, `P` values.
  ///   - maxIterations: Cap on iterations (each does one or more function evaluations).
  ///   - gradientTolerance: Stop when `max |g_i| <= gradientTolerance`.
  ///   - memory: Number of `(s, y)` pairs kept. Default 10 (scikit-learn uses scipy's 10).
  ///   - function: Returns the loss and its gradient (`P` values) at a point.
  ///   - iterationDone: Called after each iteration with (iteration, loss, parameters).
  /// - Returns: The last accepted point, its loss, and whether a stopping rule was met.
  public static func minimize(
    initial: [Float], maxIterations: Int, gradientTolerance: Double = 1e-5, memory: Int = 10,
    function: ([Float]) -> (loss: Double, gradient: [Float]),
    iterationDone: ((Int, Double, [Float]) -> Void)? = nil
  ) -> Result {
    var x = initial.map(Double.init)
    var (f, gFloat) = function(initial)
    var g = gFloat.map(Double.init)
    var sHistory: [[Double]] = []
    var yHistory: [[Double]] = []
    var rhoHistory: [Double] = []
    var iteration = 0
    while iteration < maxIterations {
      if g.reduce(0, { max($0, abs($1)) }) <= gradientTolerance {
        return Result(
          parameters: x.map(Float.init), loss: f, iterations: iteration, converged: true)
      }
      // two-loop recursion: d = -H g
      var q = g
      var alphas = [Double](repeating: 0, count: sHistory.count)
      for i in stride(from: sHistory.count - 1, through: 0, by: -1) {
        alphas[i] = rhoHistory[i] * dot(sHistory[i], q)
        for j in q.indices { q[j] -= alphas[i] * yHistory[i][j] }
      }
      var gamma = 1.0
      if let s = sHistory.last, let y = yHistory.last {
        gamma = dot(s, y) / dot(y, y)
      } else {
        gamma = 1 / max(1e-12, dot(g, g).squareRoot())  // first step has unit length
      }
      for j in q.indices { q[j] *= gamma }
      for i in 0..<sHistory.count {
        let beta = rhoHistory[i] * dot(yHistory[i], q)
        for j in q.indices { q[j] += sHistory[i][j] * (alphas[i] - beta) }
      }
      var direction = q.map { -$0 }
      var slope = dot(g, direction)
      if slope >= 0 {  // not a descent direction: restart from steepest descent
        sHistory.removeAll(); yHistory.removeAll(); rhoHistory.removeAll()
        direction = g.map { -$0 / max(1e-12, dot(g, g).squareRoot()) }
        slope = dot(g, direction)
      }
      // backtracking line search on the Armijo condition f(x + t d) <= f + c1 t slope
      var step = 1.0
      var accepted = false
      var newX = x
      var newF = f
      var newG = g
      for _ in 0..<40 {
        for j in x.indices { newX[j] = x[j] + step * direction[j] }
        let (trialF, trialG) = function(newX.map(Float.init))
        if trialF.isFinite && trialF <= f + 1e-4 * step * slope {
          newF = trialF
          newG = trialG.map(Double.init)
          accepted = true
          break
        }
        step *= 0.5
      }
      iteration += 1
      if !accepted {
        // no decrease at Float precision: we are at the optimum as far as Float can tell
        return Result(
          parameters: x.map(Float.init), loss: f, iterations: iteration, converged: true)
      }
      let s = zip(newX, x).map { $0 - $1 }
      let y = zip(newG, g).map { $0 - $1 }
      let sy = dot(s, y)
      if sy > 1e-12 {  // keep the pair only if curvature is positive (H stays positive definite)
        sHistory.append(s); yHistory.append(y); rhoHistory.append(1 / sy)
        if sHistory.count > memory {
          sHistory.removeFirst(); yHistory.removeFirst(); rhoHistory.removeFirst()
        }
      }
      let change = f - newF
      x = newX
      f = newF
      g = newG
      iterationDone?(iteration, f, x.map(Float.init))
      if change <= 1e-10 * max(1, abs(f)) {
        return Result(
          parameters: x.map(Float.init), loss: f, iterations: iteration, converged: true)
      }
    }
    return Result(parameters: x.map(Float.init), loss: f, iterations: iteration, converged: false)
  }

  private static func dot(_ a: [Double], _ b: [Double]) -> Double {
    var s = 0.0
    for i in a.indices { s += a[i] * b[i] }
    return s
  }
}
