// Per-sample scores with unknown answers and negative labels, worked out by hand: ScoreCounter,
// TransferScore, SeedSummary and the transfer report's summaries.

import XCTest

@testable import MotusBenchmarks

final class ScoreCounterTests: XCTestCase {
  /// Classes walk (0), sit (1) and the negative label other (2); predictions -1 = no label yet,
  /// -2 = unknown. Counts [truth][walk, sit, other, no label, unknown]:
  ///   walk  [2, 0, 0, 1, 1]
  ///   sit   [1, 2, 0, 0, 1]
  ///   other [1, 0, 0, 1, 2]
  /// The first sample has no truth and is left out of the counts.
  private func counter() -> ScoreCounter {
    var counter = ScoreCounter(classCount: 3, sampleRateHz: 10, stableSeconds: 0.1)
    counter.add(
      truth: [-1, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2],
      predicted: [0, -1, 0, 0, -2, 1, 1, 0, -2, -2, -2, 0, -1])
    return counter
  }

  private let negative = [false, false, true]

  func testAdd_CountsUnknownAnswersInTheirOwnColumn() {
    let c = counter()
    XCTAssertEqual(c.counts, [[2, 0, 0, 1, 1], [1, 2, 0, 0, 1], [1, 0, 0, 1, 2]])
    XCTAssertEqual(c.samples, 13)
  }

  func testScore_LeavesNegativeRowsOutOfMacroF1AndAccuracy() throws {
    let score = counter().score(method: "m", cpuSeconds: 0, negative: negative)
    // walk: tp 2, fn 2, fp 1 (a sit sample; the `other` sample called walk does not count):
    // F1 = 4 / 7. sit: tp 2, fn 2, fp 0: F1 = 4 / 6.
    let f1 = try XCTUnwrap(score.f1)
    XCTAssertEqual(f1[0], 4.0 / 7, accuracy: 1e-12)
    XCTAssertEqual(f1[1], 4.0 / 6, accuracy: 1e-12)
    XCTAssertEqual(f1[2], 0)
    XCTAssertEqual(try XCTUnwrap(score.macroF1), (4.0 / 7 + 4.0 / 6) / 2, accuracy: 1e-12)
    // 4 of the 8 class samples right; 3 of them unnamed (1 no label, 2 unknown).
    XCTAssertEqual(try XCTUnwrap(score.accuracy), 0.5, accuracy: 1e-12)
    XCTAssertEqual(try XCTUnwrap(score.coverage), 5.0 / 8, accuracy: 1e-12)
    XCTAssertEqual(try XCTUnwrap(score.lostToUnknown), 2.0 / 8, accuracy: 1e-12)
    // 2 of the 4 negative samples answered unknown.
    XCTAssertEqual(try XCTUnwrap(score.negativesUnknown), 0.5, accuracy: 1e-12)
    XCTAssertEqual(score.confusion ?? [], counter().counts)
  }

  func testScore_WithoutNegativesEveryRowCounts() throws {
    let score = counter().score(method: "m", cpuSeconds: 1.3)
    // walk now has 2 false positives (sit and other): F1 = 4 / 8; other has F1 0 and counts.
    let f1 = try XCTUnwrap(score.f1)
    XCTAssertEqual(f1[0], 0.5, accuracy: 1e-12)
    XCTAssertEqual(try XCTUnwrap(score.macroF1), (0.5 + 4.0 / 6 + 0) / 3, accuracy: 1e-12)
    XCTAssertEqual(try XCTUnwrap(score.accuracy), 4.0 / 12, accuracy: 1e-12)
    XCTAssertEqual(try XCTUnwrap(score.lostToUnknown), 4.0 / 12, accuracy: 1e-12)
    XCTAssertNil(score.negativesUnknown)
    XCTAssertEqual(score.cpuSecondsPerSample, 0.1, accuracy: 1e-12)
  }

  func testMerge_AddsCounts() {
    var merged = counter()
    merged.merge(counter())
    XCTAssertEqual(merged.counts, counter().counts.map { $0.map { 2 * $0 } })
    XCTAssertEqual(merged.samples, 26)
    XCTAssertEqual(merged.changes, 2 * counter().changes)
  }

