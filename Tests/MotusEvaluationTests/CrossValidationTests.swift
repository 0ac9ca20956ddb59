import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusTraining
import XCTest

@testable import MotusEvaluation

final class CrossValidationTests: XCTestCase {
  /// 11 groups of uneven sizes (1...11 rows), interleaved.
  private var groups: [String] {
    var out: [String] = []
    for size in 1...11 {
      for _ in 0..<size { out.append("g\(size)") }
    }
    var generator = SplitMix64(seed: 99)
    generator.shuffle(&out)
    return out
  }

  func testFolds_NeverSplitAGroupAndTestEveryRowOnce() throws {
    let groups = self.groups
    for foldCount in [2, 3, 5, 11] {
      let folds = try CrossValidation.folds(groups: groups, foldCount: foldCount, seed: 4)
      XCTAssertEqual(folds.count, foldCount)
      var tested = [Int](repeating: 0, count: groups.count)
      for fold in folds {
        XCTAssertFalse(fold.groups.isEmpty)
        let testGroups = Set(fold.testRows.map { groups[$0] })
        let trainGroups = Set(fold.trainingRows.map { groups[$0] })
        XCTAssertTrue(testGroups.isDisjoint(with: trainGroups), "fold \(fold.groups) split")
        XCTAssertEqual(testGroups, Set(fold.groups))
        XCTAssertEqual(fold.testRows.count + fold.trainingRows.count, groups.count)
        for row in fold.testRows { tested[row] += 1 }
      }
      XCTAssertEqual(Set(tested), [1], "every row tested exactly once with \(foldCount) folds")
      XCTAssertEqual(Set(folds.flatMap(\.groups)).count, 11)
    }
  }

  func testFolds_DeterministicPerSeedAndBalanced() throws {
    let a = try CrossValidation.folds(groups: groups, foldCount: 3, seed: 1)
    let b = try CrossValidation.folds(groups: groups, foldCount: 3, seed: 1)
    XCTAssertEqual(a, b)
    let others = try (2...6).map {
      try CrossValidation.folds(groups: groups, foldCount: 3, seed: UInt64($0)).map(\.groups)
    }
    XCTAssertTrue(others.contains { $0 != a.map(\.groups) }, "seed has no effect")
    // 66 rows over 3 folds: greedy filling keeps each fold within the largest group (11) of 22.
    for fold in a { XCTAssertLessThanOrEqual(abs(fold.testRows.count - 22), 11) }
  }

  func testFolds_RejectsBadFoldCounts() {
    for k in [0, 1, 12] {
      XCTAssertThrowsError(try CrossValidation.folds(groups: groups, foldCount: k, seed: 0)) {
        XCTAssertEqual($0 as? EvaluationError, .invalidFoldCount(folds: k, groups: 11))
      }
    }
  }

  func testSummary_MeanAndSampleStandardDeviation() {
    let (mean, sd) = CrossValidation.meanAndStandardDeviation([2, 4, 4, 4, 5, 5, 7, 9])
    XCTAssertEqual(mean, 5, accuracy: 1e-12)
    // Σ(x - 5)² = 32; 32 / 7.
    XCTAssertEqual(sd, (32.0 / 7).squareRoot(), accuracy: 1e-12)
    XCTAssertEqual(CrossValidation.meanAndStandardDeviation([3]).1, 0)
  }

  func testRun_SeparableDataScoresEveryFold() throws {
    // Four subjects, two classes separable by the window mean; features from HandMade's spec.
    var recordings: [Recording] = []
    for s in 0..<4 {
      let shift = Float(s) * 0.1
      recordings.append(
        HandMade.recording(
          session: "s\(s)", subject: "p\(s)",
          means: [1 + shift, -1 - shift, 2, -2, 1.5, -0.5 - shift],
          labels: [0, 1, 0, 1, 0, 1]))
    }
    let dataset = Dataset(channels: ["x"], labels: ["high", "low"], recordings: recordings)
    let table = try WindowTable.make(
      dataset: dataset, extractor: FeatureExtractor(spec: HandMade.spec))
    var options = TrainingOptions()
    options.seed = 1
    let results = try CrossValidation.run(
      table: table, spec: HandMade.spec, group: .subject, foldCount: 2, seed: 5,
      options: options)
    XCTAssertEqual(results.count, 2)
    XCTAssertEqual(results.map { $0.evaluation.windowCount }.reduce(0, +), table.windowCount)
    for r in results {
      XCTAssertEqual(r.evaluation.accuracy, 1, "fold \(r.fold.groups)")
      XCTAssertEqual(Set(r.evaluation.subjects), Set(r.fold.groups))
    }
    let summary = CrossValidation.summarize(results)
    XCTAssertEqual(summary.map(\.name), CrossValidation.metricNames)
    let text = CrossValidation.text(results, group: "subject")
    XCTAssertTrue(text.contains("accuracy") && text.contains("1.0000"), text)
  }
}
