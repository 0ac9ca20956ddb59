// `motus export` end to end with the shipped six-class model, on SYNTHETIC recordings
// (MotusSimulation) for the parity sample.

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class ExportCommandTests: TemporaryFolderTestCase {
  private static var sixClass: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
  }

  /// SYNTHETIC walking at 50 Hz for `seconds`, with acceleration = gravity + userAcceleration
  /// derived by the loader.
  private func walking(seconds: Double) throws -> String {
    var simulator = ActivitySimulator(seed: 3, sampleRateHz: 50)
    let text = simulator.recording(.walking, subject: 1, seconds: seconds).csv(includeHeader: true)
    return try write(text, "walk.csv")
  }

  func testExport_WritesTheModelAndAParitySampleAtTheModelsRate() throws {
    let onnx = folder.appendingPathComponent("six.onnx").path
    let parity = folder.appendingPathComponent("parity").path
    let run = try MotusRunner.run([
      "export", Self.sixClass, "-o", onnx, try walking(seconds: 30), "--parity-output", parity,
      "--parity-windows", "5",
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: onnx)))
    XCTAssertEqual(Array(bytes.prefix(2)), [0x08, 0x08])  // field 1 (ir_version) = 8
    XCTAssertTrue(run.standardError.contains("acceleration.x, acceleration.y, acceleration.z"))
    XCTAssertTrue(run.standardError.contains("wrote 5 windows of the data"), run.standardError)
    // 77 samples of 3 columns per window, float32, after an aligned header.
    let windows = try Data(contentsOf: URL(fileURLWithPath: parity + "/windows.npy"))
    let header = String(decoding: windows.prefix(128), as: UTF8.self)
    XCTAssertTrue(header.contains("'shape': (5, 77, 3)"), header)
    let probabilities = try Data(contentsOf: URL(fileURLWithPath: parity + "/probabilities.npy"))
    XCTAssertTrue(String(decoding: probabilities.prefix(128), as: UTF8.self).contains("(5, 7)"))
  }

  func testExport_ParityReadsUnlabelledRecordings() throws {
    // SYNTHETIC: 10 s of a 2 Hz bounce at 15 Hz, with no label column.
    var text = "timestamp,acceleration.x,acceleration.y,acceleration.z\n"
    for t in 0..<150 {
      let s = Double(t) / 15
      text += "\(s),0.1,\(-1 + 0.3 * sin(2 * Double.pi * 2 * s)),0.05\n"
    }
    let run = try MotusRunner.run([
      "export", Self.sixClass, "-o", folder.appendingPathComponent("six.onnx").path,
      try write(text, "unlabelled.csv"), "--parity-output",
      folder.appendingPathComponent("parity").path,
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(run.standardError.contains("wrote 3 windows of the data"), run.standardError)
  }

  func testExport_AFailedParitySampleLeavesEarlierOutputsIntact() throws {
    let onnx = try write("earlier", "six.onnx")
    let run = try MotusRunner.run([
      "export", Self.sixClass, "-o", onnx, try walking(seconds: 2),
      "--parity-output", folder.appendingPathComponent("parity").path,
    ])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("no window of 77 samples"), run.standardError)
    XCTAssertEqual(try String(contentsOfFile: onnx, encoding: .utf8), "earlier")
  }

  func testExport_TheModelAndTheParityFilesAreDeclaredToEachOther() throws {
    let data = try walking(seconds: 30)
    let parity = folder.appendingPathComponent("parity").path
    for onnx in [parity + "/windows.npy", parity + "/../parity/features.npy", parity] {
      let run = try MotusRunner.run([
        "export", Self.sixClass, "-o", onnx, data, "--parity-output", parity,
        "--parity-windows", "5",
      ])
      XCTAssertEqual(run.exitCode, 1, onnx)
      XCTAssertTrue(run.standardError.contains("it is also the output"), run.standardError)
      let written = (try? FileManager.default.contentsOfDirectory(atPath: parity)) ?? []
      XCTAssertEqual(written, [], "\(onnx): nothing written")
    }
    // Once the folder holds a sample, the same file by inode.
    let first = try MotusRunner.run([
      "export", Self.sixClass, "-o", folder.appendingPathComponent("six.onnx").path, data,
      "--parity-output", parity, "--parity-windows", "5",
    ])
    XCTAssertEqual(first.exitCode, 0, first.standardError)
    let windows = try Data(contentsOf: URL(fileURLWithPath: parity + "/windows.npy"))
    let again = try MotusRunner.run([
      "export", Self.sixClass, "-o", parity + "/windows.npy", data, "--parity-output", parity,
    ])
    XCTAssertEqual(again.exitCode, 1, again.standardError)
    XCTAssertTrue(again.standardError.contains("it is also the output"), again.standardError)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: parity + "/windows.npy")), windows)
  }

  func testExport_FlagsThatDoNotGoTogetherAreRefusedByName() throws {
    let onnx = folder.appendingPathComponent("six.onnx").path
    let noData = try MotusRunner.run([
      "export", Self.sixClass, "-o", onnx, "--parity-output", folder.path,
    ])
    XCTAssertNotEqual(noData.exitCode, 0)
    XCTAssertTrue(
      noData.standardError.contains("'--parity-output' needs data"), noData.standardError)
    let noFolder = try MotusRunner.run([
      "export", Self.sixClass, "-o", onnx, try walking(seconds: 5),
    ])
    XCTAssertNotEqual(noFolder.exitCode, 0)
    XCTAssertTrue(
      noFolder.standardError.contains("without '--parity-output'"), noFolder.standardError)
    let overwrite = try MotusRunner.run(["export", Self.sixClass, "-o", Self.sixClass])
    XCTAssertNotEqual(overwrite.exitCode, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: onnx))
  }
}
