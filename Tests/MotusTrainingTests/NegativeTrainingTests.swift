// Training on a dataset with a negative label (`--negatives ignore|class`) and with a novelty
// detector (`--novelty-components`, `--novelty-rate`), on a small synthetic (generated) dataset.

import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusTraining
import XCTest

final class NegativeTrainingTests: XCTestCase {
  /// Four subjects with two sessions each of 480 samples at 50 Hz in thirds: "walk" a 2 Hz
  /// sine, "sit" low noise, and "other" (the negative label) a 6 Hz sine on a raised level.
  private func dataset() -> Dataset {
    var generator = SplitMix64(seed: 6)
    var recordings: [Recording] = []
    for subject in 1...4 {
      for session in 0..<2 {
        let n = 480
        let timestamps = (0..<n).map { Double($0) / 50 }
        var a: [Float] = []
        var b: [Float] = []
        var labels: [Int32] = []
        for i in 0..<n {
          let label = Int32((i / 160 + session) % 3)  // 0 walk, 1 other, 2 sit
          let noise = 0.05 * Synthetic.gaussian(&generator)
          let t = timestamps[i]
          let signal: Float
          switch label {
          case 0: signal = Float(sin(2 * Double.pi * 2 * t))
          case 1: signal = 1 + 0.5 * Float(sin(2 * Double.pi * 6 * t))
          default: signal = 0
          }
          a.append(signal + noise)
          b.append(0.5 * signal - noise)
          labels.append(label)
        }
        recordings.append(
          Recording(
            session: "s\(subject)-\(session)", subject: "\(subject)", source: "synthetic",
            timestamps: timestamps, columns: [a, b], labelIndices: labels, sampleRateHz: 50))
      }
    }
    return Dataset(
      channels: ["a", "b"], labels: ["walk", "other", "sit"], recordings: recordings,
      negativeLabels: ["other"])
  }

  private let spec = FeatureSpec(
    recipes: [.copy("a"), .copy("b")], channels: ["a", "b"], sampleRateHz: 50, windowLength: 64,
    hopLength: 32, statistics: [.mean, .std, .rms], spectral: [], bandEdgesHz: [])

  private func options(_ body: (inout TrainingOptions) -> Void = { _ in }) -> TrainingOptions {
    var o = TrainingOptions()
    o.seed = 3
    o.augmentation = nil  // every table row is then a window of the data as recorded
    body(&o)
    return o
  }

  private func rows(_ table: WindowTable, where keep: (Int) -> Bool) -> [Int] {
    (0..<table.windowCount).filter(keep)
  }

  func testIgnore_LeavesNegativeWindowsOut() throws {
    let (model, report, table) = try Trainer.train(
      dataset: dataset(), spec: spec, options: options { $0.negatives = .ignore })
    XCTAssertEqual(model.classes, ["walk", "sit"])
    XCTAssertEqual(model.negativeClasses, [])
    let negative = rows(table) { table.label(at: $0) == "other" }.count
    XCTAssertGreaterThan(negative, 0)
    XCTAssertEqual(
      report.trainingRowCount + report.validationRowCount, table.windowCount - negative)
    XCTAssertNotEqual(model.metadata.settings.negatives, .learnAsClass)
    XCTAssertGreaterThan(report.accuracy, 0.9)
  }

  func testLearnAsClass_KeepsTheNegativeClassAndAnswersUnknownForIt() throws {
    let (model, report, table) = try Trainer.train(
      dataset: dataset(), spec: spec, options: options { $0.negatives = .learnAsClass })
    XCTAssertEqual(model.classes, ["walk", "other", "sit"])
    XCTAssertEqual(model.negativeClasses, ["other"])
    XCTAssertEqual(report.trainingRowCount + report.validationRowCount, table.windowCount)
    XCTAssertEqual(model.metadata.settings.negatives, .learnAsClass)
    // Pure windows of the negative label are answered unknown, as none of the classes.
    let other = rows(table) { table.label(at: $0) == "other" && table.purity[$0] == 1 }
    let answers = model.predict(table.features.rows(other))
    let noneOfThem = answers.filter { $0.unknownReason == .noneOfTheClasses }.count
    XCTAssertGreaterThan(Double(noneOfThem) / Double(other.count), 0.9)
    // Pure windows of the classes are named.
    let real = rows(table) { table.label(at: $0) != "other" && table.purity[$0] == 1 }
    let named = model.predict(table.features.rows(real)).filter { !$0.isUnknown }.count
    XCTAssertGreaterThan(Double(named) / Double(real.count), 0.9)
  }

  func testNoNegativeLabels_NoNegativesHyperparameter() throws {
    var plain = dataset()
    plain.negativeLabels = []
    let (model, _, _) = try Trainer.train(dataset: plain, spec: spec, options: options())
    XCTAssertEqual(model.classes, ["walk", "other", "sit"])
    XCTAssertEqual(model.negativeClasses, [])
    XCTAssertNil(model.metadata.settings.negatives)
    XCTAssertNil(model.novelty)
    XCTAssertNil(model.metadata.settings.noveltyComponents)
  }

