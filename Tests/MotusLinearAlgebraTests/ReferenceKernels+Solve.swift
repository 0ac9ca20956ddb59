// Gaussian elimination in plain loops: the reference MotusBLAS's `BLAS.solve` (LAPACK) is
// tested against. Nothing in the library solves a linear system without LAPACK.

import MotusLinearAlgebra

extension ReferenceKernels {
  /// Solves `A X = B` by Gaussian elimination with partial pivoting (in `Double`).
  ///
  /// - Parameters:
  ///   - a: Square `[n, n]`.
  ///   - b: `[n, r]` right-hand sides.
  /// - Returns: `X`, `[n, r]`, or `nil` when a pivot is exactly zero (singular `A`).
  /// - Complexity: O(*n*³ + *n*² *r*).
  static func solve(_ a: Matrix, _ b: Matrix) -> Matrix? {
    let n = a.rowCount
    precondition(a.columnCount == n, "A must be square, got \(a.rowCount)x\(a.columnCount)")
    precondition(b.rowCount == n, "B has \(b.rowCount) rows, A has \(n)")
    let r = b.columnCount
    var m = a.values.map(Double.init)
    var x = b.values.map(Double.init)
    for col in 0..<n {
      var pivot = col
      for row in (col + 1)..<max(col + 1, n) where abs(m[row * n + col]) > abs(m[pivot * n + col]) {
        pivot = row
      }
      if m[pivot * n + col] == 0 { return nil }
      if pivot != col {
        for j in 0..<n { m.swapAt(col * n + j, pivot * n + j) }
        for j in 0..<r { x.swapAt(col * r + j, pivot * r + j) }
      }
      for row in (col + 1)..<max(col + 1, n) {
        let f = m[row * n + col] / m[col * n + col]
        if f == 0 { continue }
        for j in col..<n { m[row * n + j] -= f * m[col * n + j] }
        for j in 0..<r { x[row * r + j] -= f * x[col * r + j] }
      }
    }
    for col in stride(from: n - 1, through: 0, by: -1) {
      for j in 0..<r {
        var s = x[col * r + j]
        for k in (col + 1)..<max(col + 1, n) { s -= m[col * n + k] * x[k * r + j] }
        x[col * r + j] = s / m[col * n + col]
      }
    }
    return Matrix(rowCount: n, columnCount: r, values: x.map(Float.init))
  }
}
