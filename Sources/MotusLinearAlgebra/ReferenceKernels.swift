// Plain-loop reference kernels on row-major Float matrices: the algorithmic reference the fast
// BLAS kernels (MotusBLAS) are tested against, and the fallback that pure-Swift inference uses.
// Shapes: op(A) is [M, K], op(B) is [K, N], C is [M, N]; op(X) is X or Xᵀ.

/// Naive loop implementations of the linear algebra used by Motus.
///
/// Each kernel accumulates in `Float` in the textbook order, so results differ from OpenBLAS only
/// by rounding (tests compare with a tolerance scaled by `K`).
public enum ReferenceKernels: GEMMKernel {
  /// `C = alpha * op(A) * op(B) + beta * C` on raw row-major buffers; `lda`, `ldb`, `ldc` are
  /// the stored row lengths. When `beta == 0` the old C is ignored (even NaN), as in BLAS.
  public static func gemm(
    transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int, alpha: Float,
    a: UnsafePointer<Float>?, lda: Int, b: UnsafePointer<Float>?, ldb: Int, beta: Float,
    c: UnsafeMutablePointer<Float>?, ldc: Int
  ) {
    precondition(m >= 0 && n >= 0 && k >= 0, "negative gemm shape m=\(m) n=\(n) k=\(k)")
    guard m > 0, n > 0, let c else { return }
    for i in 0..<m {
      for j in 0..<n {
        var sum: Float = 0
        if k > 0, let a, let b {
          for p in 0..<k {
            let aip = transposeA ? a[p * lda + i] : a[i * lda + p]
            let bpj = transposeB ? b[j * ldb + p] : b[p * ldb + j]
            sum += aip * bpj
          }
        }
        let old = beta == 0 ? 0 : beta * c[i * ldc + j]
        c[i * ldc + j] = alpha * sum + old
      }
    }
  }

  /// `y = alpha * op(A) * x + beta * y`; `x` has `op(A).columnCount` values.
  public static func gemv(
    transpose: Bool = false, alpha: Float = 1, a: Matrix, x: [Float], beta: Float = 0,
    y: inout [Float]
  ) {
    let (rows, cols) = a.operatorShape(transposed: transpose, x: x.count, y: y.count)
    for i in 0..<rows {
      var sum: Float = 0
      for j in 0..<cols {
        sum +=
          (transpose ? a.values[j * a.columnCount + i] : a.values[i * a.columnCount + j]) * x[j]
      }
      y[i] = alpha * sum + (beta == 0 ? 0 : beta * y[i])
    }
  }

  /// `y = alpha * x + y`.
  public static func axpy(alpha: Float, x: [Float], y: inout [Float]) {
    precondition(x.count == y.count, "axpy: x has \(x.count) values, y has \(y.count)")
    for i in x.indices { y[i] += alpha * x[i] }
  }

  /// Solves `A X = B` by Gaussian elimination with partial pivoting (in `Double`).
  ///
  /// - Parameters:
  ///   - a: Square `[n, n]`.
  ///   - b: `[n, r]` right-hand sides.
  /// - Returns: `X`, `[n, r]`, or `nil` when a pivot is exactly zero (singular `A`).
  /// - Complexity: O(*n*³ + *n*² *r*).
  public static func solve(_ a: Matrix, _ b: Matrix) -> Matrix? {
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
