// Each OpenBLAS kernel against the plain-loop ReferenceKernels, on pseudo-random matrices.

import MotusBLAS
import MotusLinearAlgebra
import MotusTestSupport
import XCTest

/// A fixed linear congruential sequence in [-1, 1): reproducible test inputs.
private struct TestValues {
  var state: UInt64
  mutating func next() -> Float {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Float(state >> 40) / Float(1 << 24) * 2 - 1
  }
  mutating func matrix(_ rows: Int, _ columns: Int) -> Matrix {
    Matrix(rowCount: rows, columnCount: columns, values: (0..<(rows * columns)).map { _ in next() })
  }
}

final class BLASTests: XCTestCase {
  func testGemm_MatchesReferenceForAllTransposes() {
    var values = TestValues(state: 1)
    let (m, n, k) = (7, 5, 9)
    for transposeA in [false, true] {
      for transposeB in [false, true] {
        let a = transposeA ? values.matrix(k, m) : values.matrix(m, k)
        let b = transposeB ? values.matrix(n, k) : values.matrix(k, n)
        let c0 = values.matrix(m, n)
        var expected = c0
        var actual = c0
        ReferenceKernels.gemm(
          transposeA: transposeA, transposeB: transposeB, alpha: 0.75, a: a, b: b, beta: -0.5,
          c: &expected)
        BLAS.gemm(
          transposeA: transposeA, transposeB: transposeB, alpha: 0.75, a: a, b: b, beta: -0.5,
          c: &actual)
        let diff = maxAbsoluteDifference(expected.values, actual.values)
        XCTAssertLessThan(diff, 1e-5, "transposeA \(transposeA) transposeB \(transposeB)")
      }
    }
  }

  func testGemm_BetaZeroIgnoresNaNInOutput() {
    var values = TestValues(state: 2)
    let a = values.matrix(3, 4)
    let b = values.matrix(4, 2)
    var c = Matrix(rowCount: 3, columnCount: 2, repeating: .nan)
    BLAS.gemm(a: a, b: b, beta: 0, c: &c)
    let expected = ReferenceKernels.matmul(a, b)
    XCTAssertLessThan(maxAbsoluteDifference(expected.values, c.values), 1e-6)
  }

  func testMatmul_MatchesHandComputedProduct() {
    // [1 2; 3 4] · [5 6; 7 8] = [1·5+2·7, 1·6+2·8; 3·5+4·7, 3·6+4·8] = [19 22; 43 50]
    let a = Matrix(rows: [[1, 2], [3, 4]])
    let b = Matrix(rows: [[5, 6], [7, 8]])
    XCTAssertEqual(BLAS.matmul(a, b).values, [19, 22, 43, 50])
    XCTAssertEqual(ReferenceKernels.matmul(a, b).values, [19, 22, 43, 50])
    // Aᵀ·B = [1·5+3·7, 1·6+3·8; 2·5+4·7, 2·6+4·8] = [26 30; 38 44]
    XCTAssertEqual(BLAS.matmul(a, b, transposeA: true).values, [26, 30, 38, 44])
  }

  func testGemm_RawBuffersWithLeadingDimensionMatchReference() {
    // A 3x2 block inside a 3x4 buffer (lda 4), times a 2x3 block inside a 2x5 buffer (ldb 5).
    var values = TestValues(state: 3)
    let bigA = values.matrix(3, 4)
    let bigB = values.matrix(2, 5)
    var expected = [Float](repeating: 0, count: 9)
    var actual = [Float](repeating: 0, count: 9)
    bigA.values.withUnsafeBufferPointer { a in
      bigB.values.withUnsafeBufferPointer { b in
        expected.withUnsafeMutableBufferPointer { c in
          ReferenceKernels.gemm(
            transposeA: false, transposeB: false, m: 3, n: 3, k: 2, alpha: 1, a: a.baseAddress,
            lda: 4, b: b.baseAddress, ldb: 5, beta: 0, c: c.baseAddress, ldc: 3)
        }
        actual.withUnsafeMutableBufferPointer { c in
          BLAS.gemm(
            transposeA: false, transposeB: false, m: 3, n: 3, k: 2, alpha: 1, a: a.baseAddress,
            lda: 4, b: b.baseAddress, ldb: 5, beta: 0, c: c.baseAddress, ldc: 3)
        }
      }
    }
    XCTAssertLessThan(maxAbsoluteDifference(expected, actual), 1e-6)
    // Element (1, 2) by hand: A[1, 0]·B[0, 2] + A[1, 1]·B[1, 2].
    let hand = bigA[1, 0] * bigB[0, 2] + bigA[1, 1] * bigB[1, 2]
    XCTAssertEqual(actual[1 * 3 + 2], hand, accuracy: 1e-6)
  }

  func testGemv_MatchesReferenceBothWays() {
    var values = TestValues(state: 4)
    let a = values.matrix(6, 4)
    for transpose in [false, true] {
      let x = (0..<(transpose ? 6 : 4)).map { _ in values.next() }
      let y0 = (0..<(transpose ? 4 : 6)).map { _ in values.next() }
      var expected = y0
      var actual = y0
      ReferenceKernels.gemv(transpose: transpose, alpha: 2, a: a, x: x, beta: 0.5, y: &expected)
      BLAS.gemv(transpose: transpose, alpha: 2, a: a, x: x, beta: 0.5, y: &actual)
      XCTAssertLessThan(maxAbsoluteDifference(expected, actual), 1e-5, "transpose \(transpose)")
    }
  }

  func testAxpy_MatchesReference() {
    var values = TestValues(state: 5)
    let x = (0..<17).map { _ in values.next() }
    let y0 = (0..<17).map { _ in values.next() }
    var expected = y0
    var actual = y0
    ReferenceKernels.axpy(alpha: -1.5, x: x, y: &expected)
    BLAS.axpy(alpha: -1.5, x: x, y: &actual)
    XCTAssertLessThan(maxAbsoluteDifference(expected, actual), 1e-6)
  }

  func testSolve_MatchesReferenceAndReproducesRightHandSide() throws {
    var values = TestValues(state: 6)
    var a = values.matrix(5, 5)
    for i in 0..<5 { a[i, i] += 4 }  // diagonally dominant: well conditioned
    let b = values.matrix(5, 2)
    let x = try BLAS.solve(a, b)
    let reference = try XCTUnwrap(ReferenceKernels.solve(a, b))
    XCTAssertLessThan(maxAbsoluteDifference(x.values, reference.values), 1e-5)
    XCTAssertLessThan(maxAbsoluteDifference(ReferenceKernels.matmul(a, x).values, b.values), 1e-5)
  }

  func testSolve_SingularMatrixThrowsWithPivot() {
    // The second row is twice the first: elimination leaves U(2, 2) = 0.
    let a = Matrix(rows: [[1, 2], [2, 4]])
    let b = Matrix(rows: [[1], [1]])
    XCTAssertThrowsError(try BLAS.solve(a, b)) { error in
      XCTAssertEqual(error as? LinearAlgebraError, .singular(pivot: 2))
      XCTAssertTrue("\(error)".contains("HINT"))
    }
    XCTAssertNil(ReferenceKernels.solve(a, b))
  }
}
