// The final refit on every row, the epoch it reuses, and training without calibration.

import MotusLinearAlgebra
import MotusModels
import MotusTestSupport
import XCTest

@testable import MotusTraining

final class RefitTests: XCTestCase {
  private let data = Synthetic.blobs(separation: 3, noise: 1.5, seed: 8)

  private func train(_ options: TrainingOptions) throws -> (TrainedModel, TrainingReport) {
    try Trainer.train(
      features: data.x, labels: data.labels, groups: data.groups, classNames: ["a", "b", "c"],
      spec: Synthetic.spec, options: options)
  }

  private func options(_ kind: ModelFamily, refit: Bool) -> TrainingOptions {
    var options = TrainingOptions()
    options.model = Synthetic.model(kind, hidden: [8], maxEpochs: 30)
    options.seed = 5
    options.refit = refit
    return options
  }

  func testTrain_RefitStandardisesOnEveryRow() throws {
    for kind in ModelFamily.allCases {
      let (model, report) = try train(options(kind, refit: true))
      XCTAssertEqual(model.standardizer, Standardizer.fit(data.x), "\(kind)")
      XCTAssertNotNil(report.refitEpochs, "\(kind)")
      XCTAssertEqual(model.metadata.settings.refit, true)
    }
  }

  func testTrain_NoRefitStandardisesOnTrainingPartOnly() throws {
    for kind in ModelFamily.allCases {
      let (model, report) = try train(options(kind, refit: false))
      let split = try GroupSplit.split(groups: data.groups, validationFraction: 0.2, seed: 5)
      XCTAssertEqual(model.standardizer, Standardizer.fit(data.x.rows(split.training)), "\(kind)")
      XCTAssertNil(report.refitEpochs, "\(kind)")
    }
  }

  func testTrain_MLPRefitRunsTheBestValidationEpochCount() throws {
    let (_, report) = try train(options(.mlp, refit: true))
    let losses = try report.epochs.map { try XCTUnwrap($0.validationLoss) }
    let best = try XCTUnwrap(losses.indices.min { losses[$0] < losses[$1] }) + 1
    XCTAssertEqual(report.refitEpochs, best)
  }

  func testTrain_RefitChangesTheModelButNotTheValidationReport() throws {
    let (refitModel, refitReport) = try train(options(.mlp, refit: true))
    let (heldOutModel, heldOutReport) = try train(options(.mlp, refit: false))
    XCTAssertNotEqual(
      try ModelFile.encode(refitModel), try ModelFile.encode(heldOutModel))
    XCTAssertEqual(refitReport.confusion, heldOutReport.confusion)
    XCTAssertEqual(refitModel.temperature, heldOutModel.temperature)
  }

  func testTrain_NoCalibrationKeepsTemperatureOne() throws {
    var noCalibration = options(.logistic, refit: false)
    noCalibration.calibrate = false
    let (model, report) = try train(noCalibration)
    XCTAssertEqual(model.temperature, 1)
    XCTAssertEqual(report.validationLogLossBefore, report.validationLogLossAfter)
    let (calibrated, _) = try train(options(.logistic, refit: false))
    XCTAssertNotEqual(calibrated.temperature, 1)
  }

  func testBestEpoch_FirstLowestValidationLoss() {
    let reports = [3.0, 1.0, 2.0, 1.0].enumerated().map { i, loss in
      EpochReport(
        epoch: i + 1, maxEpochs: 4, trainingLoss: 0, validationLoss: loss, elapsedSeconds: 0)
    }
    XCTAssertEqual(Trainer.bestEpoch(reports), 2)
    XCTAssertNil(
      Trainer.bestEpoch([EpochReport(epoch: 1, maxEpochs: 1, trainingLoss: 0, elapsedSeconds: 0)]))
  }

  func testRestandardized_KeepsLogitsOfRawFeatures() throws {
    let half = data.x.rows(Array(0..<(data.x.rowCount / 2)))
    let old = Standardizer.fit(half)
    let new = Standardizer.fit(data.x)
    let model = try LogisticRegression.fit(
      old.transform(half), labels: Array(data.labels.prefix(half.rowCount)),
      classes: ["a", "b", "c"])
    let moved = Trainer.restandardized(model, from: old, to: new)
    let before = model.logits(old.transform(data.x))
    let after = moved.logits(new.transform(data.x))
    XCTAssertLessThan(maxAbsoluteDifference(before.values, after.values), 1e-3)
    XCTAssertNotEqual(model.linear.weight.values, moved.linear.weight.values)
  }

  func testLogisticFit_WarmStartReachesTheSameOptimumSooner() throws {
    let x = Standardizer.fit(data.x).transform(data.x)
    var h = LogisticRegression.Hyperparameters()
    h.l2Penalty = 1
    h.tolerance = 1e-6
    h.maxEpochs = 1000
    var coldIterations = 0
    let cold = try LogisticRegression.fit(
      x, labels: data.labels, classes: ["a", "b", "c"], hyperparameters: h,
      progress: { coldIterations = $0.epoch })
    // Start near the optimum: the fit on the first half of the rows.
    let half = Array(0..<(x.rowCount / 2))
    let start = try LogisticRegression.fit(
      x.rows(half), labels: half.map { data.labels[$0] }, classes: ["a", "b", "c"],
      hyperparameters: h)
    var warmIterations = 0
    let warm = try LogisticRegression.fit(
      x, labels: data.labels, classes: ["a", "b", "c"], hyperparameters: h, initial: start,
      progress: { warmIterations = $0.epoch })
    XCTAssertLessThan(
      maxAbsoluteDifference(cold.linear.weight.values, warm.linear.weight.values), 1e-3)
    XCTAssertLessThan(maxAbsoluteDifference(cold.linear.bias, warm.linear.bias), 1e-3)
    XCTAssertLessThan(warmIterations, coldIterations)
  }

  func testTrain_ReportsFitTime() throws {
    let (_, report) = try train(options(.mlp, refit: true))
    XCTAssertGreaterThan(report.fitSeconds, 0)
    XCTAssertGreaterThan(report.fitCPUSeconds, 0)
    XCTAssertGreaterThanOrEqual(report.calibrationSeconds, 0)
  }
}
