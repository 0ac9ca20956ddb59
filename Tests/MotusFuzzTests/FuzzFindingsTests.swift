// What fuzzing found, each pinned: the input (under Fuzz/Corpus or Fuzz/Regressions) and the
// result it must give.

import Foundation
import MotusData
import MotusFuzzTargets
import MotusIngest
import MotusModels
import MotusStreaming
import MotusTestSupport
import XCTest

final class FuzzFindingsTests: XCTestCase {
  private func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: FuzzCorpusTests.fuzzFolder.appendingPathComponent(path)))
  }

  /// The seeds are worth mutating only if they load: each reaches the deepest checks.
  func testModelSeeds_LoadAndStream() throws {
    for name in ["logistic.motus", "logistic-version1.motus", "mlp-decomposed.motus"] {
      let model = try ModelFile.decode(Data(try bytes("Corpus/model/\(name)")), file: name)
      let inputs = ChannelSelector.rawInputs(of: model.featureSpec.recipes)
      let engine = try StreamingClassifier(model: model, inputChannels: inputs)
      for t in 0..<(2 * model.featureSpec.windowLength) {
        let values = inputs.indices.map { Float(($0 + t) % 5) * 0.1 }
        values.withUnsafeBufferPointer {
          engine.append(timestamp: Double(t) / engine.inputRateHz, values: $0) { _ in }
        }
      }
      XCTAssertGreaterThan(engine.statistics.predictions, 0, name)
    }
    XCTAssertNoThrow(try Manifest.decode(try bytes("Corpus/manifest/six-class.json"), file: "m"))
  }

  /// Found by the model target: a model trained with an empty validation part stores NaN
  /// metrics. It loads, and re-encodes to the same bytes; the model only compares unequal to
  /// itself because NaN equals nothing.
  func testModelWithNaNMetrics_ReencodesToTheSameBytes() throws {
    let file = try bytes("Corpus/model/logistic-version1.motus")
    let model = try ModelFile.decode(Data(file), file: "v1")
    XCTAssertTrue(model.metadata.validationMetrics.values.contains { $0.isNaN })
    let encoded = try ModelFile.encode(model)
    XCTAssertEqual(try ModelFile.encode(try ModelFile.decode(encoded, file: "v2")), encoded)
    XCTAssertEqual([UInt8](encoded.dropLast(4)).count, file.count, "version 1 plus a checksum")
  }

  /// Found by the manifest target: "/" followed by a combining mark (U+059D) is one Swift
  /// Character, so splitting a path by Character "/" missed that separator, and a ".."
  /// before it went uncounted. Paths are now split and compared as bytes.
  func testCombiningMarkAfterASlash_StillSeparatesPathComponents() throws {
    let sneaky = "../\u{59D}etc/passwd"
    XCTAssertThrowsError(
      try Manifest.confinedPath(
        sneaky, root: "/data", allowOutside: false, file: "m.json", key: "sources[0].files[0]")
    ) { error in
      XCTAssertTrue("\(error)".contains("climbs out of the data root"), "\(error)")
    }
    XCTAssertEqual(
      try Manifest.confinedPath(
        "\u{59D}/a.csv", root: "/data", allowOutside: false, file: "m.json", key: "k"),
      "/data/\u{59D}/a.csv")
    XCTAssertTrue(FuzzTargets.staysInside("/data/\u{59D}/a.csv", root: "/data"))
    XCTAssertFalse(FuzzTargets.staysInside("/data/../\u{59D}etc", root: "/data"))
    FuzzTargets.manifest(try bytes("Regressions/manifest/combining-mark-after-slash.json"))
  }

  /// Found with the seeds: training writes a confidence cut-off of 1.0000001 for a level it
  /// never gives; a check requiring <= 1 rejected every such model.
  func testTrainedCutoffAboveOne_Loads() throws {
    let model = try ModelFile.decode(Data(try bytes("Corpus/model/logistic.motus")), file: "m")
    XCTAssertGreaterThan(model.confidenceCutoffs.high, 1)
  }

  /// The app seeds are worth mutating only if they load: each layout, file and folder, reaches
  /// the join and the loader.
  func testAppSeeds_Load() throws {
    for (kind, load) in [
      ("app-file", FuzzTargets.loadAppFile), ("app-folder", FuzzTargets.loadAppFolder),
    ] {
      let folder = FuzzCorpusTests.fuzzFolder.appendingPathComponent("Corpus/\(kind)")
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
        let loaded = load(try bytes("Corpus/\(kind)/\(name)"))
        XCTAssertNotNil(loaded, "\(kind)/\(name)")
      }
    }
  }

  /// The Parquet seeds are worth mutating only if those Spark wrote to be read decode.
  func testParquetSeeds_Decode() throws {
    let folder = FuzzCorpusTests.fuzzFolder.appendingPathComponent("Corpus/parquet")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    XCTAssertGreaterThanOrEqual(names.count, 5)
    for name in names
    where name.hasPrefix("windows-") && !name.contains("gzip")
      && !name.contains("delta")
    {
      let table = try ParquetTable.decode(try bytes("Corpus/parquet/\(name)"), file: name)
      XCTAssertEqual(table.rowCount, 7, name)
    }
  }

  /// Found by review, confirmed on the app-file target: times 1e-300 s apart, then steps of
  /// 0.2 s that the gap rule bridges, made a typical step of 1e-300 s, and counting the common
  /// clock over the bridged 0.2 s trapped converting 2e299 to Int. The rate is now checked
  /// first.
  func testStepsOf1e300BridgedByTheGapFloor_AreARateErrorNotATrap() throws {
    let input = try bytes("Regressions/app-file/tiny-steps-bridged.csv")
    XCTAssertNil(FuzzTargets.loadAppFile(input))
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("tiny.csv").path
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(input.dropFirst())))
    XCTAssertThrowsError(try AppExport.read(path: path, label: "walking")) { error in
      XCTAssertTrue("\(error)".contains("is outside 0.1...10000 Hz"), "\(error)")
    }
  }
}
