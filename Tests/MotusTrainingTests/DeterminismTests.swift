import MotusModels
import MotusTraining
import XCTest

final class DeterminismTests: XCTestCase {
  private func modelBytes(_ options: TrainingOptions) throws -> [UInt8] {
    let data = Synthetic.blobs(separation: 3, noise: 1.5, seed: 8)
    let (model, _) = try Trainer.train(
      features: data.x, labels: data.labels, groups: data.groups, classNames: ["a", "b", "c"],
      spec: Synthetic.spec, options: options)
    return [UInt8](try ModelFile.encode(model))
  }

  func testTrain_SameSeedGivesIdenticalBytes() throws {
    for kind in ModelFamily.allCases {
      var options = TrainingOptions()
      options.model = kind
      options.hiddenLayerSizes = [8, 4]
      options.maxEpochs = 20
      options.seed = 42
      XCTAssertEqual(try modelBytes(options), try modelBytes(options), "\(kind)")
    }
  }

  func testTrain_DifferentSeedGivesDifferentModel() throws {
    var options = TrainingOptions()
    options.model = .mlp
    options.maxEpochs = 20
    options.seed = 1
    let first = try modelBytes(options)
    options.seed = 2
    XCTAssertNotEqual(first, try modelBytes(options))
  }
}
