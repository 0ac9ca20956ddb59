// What ReferenceKernels (plain loops) and BLAS (OpenBLAS) both provide: sgemm on raw
// row-major buffers. The Matrix forms, with their shape checks, are written once, here.
// Shapes: op(A) is [M, K], op(B) is [K, N], C is [M, N]; op(X) is X or Xᵀ.

/// A provider of `C = alpha * op(A) * op(B) + beta * C` on row-major Float buffers.
public protocol GEMMKernel {
  /// `lda`, `ldb`, `ldc` are the stored row lengths; pointers may be nil only when the
  /// matching dimension product is zero. With `beta == 0` the old C is not read.
  static func gemm(
    transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int, alpha: Float,
    a: UnsafePointer<Float>?, lda: Int, b: UnsafePointer<Float>?, ldb: Int, beta: Float,
    c: UnsafeMutablePointer<Float>?, ldc: Int)
}

extension GEMMKernel {
  /// `C = alpha * op(A) * op(B) + beta * C` on matrices.
  ///
  /// - Parameters:
  ///   - transposeA: Use `Aᵀ`; then `a` is stored `[K, M]`.
  ///   - transposeB: Use `Bᵀ`; then `b` is stored `[N, K]`.
  ///   - alpha: Scale of the product. Default 1.
  ///   - a: `A`, stored `[M, K]` (or `[K, M]` when transposed).
  ///   - b: `B`, stored `[K, N]` (or `[N, K]` when transposed).
  ///   - beta: Scale of the old `C`. Default 0.
  ///   - c: `[M, N]`; when `beta == 0` its old values are ignored (even NaN), as in BLAS.
  /// - Complexity: O(*M N K*).
  public static func gemm(
    transposeA: Bool = false, transposeB: Bool = false, alpha: Float = 1, a: Matrix, b: Matrix,
    beta: Float = 0, c: inout Matrix
  ) {
    let m = transposeA ? a.columnCount : a.rowCount
    let k = transposeA ? a.rowCount : a.columnCount
    let kb = transposeB ? b.columnCount : b.rowCount
    let n = transposeB ? b.rowCount : b.columnCount
    precondition(k == kb, "inner dimensions differ: op(A) is \(m)x\(k), op(B) is \(kb)x\(n)")
    precondition(
      c.rowCount == m && c.columnCount == n,
      "C is \(c.rowCount)x\(c.columnCount), expected \(m)x\(n)")
    a.values.withUnsafeBufferPointer { pa in
      b.values.withUnsafeBufferPointer { pb in
        c.values.withUnsafeMutableBufferPointer { pc in
          gemm(
            transposeA: transposeA, transposeB: transposeB, m: m, n: n, k: k, alpha: alpha,
            a: pa.baseAddress, lda: a.columnCount, b: pb.baseAddress, ldb: b.columnCount,
            beta: beta, c: pc.baseAddress, ldc: n)
        }
      }
    }
  }

  /// `op(A) * op(B)`, shape `[M, N]`.
  public static func matmul(
    _ a: Matrix, _ b: Matrix, transposeA: Bool = false, transposeB: Bool = false
  ) -> Matrix {
    var c = Matrix(
      rowCount: transposeA ? a.columnCount : a.rowCount,
      columnCount: transposeB ? b.rowCount : b.columnCount)
    gemm(transposeA: transposeA, transposeB: transposeB, a: a, b: b, c: &c)
    return c
  }
}

extension Matrix {
  /// The rows and columns of op(A) for `y = op(A) x`, checked against `x` and `y`'s lengths.
  public func operatorShape(transposed: Bool, x: Int, y: Int) -> (rows: Int, columns: Int) {
    let rows = transposed ? columnCount : rowCount
    let columns = transposed ? rowCount : columnCount
    precondition(
      x == columns && y == rows, "gemv: x \(x), y \(y), op(A) \(rows)x\(columns)")
    return (rows, columns)
  }
}
