// BLAS.symmetricEigen (LAPACKE ssyevd) against a matrix whose eigenpairs are known in closed
// form, and against a plain cyclic Jacobi loop in Double on a pseudo-random symmetric matrix.

import MotusBLAS
import MotusLinearAlgebra
import MotusTestSupport
import XCTest

final class SymmetricEigenTests: XCTestCase {
  /// The second-difference matrix tridiag(-1, 2, -1) of size 3: eigenvalues 2 + √2, 2, 2 - √2
  /// with eigenvectors (1, -√2, 1) / 2, (1, 0, -1) / √2, (1, √2, 1) / 2.
  private let secondDifference = Matrix(rows: [[2, -1, 0], [-1, 2, -1], [0, -1, 2]])

  private func dot(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).map(*).reduce(0, +) }

  private func times(_ a: Matrix, _ v: [Float]) -> [Float] {
    (0..<a.rowCount).map { dot(a.row($0), v) }
  }

  /// Checks descending values, A v = λ v, unit and mutually orthogonal rows.
  private func assertEigenpairs(
    _ a: Matrix, _ values: [Float], _ vectors: Matrix, tolerance: Float,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let n = a.rowCount
    XCTAssertEqual(values.count, n, file: file, line: line)
    XCTAssertEqual(vectors.rowCount, n, file: file, line: line)
    XCTAssertEqual(vectors.columnCount, n, file: file, line: line)
    XCTAssertEqual(values, values.sorted(by: >), "descending", file: file, line: line)
    for k in 0..<n {
      let v = vectors.row(k)
      let av = times(a, v)
      for i in 0..<n {
        XCTAssertEqual(av[i], values[k] * v[i], accuracy: tolerance, file: file, line: line)
      }
      for j in 0..<n {
        XCTAssertEqual(
          dot(v, vectors.row(j)), k == j ? 1 : 0, accuracy: tolerance, file: file, line: line)
      }
    }
  }

  func testKnownMatrix_ValuesAndVectors() throws {
    let (values, vectors) = try BLAS.symmetricEigen(secondDifference)
    let r = Float(2).squareRoot()
    XCTAssertEqual(values[0], 2 + r, accuracy: 1e-5)
    XCTAssertEqual(values[1], 2, accuracy: 1e-5)
    XCTAssertEqual(values[2], 2 - r, accuracy: 1e-5)
    let expected: [[Float]] = [[0.5, -r / 2, 0.5], [1 / r, 0, -1 / r], [0.5, r / 2, 0.5]]
    for k in 0..<3 {
      // An eigenvector's sign is arbitrary.
      XCTAssertEqual(abs(dot(vectors.row(k), expected[k])), 1, accuracy: 1e-5, "vector \(k)")
    }
    assertEigenpairs(secondDifference, values, vectors, tolerance: 1e-5)
  }

  func testOnlyTheUpperTriangleIsRead() throws {
    var garbage = secondDifference
    garbage.values[3] = 99  // (1, 0)
    garbage.values[6] = -7  // (2, 0)
    garbage.values[7] = 42  // (2, 1)
    let clean = try BLAS.symmetricEigen(secondDifference)
    let dirty = try BLAS.symmetricEigen(garbage)
    XCTAssertEqual(dirty.values, clean.values)
    XCTAssertEqual(dirty.vectors, clean.vectors)
  }

  func testRandomSymmetric_MatchesJacobiReference() throws {
    let n = 6
    var state: UInt64 = 12345
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 40) / Double(1 << 24) * 2 - 1
    }
    var a = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
    for i in 0..<n {
      for j in i..<n {
        a[i][j] = next()
        a[j][i] = a[i][j]
      }
    }
    let matrix = Matrix(rows: a.map { $0.map(Float.init) })
    let (values, vectors) = try BLAS.symmetricEigen(matrix)
    let reference = jacobiEigen(a)
    for k in 0..<n {
      XCTAssertEqual(Double(values[k]), reference.values[k], accuracy: 1e-4, "value \(k)")
      let v = vectors.row(k).map(Double.init)
      let cosine = zip(v, reference.vectors[k]).map(*).reduce(0, +)
      XCTAssertEqual(abs(cosine), 1, accuracy: 1e-4, "vector \(k)")
    }
    assertEigenpairs(matrix, values, vectors, tolerance: 1e-4)
  }

  func testSmallSizes() throws {
    let empty = try BLAS.symmetricEigen(Matrix(rowCount: 0, columnCount: 0))
    XCTAssertEqual(empty.values, [])
    let one = try BLAS.symmetricEigen(Matrix(rows: [[-3]]))
    XCTAssertEqual(one.values, [-3])
    XCTAssertEqual(abs(one.vectors[0, 0]), 1)
    // A diagonal matrix: its entries, largest first, along the axes.
    let diagonal = try BLAS.symmetricEigen(Matrix(rows: [[1, 0, 0], [0, 5, 0], [0, 0, 3]]))
    XCTAssertLessThan(maxAbsoluteDifference(diagonal.values, [5, 3, 1]), 1e-6)
    XCTAssertLessThan(
      maxAbsoluteDifference(diagonal.vectors.values.map(abs), [0, 1, 0, 0, 0, 1, 1, 0, 0]), 1e-6)
  }

  func testNoConvergenceError_HasAHint() {
    let text = "\(LinearAlgebraError.noConvergence(count: 2))"
    XCTAssertTrue(text.contains("2 elements left") && text.contains("HINT"), text)
  }

  /// Cyclic Jacobi rotations in Double until the off-diagonal part vanishes: eigenvalues in
  /// descending order and unit eigenvectors (as rows) in the same order.
  private func jacobiEigen(_ input: [[Double]]) -> (values: [Double], vectors: [[Double]]) {
    let n = input.count
    var a = input
    var v = (0..<n).map { i in (0..<n).map { $0 == i ? 1.0 : 0.0 } }  // columns: vectors
    for _ in 0..<100 {
      var off = 0.0
      for p in 0..<n { for q in 0..<n where p != q { off += a[p][q] * a[p][q] } }
      if off < 1e-24 { break }
      for p in 0..<(n - 1) {
        for q in (p + 1)..<n where abs(a[p][q]) > 1e-300 {
          // The rotation that zeroes a[p][q]: tan(2θ) = 2 a_pq / (a_qq - a_pp).
          let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
          let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
          let c = 1 / (t * t + 1).squareRoot()
          let s = t * c
          for k in 0..<n {
            let (akp, akq) = (a[k][p], a[k][q])
            a[k][p] = c * akp - s * akq
            a[k][q] = s * akp + c * akq
          }
          for k in 0..<n {
            let (apk, aqk) = (a[p][k], a[q][k])
            a[p][k] = c * apk - s * aqk
            a[q][k] = s * apk + c * aqk
          }
          for k in 0..<n {
            let (vkp, vkq) = (v[k][p], v[k][q])
            v[k][p] = c * vkp - s * vkq
            v[k][q] = s * vkp + c * vkq
          }
        }
      }
    }
    let order = (0..<n).sorted { a[$0][$0] > a[$1][$1] }
    return (order.map { a[$0][$0] }, order.map { j in (0..<n).map { v[$0][j] } })
  }
}
