import MotusModels
import MotusTraining
import XCTest

final class DeterminismTests: XCTestCase {
  private func modelBytes(_ options: TrainingOptions) throws -> [UInt8] {
    try Synthetic.modelBytes(options)
  }

  func testTrain_SameSeedGivesIdenticalBytes() throws {
    for kind in ModelFamily.allCases {
      var options = TrainingOptions()
      options.model = Synthetic.model(kind, hidden: [8, 4], maxEpochs: 20)
      options.seed = 42
      XCTAssertEqual(try modelBytes(options), try modelBytes(options), "\(kind)")
    }
  }

  func testTrain_DifferentSeedGivesDifferentModel() throws {
    var options = TrainingOptions()
    options.model = Synthetic.model(.mlp, maxEpochs: 20)
    options.seed = 1
    let first = try modelBytes(options)
    options.seed = 2
    XCTAssertNotEqual(first, try modelBytes(options))
  }
}
