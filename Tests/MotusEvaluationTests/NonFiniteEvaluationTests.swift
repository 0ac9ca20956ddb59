// A NaN probability never reaches a metric: evaluation names the window instead.

import MotusData
import MotusEvaluation
import MotusModels
import XCTest

final class NonFiniteEvaluationTests: XCTestCase {
  func testEvaluate_OverflowingWindowIsAnErrorNamingIt() throws {
    var model = HandMade.model
    // Window means of 2 (subject b's first window) overflow the logits at this scale.
    model.standardizer = Standardizer(mean: [0], scale: [1e-38])
    XCTAssertThrowsError(try Evaluation.run(model: model, dataset: HandMade.dataset)) { error in
      XCTAssertEqual(
        error as? EvaluationError, .nonFiniteProbabilities(session: "b1", startSeconds: 0))
      XCTAssertTrue("\(error)".contains("HINT:"), "\(error)")
    }
  }
}
