import Foundation
import MotusModels
import MotusTraining
import XCTest

/// Pins the exact bytes of small models trained on synthetic (generated) labelled data: any
/// change to the arithmetic of training, calibration or encoding changes the file's trailing
/// CRC-32. A deliberate change of results must re-record these literals. Each also pins the file
/// without its class statistics, which must keep the bytes recorded before training stored them.
final class ModelDigestTests: XCTestCase {
  /// Size and trailing CRC-32 of the model file written for `options` (without the class
  /// statistics when `statistics` is false: the bytes a file had before it stored them).
  private func writtenFileDigest(_ options: TrainingOptions, statistics: Bool = true) throws
    -> (size: Int, crc: UInt32)
  {
    let data = Synthetic.blobs(separation: 3, noise: 1.5, seed: 8)
    var (model, _) = try Trainer.train(
      features: data.x, labels: data.labels, groups: data.groups, classNames: ["a", "b", "c"],
      spec: Synthetic.spec, options: options)
    // The version string is in the header; pin it so a release does not move the digest.
    model.metadata.motusVersion = "pinned"
    // Calibration ran, so temperature fitting is pinned too.
    XCTAssertNotEqual(model.temperature, 1)
    XCTAssertNotNil(model.classStatistics)
    if !statistics { model.classStatistics = nil }
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("motus-digest-\(ProcessInfo.processInfo.processIdentifier).motus")
    defer { try? FileManager.default.removeItem(at: url) }
    try ModelFile.write(model, to: url)
    let bytes = [UInt8](try Data(contentsOf: url))
    let crc = bytes.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    return (bytes.count, crc)
  }

  /// The file written for `options` has `size` bytes and CRC-32 `crc` (hex), and without its
  /// class statistics the size and CRC recorded before training stored them.
  private func assertPinned(
    _ options: TrainingOptions, size: Int, crc: String,
    withoutStatistics before: (size: Int, crc: String), line: UInt = #line
  ) throws {
    let digest = try writtenFileDigest(options)
    XCTAssertEqual(digest.size, size, line: line)
    XCTAssertEqual(String(digest.crc, radix: 16), crc, line: line)
    let stripped = try writtenFileDigest(options, statistics: false)
    XCTAssertEqual(stripped.size, before.size, line: line)
    XCTAssertEqual(String(stripped.crc, radix: 16), before.crc, line: line)
  }

  private func options(_ kind: ModelFamily, _ solver: LogisticRegression.Solver)
    -> TrainingOptions
  {
    var options = TrainingOptions()
    options.model = Synthetic.model(kind, solver: solver, hidden: [8], maxEpochs: 30)
    options.seed = 7
    return options
  }

  func testSyntheticLogisticLBFGS_ModelFileDigestIsPinned() throws {
    try assertPinned(
      options(.logistic, .lbfgs), size: 1723, crc: "67dfcdd3", withoutStatistics: (1402, "60cb12f6"))
  }

  /// Balanced weights are `balanced^1`: without statistics, the bytes recorded before the power
  /// existed.
  func testSyntheticLogisticLBFGS_BalancedWeightsKeepTheirDigest() throws {
    var balanced = options(.logistic, .lbfgs)
    balanced.model.shared.classWeighting = .balanced
    try assertPinned(
      balanced, size: 1719, crc: "32bdca62", withoutStatistics: (1398, "8bcc5f11"))
  }

  func testSyntheticLogisticAdam_ModelFileDigestIsPinned() throws {
    try assertPinned(
      options(.logistic, .adam), size: 1790, crc: "def091e4", withoutStatistics: (1469, "fd366965"))
  }

  func testSyntheticMLP_ModelFileDigestIsPinned() throws {
    try assertPinned(
      options(.mlp, .adam), size: 2303, crc: "a485f08a", withoutStatistics: (1724, "f4e29f06"))
  }
}
