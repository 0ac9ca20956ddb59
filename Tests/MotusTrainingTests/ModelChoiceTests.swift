// The estimator's `Hyperparameters` are the one home of its defaults: a training run fits with
// them as they are and the model file records them, for either family.

import MotusModels
@testable import MotusTraining
import XCTest

final class ModelChoiceTests: XCTestCase {
  private func recorded(_ model: ModelChoice) throws -> TrainingSettings {
    let data = Synthetic.blobs(separation: 3, noise: 1.5, seed: 8)
    var options = TrainingOptions()
    options.model = model
    let (trained, _) = try Trainer.train(
      features: data.x, labels: data.labels, groups: data.groups, classNames: ["a", "b", "c"],
      spec: Synthetic.spec, options: options)
    return trained.metadata.settings
  }

  func testMLP_RecordsItsEstimatorsDefaults() throws {
    let h = MLPClassifier.Hyperparameters()
    XCTAssertEqual(ModelChoice(.mlp), .mlp(h))
    let settings = try recorded(ModelChoice(.mlp))
    XCTAssertEqual(settings.model, .mlp)
    XCTAssertEqual(settings.hiddenLayerSizes, h.hiddenLayerSizes)
    XCTAssertEqual(settings.l2Penalty, h.l2Penalty)
    XCTAssertEqual(settings.maxEpochs, h.maxEpochs)
    XCTAssertEqual(settings.tolerance, h.tolerance)
    XCTAssertEqual(settings.learningRate, h.learningRate)
    XCTAssertEqual(settings.batchSize, h.batchSize)
    XCTAssertEqual(settings.patience, h.patience)
    XCTAssertEqual(settings.classWeighting, h.classWeighting)
    XCTAssertNil(settings.solver, "the MLP has no solver to record")
  }

  func testLogistic_RecordsItsEstimatorsDefaults() throws {
    let h = LogisticRegression.Hyperparameters()
    XCTAssertEqual(ModelChoice(.logistic), .logistic(h))
    let settings = try recorded(ModelChoice(.logistic))
    XCTAssertEqual(settings.model, .logistic)
    XCTAssertEqual(settings.solver, h.solver)
    XCTAssertEqual(settings.l2Penalty, h.l2Penalty)
    XCTAssertEqual(settings.maxEpochs, h.maxEpochs)
    XCTAssertEqual(settings.tolerance, h.tolerance)
    XCTAssertEqual(settings.classWeighting, h.classWeighting)
    XCTAssertNil(settings.learningRate, "L-BFGS has no learning rate to record")
    XCTAssertNil(settings.hiddenLayerSizes)
  }

  func testShared_SetsTheCarriedEstimatorsValue() {
    var choice = ModelChoice(.mlp)
    choice.shared.l2Penalty = 2
    choice.shared.patience = 3
    var expected = MLPClassifier.Hyperparameters()
    expected.l2Penalty = 2
    expected.patience = 3
    XCTAssertEqual(choice, .mlp(expected))
    XCTAssertEqual(choice.family, .mlp)
  }

  /// Field names of a value's stored properties.
  private func fieldNames(_ value: Any) -> Set<String> {
    Set(Mirror(reflecting: value).children.compactMap(\.label))
  }

  func testSharedHyperparameters_EveryFieldIsInTheRecordedTable() {
    let keys = SharedHyperparameters.recorded.map(\.key)
    XCTAssertEqual(Set(keys).count, keys.count, "one entry per key")
    // The seed is the model file's own `TrainingMetadata.seed`, not a settings entry.
    XCTAssertEqual(
      fieldNames(ModelChoice(.mlp).shared).subtracting(["seed"]), Set(keys),
      "a field of SharedHyperparameters without an entry in `recorded` is never recorded")
    XCTAssertEqual(fieldNames(LogisticRegression.Hyperparameters()), ["shared", "solver"])
    XCTAssertEqual(fieldNames(MLPClassifier.Hyperparameters()), ["shared", "hiddenLayerSizes"])
  }

  func testEveryHyperparameter_IsRecordedAndReadBackAsFitted() throws {
    var logisticAdam = LogisticRegression.Hyperparameters(solver: .adam)
    logisticAdam.l2Penalty = 0.5
    logisticAdam.classWeighting = .given([1, 2, 0.5])
    logisticAdam.maxEpochs = 7
    logisticAdam.patience = 3
    var mlp = MLPClassifier.Hyperparameters()
    mlp.hiddenLayerSizes = [8]
    mlp.batchSize = 16
    mlp.learningRate = 0.01
    mlp.tolerance = 0.001
    for model in [ModelChoice.logistic(logisticAdam), .mlp(mlp), .logistic(.init())] {
      let settings = try recorded(model)
      for entry in SharedHyperparameters.recorded {
        XCTAssertEqual(
          settings.text[entry.key], entry.isRecorded(for: model) ? entry.format(model.shared) : nil,
          "\(entry.key) of \(model)")
      }
      let readBack = TrainingSettings(text: settings.text)
      XCTAssertEqual(readBack.unread, [:])
      XCTAssertEqual(readBack, settings, "every entry reads back typed")
      XCTAssertEqual(settings.classWeighting, model.shared.classWeighting)
      XCTAssertEqual(settings.maxEpochs, model.shared.maxEpochs)
      XCTAssertEqual(settings.solver, model.solver)
      XCTAssertEqual(settings.hiddenLayerSizes, model.family == .mlp ? [8] : nil)
    }
  }
}
