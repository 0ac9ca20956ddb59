// Adapting a hand-built model on seeded synthetic feature rows: the fit moves towards the new
// labels, keeps the rows of the classes the windows do not show, refits only an MLP's last
// layer, is deterministic, and its record survives the model file.

import Foundation
@testable import MotusAdaptation
import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels
import XCTest

final class ModelAdapterTests: XCTestCase {
  static let spec = FeatureSpec(
    recipes: [.copy("acceleration.x")], channels: ["acceleration.x"], sampleRateHz: 50,
    windowLength: 64, hopLength: 32, statistics: [.mean, .std, .rms], spectral: [],
    bandEdgesHz: [])

  static let metadata = TrainingMetadata(
    dataDigest: "0123456789abcdef", seed: 3, motusVersion: "0.1.0")

  /// Three classes on three features: class c's logit is 3·z_c, so a row near the unit vector
  /// e_c is class c.
  static var model: TrainedModel {
    var weight = Matrix(rowCount: 3, columnCount: 3)
    for c in 0..<3 { weight[c, c] = 3 }
    return TrainedModel(
      featureSpec: spec, standardizer: Standardizer(mean: [0, 0, 0], scale: [1, 1, 1]),
      classifier: .logistic(
        LogisticRegression(
          classes: ["sit", "walk", "push-up"], linear: Linear(weight: weight, bias: [0, 0, 0]))),
      confidenceCutoffs: ConfidenceCutoffs(medium: 0.5, high: 0.9), metadata: metadata)
  }

  /// `count` rows scattered (seeded) around `centre`, all labelled `label`.
  static func rows(around centre: [Float], count: Int, label: String, seed: UInt64)
    -> (values: [Float], labels: [String])
  {
    var random = SplitMix64(seed: seed)
    var values: [Float] = []
    for _ in 0..<count { values += centre.map { $0 + Float(random.gaussian()) * 0.1 } }
    return (values, Array(repeating: label, count: count))
  }

  /// Rows the original model calls `sit` (near e_0) labelled `push-up`, and rows near e_1
  /// labelled `walk`: `sit` itself is not shown.
  static func windows(seed: UInt64 = 1) throws -> AdaptationWindows {
    let pushUps = rows(around: [1, 0, 0], count: 30, label: "push-up", seed: seed)
    let walks = rows(around: [0, 1, 0], count: 30, label: "walk", seed: seed + 1)
    return try AdaptationWindows(
      spec: spec,
      features: Matrix(rowCount: 60, columnCount: 3, values: pushUps.values + walks.values),
      labels: pushUps.labels + walks.labels)
  }

  func testAdaptingMovesPredictionsTowardsTheNewLabels() throws {
    let windows = try Self.windows()
    let before = Self.model.predict(windows.features).map(\.classIndex)
    XCTAssertEqual(before.prefix(30).filter { $0 == 2 }.count, 0, "push-up rows start as sit")
    var settings = ModelAdapter.Settings()
    settings.penalty = 0.001
    let adapted = try ModelAdapter.adapt(Self.model, to: windows, settings: settings)
    let after = adapted.predict(windows.features).map(\.classIndex)
    XCTAssertEqual(after.prefix(30).filter { $0 == 2 }.count, 30)
    XCTAssertEqual(after.suffix(30).filter { $0 == 1 }.count, 30)
  }

  func testAClassTheWindowsDoNotShowKeepsItsRowAndTheShownOnesMoveLessUnderALargerPenalty()
    throws
  {
    let original = Self.model.classifier.network.layers[0]
    func layer(_ penalty: Double) throws -> Linear {
      var settings = ModelAdapter.Settings()
      settings.penalty = penalty
      return try ModelAdapter.adapt(Self.model, to: Self.windows(), settings: settings)
        .classifier.network.layers[0]
    }
    func rowChange(_ layer: Linear, _ c: Int) -> Float {
      (0..<3).reduce(abs(layer.bias[c] - original.bias[c])) {
        $0 + abs(layer.weight[c, $1] - original.weight[c, $1])
      }
    }
    let loose = try layer(0.01)
    let tight = try layer(1)
    // `sit` (class 0) is not shown: its weights and bias stay exactly, so its logit is the
    // same on every window; the shown classes move, less under a larger penalty.
    for adapted in [loose, tight] {
      XCTAssertEqual((0..<3).map { adapted.weight[0, $0] }, (0..<3).map { original.weight[0, $0] })
      XCTAssertEqual(adapted.bias[0], original.bias[0])
    }
    XCTAssertLessThan(rowChange(tight, 2), rowChange(loose, 2))
    XCTAssertGreaterThan(rowChange(tight, 2), 0)
    XCTAssertGreaterThan(rowChange(tight, 1), 0)
  }

