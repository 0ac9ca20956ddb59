import MotusLinearAlgebra
import XCTest

final class MatrixTests: XCTestCase {
  func testAddRowVector_AddsToEveryRow() {
    var m = Matrix(rows: [[1, 2, 3], [4, 5, 6]])
    m.addRowVector([10, 20, 30])
    XCTAssertEqual(m.values, [11, 22, 33, 14, 25, 36])
  }

  func testTransposed_SwapsIndices() {
    let m = Matrix(rows: [[1, 2, 3], [4, 5, 6]])
    XCTAssertEqual(m.transposed, Matrix(rows: [[1, 4], [2, 5], [3, 6]]))
  }

  func testReferenceSolve_HandExample() throws {
    // 2x + y = 5, x + 3y = 10  ->  x = 1, y = 3
    let x = try XCTUnwrap(
      ReferenceKernels.solve(Matrix(rows: [[2, 1], [1, 3]]), Matrix(rows: [[5], [10]])))
    XCTAssertEqual(x[0, 0], 1, accuracy: 1e-6)
    XCTAssertEqual(x[1, 0], 3, accuracy: 1e-6)
  }
}
