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
}