  func testOnlyTheLastLayerOfAnMLPMoves() throws {
    let hidden = Linear(
      weight: Matrix(rows: [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]]), bias: [0, 0, 0, 0])
    let output = Linear(
      weight: Matrix(rows: [[3, 0, 0, 0], [0, 3, 0, 0], [0, 0, 3, 0]]), bias: [0, 0, 0])
    var model = Self.model
    model.classifier = .mlp(
      MLPClassifier(classes: model.classes, hidden: [hidden], output: output))
    let adapted = try ModelAdapter.adapt(model, to: Self.windows())
    guard case .mlp(let mlp) = adapted.classifier else { return XCTFail("kind changed") }
    XCTAssertEqual(mlp.hidden, [hidden])
    XCTAssertNotEqual(mlp.output, output)
    XCTAssertEqual(adapted.classes, model.classes)
    XCTAssertEqual(adapted.featureSpec, model.featureSpec)
  }

  func testTheSameWindowsGiveTheSameBytesAndTheRecordRoundTrips() throws {
    let first = try ModelFile.encode(ModelAdapter.adapt(Self.model, to: Self.windows()))
    let second = try ModelFile.encode(ModelAdapter.adapt(Self.model, to: Self.windows()))
    XCTAssertEqual(first, second)
    let read = try ModelFile.decode(first, file: "adapted.motus")
    let record = try XCTUnwrap(read.metadata.adaptation)
    XCTAssertEqual(record.windowsPerClass, ["push-up": 30, "walk": 30])
    XCTAssertEqual(record.baseDataDigest, "0123456789abcdef")
    XCTAssertEqual(record.settings["penalty"], "0.01")
    XCTAssertEqual(record.baseModelDigest.count, 16)
    XCTAssertNotEqual(
      record.dataDigest, try ModelAdapter.adapt(Self.model, to: Self.windows(seed: 5))
        .metadata.adaptation?.dataDigest)
    XCTAssertEqual(read.temperature, Self.model.temperature)
    XCTAssertEqual(read.confidenceCutoffs, Self.model.confidenceCutoffs)
  }

  func testAModelThatWasNotAdaptedKeepsItsBytesWithoutARecord() throws {
    let bytes = try ModelFile.encode(Self.model)
    XCTAssertNil(String(decoding: bytes, as: UTF8.self).range(of: "adaptation"))
    XCTAssertNil(try ModelFile.decode(bytes, file: "m.motus").metadata.adaptation)
  }
}

final class RehearsalTests: XCTestCase {
  /// `ModelAdapterTests.model` with statistics saying where each class's rows lay in training:
  /// around the unit vector e_c, spread 0.1.
  static var modelWithStatistics: TrainedModel {
    var model = ModelAdapterTests.model
    model.classStatistics = ClassStatistics(
      mean: (0..<3).map { c in (0..<3).map { $0 == c ? 1 : 0 } },
      standardDeviation: Array(repeating: [0.1, 0.1, 0.1], count: 3))
    return model
  }

  /// Push-ups lent halfway between `sit` and `push-up`, walks near e_1; `sit` is not shown.
  static func windows() throws -> AdaptationWindows {
    let pushUps = ModelAdapterTests.rows(
      around: [0.8, 0, 0.5], count: 30, label: "push-up", seed: 7)
    let walks = ModelAdapterTests.rows(around: [0, 1, 0], count: 30, label: "walk", seed: 8)
    return try AdaptationWindows(
      spec: ModelAdapterTests.spec,
      features: Matrix(rowCount: 60, columnCount: 3, values: pushUps.values + walks.values),
      labels: pushUps.labels + walks.labels)
  }

