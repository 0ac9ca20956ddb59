// Logistic regression by L-BFGS against scikit-learn 1.9.1 on a formula-generated table:
//
//   x[i, j] = float32(sin(0.37·i·(j+1) + j) + 0.8·[j == y_i]),  y_i = 0 if i%5 < 3, 1 if i%5 == 3,
//   else 2;  N = 60, F = 3.
//   LogisticRegression(C=1.0, solver="lbfgs", tol=1e-12, max_iter=10000, class_weight=cw)
//
// With l2Penalty = 1 our objective is scikit-learn's divided by N (C = 1 / l2Penalty). The
// unpenalised intercepts are fixed only up to a shared constant; both solvers start from zero
// and keep their sum at 0, so they agree.

import Foundation
import MotusLinearAlgebra
import MotusModels
import MotusTestSupport
import MotusTraining
import XCTest

final class ScikitLearnGoldenTests: XCTestCase {
  private func table() -> (Matrix, [Int]) {
    let labels = (0..<60).map { $0 % 5 < 3 ? 0 : $0 % 5 == 3 ? 1 : 2 }
    var values: [Float] = []
    for i in 0..<60 {
      for j in 0..<3 {
        values.append(
          Float(sin(0.37 * Double(i * (j + 1)) + Double(j)) + (j == labels[i] ? 0.8 : 0)))
      }
    }
    return (Matrix(rowCount: 60, columnCount: 3, values: values), labels)
  }

  private func check(_ weighting: ClassWeighting, coef: [Float], intercept: [Float]) throws {
    let (x, labels) = table()
    var h = LogisticRegression.Hyperparameters()
    h.l2Penalty = 1
    h.tolerance = 1e-7
    h.maxEpochs = 1000
    h.classWeighting = weighting
    let model = try LogisticRegression.fit(
      x, labels: labels, classes: ["a", "b", "c"], hyperparameters: h)
    let diff = max(
      maxAbsoluteDifference(model.linear.weight.values, coef),
      maxAbsoluteDifference(model.linear.bias, intercept))
    print("TENSOR OK vs scikit-learn (\(weighting)), maxdiff = \(diff)")
    XCTAssertLessThan(diff, 1e-5)
  }

  func testLogisticLBFGS_MatchesScikitLearn() throws {
    try check(
      .none,
      coef: [
        0.993599, -0.471891, -0.104380, -0.661720, 1.017892, -0.757522, -0.331879, -0.546001,
        0.861901,
      ],
      intercept: [0.584107, -0.383993, -0.200114])
  }

  func testLogisticLBFGS_BalancedWeightsMatchScikitLearn() throws {
    try check(
      .balanced,
      coef: [
        0.955938, -0.453099, -0.154379, -0.594660, 0.972505, -0.695539, -0.361278, -0.519406,
        0.849918,
      ],
      intercept: [-0.105185, -0.066564, 0.171749])
  }
}
