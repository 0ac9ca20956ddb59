// The per-class statistics training stores for adapting: on synthetic (generated) blobs, each
// class's mean and population standard deviation of what the last layer reads, recomputed
// here from the model's own standardiser and hidden layers.

import MotusLinearAlgebra
import MotusModels
import MotusTraining
import XCTest

final class ClassStatisticsTests: XCTestCase {
  private func assertStatisticsMatch(_ choice: ModelChoice) throws {
    let data = Synthetic.blobs(separation: 3, noise: 1.5, seed: 8)
    var options = TrainingOptions()
    options.model = choice
    let (model, _) = try Trainer.train(
      features: data.x, labels: data.labels, groups: data.groups, classNames: ["a", "b", "c"],
      spec: Synthetic.spec, options: options)
    let statistics = try XCTUnwrap(model.classStatistics)
    let h = model.lastLayerInputs(data.x)
    XCTAssertEqual(statistics.mean.count, 3)
    for c in 0..<3 {
      let rows = data.labels.indices.filter { data.labels[$0] == c }
      for j in 0..<h.columnCount {
        let values = rows.map { Double(h.values[$0 * h.columnCount + j]) }
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
        XCTAssertEqual(Double(statistics.mean[c][j]), mean, accuracy: 1e-4, "class \(c), input \(j)")
        XCTAssertEqual(
          Double(statistics.standardDeviation[c][j]), variance.squareRoot(), accuracy: 1e-4,
          "class \(c), input \(j)")
      }
    }
    // Blobs apart on feature c: each class's mean sits highest on its own feature.
    if case .logistic = model.classifier {
      for c in 0..<3 {
        XCTAssertEqual(statistics.mean[c].indices.max { statistics.mean[c][$0] < statistics.mean[c][$1] }! % 3, c)
      }
    }
  }

  func testLogisticStoresTheStandardisedFeaturesMomentsPerClass() throws {
    try assertStatisticsMatch(Synthetic.model(.logistic, maxEpochs: 50))
  }

  func testMLPStoresTheHiddenLayersMomentsPerClass() throws {
    try assertStatisticsMatch(Synthetic.model(.mlp, hidden: [5], maxEpochs: 20))
  }
}