  /// How many of 100 seeded rows around e_0 (`sit` in training) `model` still calls `sit`.
  static func sitsKept(_ model: TrainedModel) -> Int {
    let sits = ModelAdapterTests.rows(around: [1, 0, 0], count: 100, label: "sit", seed: 9)
    return model.predict(Matrix(rowCount: 100, columnCount: 3, values: sits.values))
      .filter { $0.classIndex == 0 }.count
  }

  func testStandInsFromTheStatisticsKeepTheUnshownClassesRegion() throws {
    var settings = ModelAdapter.Settings()
    settings.penalty = 0.001
    let windows = try Self.windows()
    let without = try ModelAdapter.adapt(ModelAdapterTests.model, to: windows, settings: settings)
    let with = try ModelAdapter.adapt(Self.modelWithStatistics, to: windows, settings: settings)
    XCTAssertEqual(Self.sitsKept(ModelAdapterTests.model), 100)
    XCTAssertLessThan(Self.sitsKept(without), 50, "without statistics push-up takes sit's place")
    XCTAssertGreaterThan(Self.sitsKept(with), 95)
    let pushUps = with.predict(windows.features).prefix(30).filter { $0.classIndex == 2 }.count
    XCTAssertGreaterThan(pushUps, 25, "the lent push-ups are still learnt")
  }

  func testRehearsalWeightZeroAdaptsAsWithoutStatistics() throws {
    var settings = ModelAdapter.Settings()
    settings.rehearsalWeight = 0
    let windows = try Self.windows()
    let without = try ModelAdapter.adapt(ModelAdapterTests.model, to: windows, settings: settings)
    let off = try ModelAdapter.adapt(Self.modelWithStatistics, to: windows, settings: settings)
    XCTAssertEqual(off.classifier, without.classifier)
    settings.rehearsalWeight = 0.5
    let on = try ModelAdapter.adapt(Self.modelWithStatistics, to: windows, settings: settings)
    XCTAssertNotEqual(on.classifier, without.classifier)
    XCTAssertEqual(on.metadata.adaptation?.settings["rehearsalWeight"], "0.5")
  }

  func testAClassTrainingNeverSawGetsNoStandIns() throws {
    var settings = ModelAdapter.Settings()
    settings.penalty = 0.001
    var model = Self.modelWithStatistics
    model.classStatistics?.mean[0] = [0, 0, 0]
    model.classStatistics?.standardDeviation[0] = [0, 0, 0]
    let windows = try Self.windows()
    let unheld = try ModelAdapter.adapt(model, to: windows, settings: settings)
    let without = try ModelAdapter.adapt(ModelAdapterTests.model, to: windows, settings: settings)
    XCTAssertEqual(unheld.classifier, without.classifier, "sit, never seen, is the only unshown")
  }

  func testStandInsAreSeededAndClippedAtFourDeviations() throws {
    let statistics = Self.modelWithStatistics.classStatistics!
    let first = ModelAdapter.standIns(
      statistics, classes: [0, 2], perClass: 500, nonNegative: false)
    let second = ModelAdapter.standIns(
      statistics, classes: [0, 2], perClass: 500, nonNegative: false)
    XCTAssertEqual(first.inputs, second.inputs)
    XCTAssertEqual(first.labels, Array(repeating: 0, count: 500) + Array(repeating: 2, count: 500))
    XCTAssertTrue(first.inputs.values.allSatisfy { abs($0) <= 1.4 + 1e-6 })
    let relu = ModelAdapter.standIns(statistics, classes: [1], perClass: 100, nonNegative: true)
    XCTAssertTrue(relu.inputs.values.allSatisfy { $0 >= 0 })
    XCTAssertTrue(first.inputs.values.contains { $0 < 0 })
  }

  func testStatisticsRoundTripAndAreChecked() throws {
    let bytes = try ModelFile.encode(Self.modelWithStatistics)
    XCTAssertEqual(
      try ModelFile.decode(bytes, file: "m.motus").classStatistics,
      Self.modelWithStatistics.classStatistics)
    var bad = Self.modelWithStatistics
    bad.classStatistics?.standardDeviation[1] = [0.1, 0.1]
    XCTAssertThrowsError(try ModelFile.decode(ModelFile.encode(bad), file: "bad.motus")) {
      XCTAssertTrue("\($0)".contains("classStatistics"), "\($0)")
    }
  }
}
