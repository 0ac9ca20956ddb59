// The raw table set aside during the fit: rows come back bit for bit from disk or memory, and
// a fit that sets its table aside writes the same model file as one that keeps it in memory.

import Foundation
import MotusData
import MotusLinearAlgebra
import MotusModels
import MotusTestSupport
import XCTest

@testable import MotusFeatures
@testable import MotusIngest
@testable import MotusTraining

final class RawFeatureStoreTests: TemporaryFolderTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    restoreAfterTest(get: { RawFeatureStore.directory }, set: { RawFeatureStore.directory = $0 })
  }

  /// 37 x 5 values with distinct bit patterns, NaN payloads and signed zeros among them.
  private func table() -> Matrix {
    var generator = SplitMix64(seed: 3)
    var values = (0..<(37 * 5)).map { _ in
      Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
    }
    values[0] = -0.0
    values[7] = Float(bitPattern: 0x7FC0_1234)
    return Matrix(rowCount: 37, columnCount: 5, values: values)
  }

  private func bits(_ m: Matrix) -> [UInt32] { m.values.map(\.bitPattern) }

  func testRows_FromDiskMatchTheTableBitForBit() throws {
    RawFeatureStore.directory = folder.path
    let original = table()
    var handed = original
    let store = RawFeatureStore(taking: &handed)
    XCTAssertTrue(store.isSpilled)
    XCTAssertEqual(handed.rowCount, 0, "the caller's copy is released")
    for indices in [
      Array(0..<37), [3, 4, 5, 9, 10, 36], [36, 0, 1, 2, 20, 19], [5, 5, 6], [], [12],
    ] {
      XCTAssertEqual(bits(try store.rows(indices)), bits(original.rows(indices)), "\(indices)")
    }
    XCTAssertEqual(bits(try store.all()), bits(original))
    // Unlinked as soon as it is written: nothing is left in the folder.
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
  }

  func testRows_StayInMemoryWhenNoFileCanBeWritten() throws {
    for directory in [nil, folder.appendingPathComponent("missing").path] {
      RawFeatureStore.directory = directory
      let original = table()
      var handed = original
      let store = RawFeatureStore(taking: &handed)
      XCTAssertFalse(store.isSpilled)
      XCTAssertEqual(bits(try store.rows([4, 2, 3])), bits(original.rows([4, 2, 3])))
      XCTAssertEqual(bits(try store.all()), bits(original))
    }
  }

  private func modelBytes(_ options: TrainingOptions, directory: String?) throws -> [UInt8] {
    RawFeatureStore.directory = directory
    return try Synthetic.modelBytes(options)
  }

  func testTrain_SetAsideOrInMemoryGivesTheSameModelFile() throws {
    for kind in ModelFamily.allCases {
      var options = TrainingOptions()
      options.model = Synthetic.model(kind, hidden: [8], maxEpochs: 15)
      options.seed = 5
      XCTAssertEqual(
        try modelBytes(options, directory: folder.path), try modelBytes(options, directory: nil),
        "\(kind)")
    }
  }

  func testTrainWindows_ReturnsTheTableItWasGiven() throws {
    RawFeatureStore.directory = folder.path
    let data = Synthetic.blobs(separation: 3, noise: 1.5, seed: 9)
    let recordings = (0..<6).map { "subject\($0)" }
    let given = WindowTable(
      features: data.x, featureNames: Synthetic.spec.featureNames,
      labelIndices: data.labels.map { Int32($0) }, purity: data.labels.map { _ in 1 },
      recordingIndices: data.groups.map { recordings.firstIndex(of: $0)! },
      starts: data.labels.indices.map { $0 }, startTimes: data.labels.indices.map { Double($0) },
      labels: ["a", "b", "c"], recordingSessions: recordings, recordingSubjects: recordings,
      skippedRecordingCount: 0,
      droppedImpureCount: 0)
    let (_, _, returned) = try Trainer.train(
      windows: given, negativeLabels: [], spec: Synthetic.spec, options: TrainingOptions())
    XCTAssertEqual(bits(returned.features), bits(given.features))
    XCTAssertEqual(returned.windowCount, given.windowCount)
  }

  func testUnreadableTable_MessageNamesTheFolderTheSystemReasonAndAHint() {
    let message = TrainingError.spilledTableUnreadable(directory: "/scratch", errno: EIO)
      .description
    XCTAssertTrue(message.contains("/scratch"), message)
    XCTAssertTrue(message.contains(InputFile.describe(EIO)), message)
    XCTAssertTrue(message.contains("HINT: "), message)
  }
}
