// OpenBLAS/LAPACKE kernels on row-major Float data: sgemm, sgemv, saxpy, sgesv and ssyevd. Shapes as in
// ReferenceKernels (op(A) [M, K], op(B) [K, N], C [M, N]); each is tested against that loop.

import COpenBLAS
import MotusLinearAlgebra

/// Fast kernels backed by OpenBLAS, for training and batch evaluation.
///
/// OpenBLAS runs single-threaded: its threaded sgemm partitions the work by the thread count,
/// which changes the summation order, so the same training run could give different last bits
/// (and model files) on different machines or under different load. Training matrices here are
/// small enough that one thread costs little.
public enum BLAS: GEMMKernel {
  private static let singleThreaded: Void = {
    openblas_set_num_threads(1)
    // One thread leaves the pool's workers nothing to do, yet each spin-waits for about a
    // tenth of a second after the library loads: stopped, they take no core from the program.
    _ = blas_thread_shutdown_()
  }()

  /// Forces the one-time OpenBLAS configuration (called by every kernel).
  @inline(__always) static func configure() { _ = singleThreaded }

  /// The one-time configuration now rather than at the first kernel: a program calls this
  /// first, so OpenBLAS's idle worker threads stop before its other work starts.
  public static func prepare() { configure() }

  /// sgemm on raw row-major buffers; `lda`, `ldb`, `ldc` are the stored row lengths (the
  /// Matrix forms, `gemm(a:b:c:)` and `matmul`, come from `GEMMKernel`).
  ///
  /// Pointers may be `nil` only when the matching dimension product is zero.
  public static func gemm(
    transposeA: Bool, transposeB: Bool, m: Int, n: Int, k: Int, alpha: Float,
    a: UnsafePointer<Float>?, lda: Int, b: UnsafePointer<Float>?, ldb: Int, beta: Float,
    c: UnsafeMutablePointer<Float>?, ldc: Int
  ) {
    precondition(m >= 0 && n >= 0 && k >= 0, "negative gemm shape m=\(m) n=\(n) k=\(k)")
    guard m > 0, n > 0, let c else { return }
    configure()
    if k == 0 {
      // BLAS may skip the beta scaling when K == 0 and alpha != 0; do it explicitly.
      for i in 0..<m { for j in 0..<n { c[i * ldc + j] = beta == 0 ? 0 : beta * c[i * ldc + j] } }
      return
    }
    cblas_sgemm(
      CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
      blasint(m), blasint(n), blasint(k), alpha, a, blasint(lda), b, blasint(ldb), beta, c,
      blasint(ldc))
  }

  /// `y = alpha * op(A) * x + beta * y` (cblas_sgemv).
  public static func gemv(
    transpose: Bool = false, alpha: Float = 1, a: Matrix, x: [Float], beta: Float = 0,
    y: inout [Float]
  ) {
    let (rows, cols) = a.operatorShape(transposed: transpose, x: x.count, y: y.count)
    if rows == 0 { return }
    if cols == 0 {
      for i in 0..<rows { y[i] = beta == 0 ? 0 : beta * y[i] }
      return
    }
    configure()
    cblas_sgemv(
      CblasRowMajor, transpose ? CblasTrans : CblasNoTrans, blasint(a.rowCount),
      blasint(a.columnCount), alpha, a.values, blasint(a.columnCount), x, 1, beta, &y, 1)
  }

  /// `y = alpha * x + y` (cblas_saxpy).
  public static func axpy(alpha: Float, x: [Float], y: inout [Float]) {
    precondition(x.count == y.count, "axpy: x has \(x.count) values, y has \(y.count)")
    if x.isEmpty { return }
    configure()
    cblas_saxpy(blasint(x.count), alpha, x, 1, &y, 1)
  }

  /// Solves `A X = B` by LU with partial pivoting (LAPACKE_sgesv).
  ///
  /// - Parameters:
  ///   - a: Square `[n, n]`.
  ///   - b: `[n, r]` right-hand sides.
  /// - Returns: `X`, `[n, r]`.
  /// - Throws: `LinearAlgebraError.singular` when `A` is exactly singular.
  /// - Complexity: O(*n*³ + *n*² *r*).
  public static func solve(_ a: Matrix, _ b: Matrix) throws -> Matrix {
    let n = a.rowCount
    precondition(a.columnCount == n, "A must be square, got \(a.rowCount)x\(a.columnCount)")
    precondition(b.rowCount == n, "B has \(b.rowCount) rows, A has \(n)")
    if n == 0 || b.columnCount == 0 { return b }
    configure()
    var lu = a.values
    var x = b.values
    var pivots = [Int32](repeating: 0, count: n)
    let info = LAPACKE_sgesv(
      LAPACK_ROW_MAJOR, Int32(n), Int32(b.columnCount), &lu, Int32(n), &pivots, &x,
      Int32(b.columnCount))
    if info > 0 { throw LinearAlgebraError.singular(pivot: Int(info)) }
    if info < 0 { throw LinearAlgebraError.illegalArgument(position: Int(-info)) }
    return Matrix(rowCount: n, columnCount: b.columnCount, values: x)
  }

  /// Eigenvalues and eigenvectors of a symmetric matrix (LAPACKE_ssyevd), largest first.
  ///
  /// - Parameter a: Symmetric `[n, n]` (only its upper triangle is read).
  /// - Returns: `n` eigenvalues in descending order, and the eigenvectors as the rows of an
  ///   `[n, n]` matrix in the same order (unit length).
  /// - Throws: `LinearAlgebraError.noConvergence` when LAPACK's iteration fails.
  /// - Complexity: O(*n*³).
  public static func symmetricEigen(_ a: Matrix) throws -> (values: [Float], vectors: Matrix) {
    let n = a.rowCount
    precondition(a.columnCount == n, "A must be square, got \(a.rowCount)x\(a.columnCount)")
    if n == 0 { return ([], a) }
    configure()
    var vectors = a.values
    var values = [Float](repeating: 0, count: n)
    let info = LAPACKE_ssyevd(
      LAPACK_ROW_MAJOR, Int8(UInt8(ascii: "V")), Int8(UInt8(ascii: "U")), Int32(n), &vectors,
      Int32(n), &values)
    if info > 0 { throw LinearAlgebraError.noConvergence(count: Int(info)) }
    if info < 0 { throw LinearAlgebraError.illegalArgument(position: Int(-info)) }
    // LAPACK: ascending values, eigenvectors in columns. Return descending, as rows.
    var rows = [Float](repeating: 0, count: n * n)
    for k in 0..<n {
      let column = n - 1 - k
      for i in 0..<n { rows[k * n + i] = vectors[i * n + column] }
    }
    return (values.reversed(), Matrix(rowCount: n, columnCount: n, values: rows))
  }
}