  /// The share of the held-out people's windows (negative labels left out) that `model`
  /// calls far from the training data, and how many there are.
  private func farShare(_ model: TrainedModel, _ table: WindowTable, groups: [String])
    -> (share: Double, count: Int)
  {
    let held = Set(groups)
    let validation = rows(table) {
      held.contains(table.subject(at: $0)) && table.label(at: $0) != "other"
    }
    let scores = model.noveltyScores(table.features.rows(validation)) ?? []
    let threshold = model.novelty?.threshold ?? .infinity
    let far = scores.filter { $0 > threshold }.count
    return (Double(far) / Double(validation.count), validation.count)
  }

  func testNovelty_ThresholdLetsThroughAllButTheRateOfHeldOutWindows() throws {
    for negatives in NegativeUse.allCases {
      let (model, report, table) = try Trainer.train(
        dataset: dataset(), spec: spec,
        options: options {
          $0.negatives = negatives
          $0.noveltyComponents = 2
          $0.noveltyRate = 0.2
          $0.refit = false  // the stored detector is then the one the threshold was set on
        })
      let detector = try XCTUnwrap(model.novelty)
      XCTAssertEqual(detector.componentCount, 2)
      XCTAssertEqual(detector.featureCount, model.featureCount)
      XCTAssertTrue(detector.threshold.isFinite)
      XCTAssertEqual(model.metadata.settings.noveltyComponents, 2)
      XCTAssertEqual(model.metadata.settings.noveltyRate, 0.2)
      // Nearest rank: at most 20 % of the held-out windows score above the threshold, and
      // no fewer than 20 % less one window.
      let (share, count) = farShare(model, table, groups: report.validationGroups)
      XCTAssertLessThanOrEqual(share, 0.2 + 1e-9, "\(negatives)")
      XCTAssertGreaterThanOrEqual(share, 0.2 - 1 / Double(count) - 1e-9, "\(negatives)")
    }
  }

  func testNovelty_RefitKeepsTheHeldOutThreshold() throws {
    func detector(refit: Bool) throws -> NoveltyDetector {
      let (model, _, _) = try Trainer.train(
        dataset: dataset(), spec: spec,
        options: options {
          $0.noveltyComponents = 3
          $0.refit = refit
        })
      return try XCTUnwrap(model.novelty)
    }
    let heldOut = try detector(refit: false)
    let refitted = try detector(refit: true)
    XCTAssertEqual(refitted.threshold, heldOut.threshold)
    XCTAssertNotEqual(refitted.mean, heldOut.mean, "refitted on every row")
    XCTAssertEqual(refitted.componentCount, 3)
  }

  func testNovelty_NeedsTwoFeatures() throws {
    let data = Synthetic.blobs(classCount: 2, featureCount: 1)
    var oneFeature = Synthetic.spec
    oneFeature.statistics = [.mean]
    let train = { (components: Int) in
      try Trainer.train(
        features: data.x, labels: data.labels, groups: data.groups, classNames: ["a", "b"],
        spec: oneFeature, options: self.options { $0.noveltyComponents = components })
    }
    XCTAssertThrowsError(try train(1)) { error in
      XCTAssertEqual(
        error as? TrainingError,
        .invalidHyperparameter(
          name: "noveltyComponents", value: "1", expected: "0 with fewer than 2 features"))
      XCTAssertTrue("\(error)".contains("'--novelty-components'"), "\(error)")
    }
    XCTAssertNil(try train(0).model.novelty)
  }

  func testNovelty_MoreDirectionsThanTheFeaturesLessOneIsAnError() throws {
    // Four features: the fit could keep at most three directions, and cut a fourth silently.
    let data = Synthetic.blobs(classCount: 2, featureCount: 4)
    let train = { (components: Int) in
      try Trainer.train(
        features: data.x, labels: data.labels, groups: data.groups, classNames: ["a", "b"],
        spec: Synthetic.spec, options: self.options { $0.noveltyComponents = components })
    }
    XCTAssertThrowsError(try train(4)) { error in
      XCTAssertEqual(
        error as? TrainingError,
        .invalidHyperparameter(
          name: "noveltyComponents", value: "4", expected: "at most 3 (the features less one)"))
      XCTAssertTrue("\(error)".contains("'--novelty-components'"), "\(error)")
    }
    XCTAssertEqual(try train(3).model.novelty?.componentCount, 3)
  }

  func testTraining_ByteDeterministicWithNegativesAndNovelty() throws {
    for negatives in NegativeUse.allCases {
      let chosen = options {
        $0.negatives = negatives
        $0.noveltyComponents = 2
        $0.noveltyRate = 0.05
        $0.augmentation = Augmentation(
          copies: 1,
          perturbation: DevicePerturbation(
            maxRotationDegrees: 30, gainSpread: 0.1, intensitySpread: 0.2, tempoSpread: 0.1))
      }
      let first = try Trainer.train(dataset: dataset(), spec: spec, options: chosen).model
      let second = try Trainer.train(dataset: dataset(), spec: spec, options: chosen).model
      XCTAssertNotNil(first.novelty)
      XCTAssertEqual(try ModelFile.encode(first), try ModelFile.encode(second), "\(negatives)")
    }
  }
}