  func testTransferScore_HandMadeCounter() {
    let score = TransferScore(counter: counter(), present: [0, 1], negative: negative)
    XCTAssertEqual(score.macroF1, (4.0 / 7 + 4.0 / 6) / 2, accuracy: 1e-12)
    XCTAssertEqual(score.accuracy, 0.5, accuracy: 1e-12)
    XCTAssertEqual(score.recall, [0.5, 0.5])
    XCTAssertEqual(score.lostToUnknown, 0.25, accuracy: 1e-12)
    XCTAssertEqual(score.negativesUnknown ?? -1, 0.5, accuracy: 1e-12)
    XCTAssertEqual(score.samples, 12)
    XCTAssertEqual(score.confusion, counter().counts)
    // Over sit alone: walk's samples are neither support nor false positives.
    let sit = TransferScore(counter: counter(), present: [1], negative: negative)
    XCTAssertEqual(sit.macroF1, 4.0 / 6, accuracy: 1e-12)
    XCTAssertEqual(sit.accuracy, 0.5, accuracy: 1e-12)
    XCTAssertEqual(sit.recall, [0.5])
    XCTAssertEqual(sit.lostToUnknown, 0.25, accuracy: 1e-12)
    XCTAssertEqual(sit.samples, 8)
    // No negative label: no share.
    XCTAssertNil(
      TransferScore(counter: counter(), present: [0, 1], negative: [false, false, false])
        .negativesUnknown)
  }

  func testSeedSummary_MedianOfOddAndEvenCounts() throws {
    let odd = try XCTUnwrap(SeedSummary([0.3, 0.1, 0.2]))
    XCTAssertEqual([odd.median, odd.min, odd.max], [0.2, 0.1, 0.3])
    let even = try XCTUnwrap(SeedSummary([4, 1, 3, 2]))
    XCTAssertEqual(even.median, 2.5)
    XCTAssertEqual(even.min, 1)
    XCTAssertEqual(even.max, 4)
    XCTAssertEqual(SeedSummary([7])?.median, 7)
    XCTAssertNil(SeedSummary([]))
  }

  func testGroupResult_StreamedMarginAgainstTheBetterThresholdVariant() throws {
    func scores(_ macroF1: [Double]) -> [TransferScore] {
      macroF1.map {
        var s = TransferScore(counter: counter(), present: [0, 1], negative: negative)
        s.macroF1 = $0
        return s
      }
    }
    let group = TransferReport.GroupResult(
      name: "g", kind: .source, classes: ["walk", "sit"], testSubjects: ["1"], testSamples: 12,
      folds: 1,
      methods: [
        .init(method: "learned, streamed", seeds: scores([0.8, 0.6, 0.7])),
        .init(method: "thresholds, tuned", seeds: scores([0.5])),
        .init(method: "thresholds, tuned, vote of 5", seeds: scores([0.65])),
      ])
    XCTAssertEqual(group.streamedMargin ?? -1, 0.7 - 0.65, accuracy: 1e-12)
    let learned = try XCTUnwrap(group.methods[0].macroF1)
    XCTAssertEqual([learned.median, learned.min, learned.max], [0.7, 0.6, 0.8])
    XCTAssertEqual(group.methods[0].recall, [0.5, 0.5])
  }

  func testMedianStreamedAccuracy_SkipsGroupsWithOneClass() {
    func group(_ name: String, classes: [String], accuracy: Double) -> TransferReport.GroupResult {
      var score = TransferScore(counter: counter(), present: [0, 1], negative: negative)
      score.accuracy = accuracy
      return .init(
        name: name, kind: .source, classes: classes, testSubjects: ["1"], testSamples: 12,
        folds: 1, methods: [.init(method: "learned, streamed", seeds: [score])])
    }
    let report = TransferReport(
      manifest: "m", classes: ["walk", "sit", "push-up"], negativeLabels: [], sampleRateHz: 15,
      seeds: [1], featureSpec: "", training: "", streamed: "",
      groups: [
        group("a", classes: ["walk", "sit"], accuracy: 0.9),
        group("b", classes: ["walk", "sit"], accuracy: 0.7),
        group("pushups", classes: ["push-up"], accuracy: 0),
      ],
      pushUps: nil)
    XCTAssertEqual(report.medianStreamedAccuracy ?? -1, 0.8, accuracy: 1e-12)
  }

  /// Classes walk (0), sit (1), push-up (2, absent from the truth) and the negative label
  /// other (3). Counts [truth][walk, sit, push-up, other, no label, unknown], 30 samples:
  ///   walk    [6, 1, 2, 0, 1, 0]
  ///   sit     [0, 7, 1, 0, 0, 2]
  ///   push-up [0, 0, 0, 0, 0, 0]
  ///   other   [3, 0, 1, 0, 0, 6]
  private func alarmCounter() -> ScoreCounter {
    var counter = ScoreCounter(classCount: 4, sampleRateHz: 10, stableSeconds: 0.1)
    counter.counts = [
      [6, 1, 2, 0, 1, 0], [0, 7, 1, 0, 0, 2], [0, 0, 0, 0, 0, 0], [3, 0, 1, 0, 0, 6],
    ]
    return counter
  }

