import MotusLinearAlgebra
import MotusModels
import XCTest

final class SoftmaxTests: XCTestCase {
  func testRows_SumToOne() {
    let logits = Matrix(rows: [[1, 2, 3], [-100, 0, 100], [0, 0, 0], [1000, 1000, -1000]])
    for temperature: Float in [0.5, 1, 3] {
      let p = Softmax.rows(logits, temperature: temperature)
      for i in 0..<p.rowCount {
        XCTAssertEqual(p.row(i).reduce(0, +), 1, accuracy: 1e-6, "row \(i) T \(temperature)")
        XCTAssertTrue(p.row(i).allSatisfy { $0.isFinite && $0 >= 0 })
      }
    }
  }

  func testRows_HandValues() {
    // softmax([0, ln 3]) = [1/4, 3/4]; at T = 2: [1/(1+√3), √3/(1+√3)]
    let logits = Matrix(rows: [[0, Float(log(3.0))]])
    let p = Softmax.rows(logits)
    XCTAssertEqual(p[0, 0], 0.25, accuracy: 1e-6)
    XCTAssertEqual(p[0, 1], 0.75, accuracy: 1e-6)
    let q = Softmax.rows(logits, temperature: 2)
    XCTAssertEqual(q[0, 0], Float(1 / (1 + 3.0.squareRoot())), accuracy: 1e-6)
  }

  func testRows_HigherTemperatureFlattens() {
    let logits = Matrix(rows: [[2, 0, -1]])
    XCTAssertLessThan(Softmax.rows(logits, temperature: 2)[0, 0], Softmax.rows(logits)[0, 0])
  }
}
