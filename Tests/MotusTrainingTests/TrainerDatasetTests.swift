// The dataset entry point on a small synthetic (generated) dataset: windows, class compaction,
// group choice.

import MotusData
import MotusFeatures
import MotusModels
import MotusTraining
import XCTest

final class TrainerDatasetTests: XCTestCase {
  /// Four subjects with two sessions each; "sit" is low noise, "walk" a 2 Hz sine; the
  /// vocabulary also names "unused", which no sample carries.
  private func dataset() -> Dataset {
    var generator = SplitMix64(seed: 4)
    var recordings: [Recording] = []
    for subject in 1...4 {
      for session in 0..<2 {
        let n = 320
        let timestamps = (0..<n).map { Double($0) / 50 }
        var a: [Float] = []
        var b: [Float] = []
        var labels: [Int32] = []
        for i in 0..<n {
          let walking = (i / 160 + session) % 2 == 1
          let noise = 0.05 * Synthetic.gaussian(&generator)
          let wave = walking ? Float(sin(2 * Double.pi * 2 * timestamps[i])) : 0
          a.append(wave + noise)
          b.append(0.5 * wave - noise)
          labels.append(walking ? 0 : 2)
        }
        recordings.append(
          Recording(
            session: "s\(subject)-\(session)", subject: "\(subject)", source: "synthetic",
            timestamps: timestamps, columns: [a, b], labelIndices: labels, sampleRateHz: 50))
      }
    }
    return Dataset(
      channels: ["a", "b"], labels: ["walk", "unused", "sit"], recordings: recordings)
  }

  private let spec = FeatureSpec(
    recipes: [.copy("a"), .copy("b")], channels: ["a", "b"], sampleRateHz: 50, windowLength: 64,
    hopLength: 32, statistics: [.mean, .std, .rms], spectral: [], bandEdgesHz: [])

  /// Options without the default perturbed copies, so the table holds the recordings' windows.
  private var asRecorded: TrainingOptions {
    var options = TrainingOptions()
    options.augmentation = nil
    return options
  }

  func testTrainDataset_KeepsOnlyLabelsWithWindowsAndHoldsOutSubjects() throws {
    let (model, report, table) = try Trainer.train(
      dataset: dataset(), spec: spec, options: asRecorded)
    XCTAssertEqual(model.classes, ["walk", "sit"])
    // 320 samples, window 64, hop 32 -> (320 - 64) / 32 + 1 = 9 windows per recording, 8 recordings
    XCTAssertEqual(table.windowCount, 72)
    XCTAssertEqual(report.trainingRowCount + report.validationRowCount, 72)
    XCTAssertTrue(Set(report.validationGroups).isSubset(of: ["1", "2", "3", "4"]))
    XCTAssertGreaterThan(report.accuracy, 0.9)
  }

  func testTrainDataset_SessionGroupsHoldOutWholeSessions() throws {
    let (_, report, table) = try Trainer.train(
      dataset: dataset(), spec: spec, validationGroup: .session, options: asRecorded)
    let sessions = Set((1...4).flatMap { subject in (0..<2).map { "s\(subject)-\($0)" } })
    XCTAssertFalse(report.validationGroups.isEmpty)
    XCTAssertTrue(Set(report.validationGroups).isSubset(of: sessions))
    // Every session has 9 windows; a session split across the two sides would break the count.
    let windowsPerSession = Dictionary(
      grouping: (0..<table.windowCount).map { table.session(at: $0) }, by: { $0 }
    ).mapValues(\.count)
    XCTAssertEqual(Set(windowsPerSession.values), [9])
    XCTAssertEqual(report.validationRowCount, 9 * report.validationGroups.count)
    XCTAssertEqual(report.trainingRowCount, 9 * (sessions.count - report.validationGroups.count))
  }

  func testTrainDataset_SourceGroupsHoldOutWholeSources() throws {
    // Subjects named `source:subject`, as a manifest names them: subjects 1-2 from "a",
    // 3-4 from "b". Holding out by source puts all of one source's windows on one side.
    var data = dataset()
    for r in data.recordings.indices {
      let subject = Int(data.recordings[r].subject) ?? 0
      data.recordings[r].subject = (subject <= 2 ? "a:" : "b:") + data.recordings[r].subject
    }
    let (_, report, _) = try Trainer.train(
      dataset: data, spec: spec, validationGroup: .source, options: asRecorded)
    XCTAssertEqual(report.validationGroups.count, 1)
    XCTAssertTrue(["a", "b"].contains(report.validationGroups.first ?? ""))
    XCTAssertEqual(report.validationRowCount, 36)
    XCTAssertEqual(report.trainingRowCount, 36)
  }

  func testValidationGroup_SourceOfAnUnprefixedSubjectIsTheSubject() {
    XCTAssertEqual(Trainer.ValidationGroup.source.group(subject: "qrowd:2", session: "x"), "qrowd")
    XCTAssertEqual(Trainer.ValidationGroup.source.group(subject: "7", session: "x"), "7")
    XCTAssertEqual(Trainer.ValidationGroup.session.group(subject: "qrowd:2", session: "x"), "x")
  }

  func testTrainDataset_NoWindowsThrows() {
    var long = spec
    long.windowLength = 1000
    long.hopLength = 500
    XCTAssertThrowsError(try Trainer.train(dataset: dataset(), spec: long, options: asRecorded)) {
      error in
      XCTAssertEqual(error as? TrainingError, .noWindows(skippedRecordings: 8, droppedImpure: 0))
    }
  }
}
