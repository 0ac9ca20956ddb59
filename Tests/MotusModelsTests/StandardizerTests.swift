import MotusLinearAlgebra
import MotusModels
import XCTest

final class StandardizerTests: XCTestCase {
  func testFit_PopulationMeanAndStd() {
    // Column 0: 1, 2, 3, 6 -> mean 3, variance (4+1+0+9)/4 = 3.5. Column 1 is constant.
    let x = Matrix(rows: [[1, 5], [2, 5], [3, 5], [6, 5]])
    let s = Standardizer.fit(x)
    XCTAssertEqual(s.mean[0], 3, accuracy: 1e-6)
    XCTAssertEqual(s.scale[0], Float(3.5.squareRoot()), accuracy: 1e-6)
    XCTAssertEqual(s.mean[1], 5)
    XCTAssertEqual(s.scale[1], 1, "zero-variance feature keeps scale 1")
    let z = s.transform(x)
    XCTAssertEqual(z[3, 0], Float(3 / 3.5.squareRoot()), accuracy: 1e-6)
    XCTAssertEqual(z[0, 1], 0)
  }

  func testTransformRow_MatchesMatrixTransform() {
    let s = Standardizer(mean: [1, 2], scale: [2, 4])
    var row: [Float] = [5, -6]
    row.withUnsafeMutableBufferPointer { s.transform(row: $0) }
    XCTAssertEqual(row, s.transform(Matrix(rows: [[5, -6]])).row(0))
    XCTAssertEqual(row, [2, -2])
  }
}
