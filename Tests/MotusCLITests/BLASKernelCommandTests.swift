import Foundation
import MotusSimulation
import XCTest

/// `motus` pins OpenBLAS's kernels (MotusBLAS's `BLASKernels`), so a model file does not depend
/// on which x86-64 processor trained it.
final class BLASKernelCommandTests: XCTestCase {
  func testTrain_WritesTheSameModelWhetherOrNotTheKernelsWereChosenBeforeItStarted() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("motus-kernels-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var simulator = ActivitySimulator(seed: 4, sampleRateHz: 50)
    var text = ""
    for subject in 1...3 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: 20)
          .csv(includeHeader: text.isEmpty)
      }
    }
    let data = folder.appendingPathComponent("synthetic.csv").path
    try text.write(toFile: data, atomically: true, encoding: .utf8)
    func train(_ name: String, coreType: String?) throws -> Data {
      let model = folder.appendingPathComponent(name).path
      let run = try MotusRunner.run(
        ["train", data, "--seed", "1", "-o", model],
        environment: ["OPENBLAS_CORETYPE": coreType])
      XCTAssertEqual(run.exitCode, 0, run.standardError)
      return try Data(contentsOf: URL(fileURLWithPath: model))
    }
    // Unset, motus pins the kernels itself; on a processor whose own kernels differ (AVX-512)
    // a motus that did not would write other bytes.
    let chosenByMotus = try train("unset.motus", coreType: nil)
    let pinned = try train("pinned.motus", coreType: "Haswell")
    XCTAssertEqual(chosenByMotus, pinned)
  }
}