  private let alarmNegative = [false, false, false, true]

  func testFalseAlarms_CountNegativeTruthsAndAbsentClassesOverEverySample() throws {
    let alarms = alarmCounter().falseAlarms(negative: alarmNegative)
    // walk: answered 9 times, 6 right (3 of the wrong answers are `other` samples): 2/3;
    // sit 7 of 8; push-up answered 4 times, never right; the negative label has none.
    XCTAssertEqual(alarms.precision.count, 4)
    XCTAssertEqual(try XCTUnwrap(alarms.precision[0]), 2.0 / 3, accuracy: 1e-12)
    XCTAssertEqual(try XCTUnwrap(alarms.precision[1]), 7.0 / 8, accuracy: 1e-12)
    XCTAssertEqual(try XCTUnwrap(alarms.precision[2]), 0)
    XCTAssertNil(alarms.precision[3])
    // False alarms 3, 1 and 4 of the 30 samples: 60 × 3 / 30 = 6, 2 and 8 minutes per hour.
    let perHour = alarms.minutesPerHour
    XCTAssertEqual(perHour[0], 6, accuracy: 1e-12)
    XCTAssertEqual(perHour[1], 2, accuracy: 1e-12)
    XCTAssertEqual(perHour[2], 8, accuracy: 1e-12)
    XCTAssertEqual(perHour[3], 0)
    // Over the 20 samples of other truths for walk and sit; push-up is absent: over all 30.
    XCTAssertEqual(alarms.rate[0], 3.0 / 20, accuracy: 1e-12)
    XCTAssertEqual(alarms.rate[1], 1.0 / 20, accuracy: 1e-12)
    XCTAssertEqual(alarms.rate[2], 4.0 / 30, accuracy: 1e-12)
    XCTAssertEqual(alarms.rate[3], 0)
  }

  func testFalseAlarms_InTransferScoreAndMethodScoreOverTheClasses() throws {
    let score = TransferScore(
      counter: alarmCounter(), present: [0, 1], negative: alarmNegative)
    // The report's classes (every non-negative label), present in the group or not.
    XCTAssertEqual(score.precision.count, 3)
    XCTAssertEqual(try XCTUnwrap(score.precision[1]), 7.0 / 8, accuracy: 1e-12)
    XCTAssertEqual(score.falseAlarmMinutesPerHour.count, 3)
    XCTAssertEqual(score.falseAlarmMinutesPerHour[2], 8, accuracy: 1e-12)
    XCTAssertEqual(score.falseAlarmRate[2], 4.0 / 30, accuracy: 1e-12)
    XCTAssertEqual(score.recall, [0.6, 0.7])
    let method = alarmCounter().score(method: "m", cpuSeconds: 0, negative: alarmNegative)
    XCTAssertEqual(method.falseAlarmRate?.count, 4)
    XCTAssertEqual(try XCTUnwrap(method.falseAlarmRate?[0]), 0.15, accuracy: 1e-12)
    XCTAssertNil(method.precision?[3] ?? nil)
  }

  func testMethodResult_FalseAlarmMediansOverSeeds() throws {
    var seeds: [TransferScore] = []
    for (walk, sit) in [(0.1, nil), (0.3, 0.5), (0.2, 0.7)] as [(Double, Double?)] {
      var s = TransferScore(counter: alarmCounter(), present: [0, 1], negative: alarmNegative)
      s.falseAlarmRate = [walk, 0, 0]
      s.falseAlarmMinutesPerHour = [10 * walk, 0, 0]
      s.precision = [1, sit, nil]
      seeds.append(s)
    }
    let method = TransferReport.MethodResult(method: "m", seeds: seeds)
    XCTAssertEqual(method.falseAlarmRate[0], 0.2, accuracy: 1e-12)
    XCTAssertEqual(method.falseAlarmMinutesPerHour[0], 2, accuracy: 1e-12)
    // Seeds that never answered sit are left out; a class nobody answered has none.
    XCTAssertEqual(try XCTUnwrap(method.precision[1]), 0.6, accuracy: 1e-12)
    XCTAssertNil(method.precision[2])
  }
}
