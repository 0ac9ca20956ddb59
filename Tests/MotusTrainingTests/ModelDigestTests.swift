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

  private func options(_ kind: ModelFamily, _ solver: LogisticRegression.Solver)
    -> TrainingOptions
  {
    var options = TrainingOptions()
    options.model = Synthetic.model(kind, solver: solver, hidden: [8], maxEpochs: 30)
    options.seed = 7
    return options
  }

  func testSyntheticLogisticLBFGS_ModelFileDigestIsPinned() throws {
    let digest = try writtenFileDigest(options(.logistic, .lbfgs))
    XCTAssertEqual(digest.size, 1723)
    XCTAssertEqual(String(digest.crc, radix: 16), "67dfcdd3")
    let before = try writtenFileDigest(options(.logistic, .lbfgs), statistics: false)
    XCTAssertEqual(before.size, 1402)
    XCTAssertEqual(String(before.crc, radix: 16), "60cb12f6")
  }

  /// Balanced weights are `balanced^1`: without statistics, the bytes recorded before the power
  /// existed.
  func testSyntheticLogisticLBFGS_BalancedWeightsKeepTheirDigest() throws {
    var balanced = options(.logistic, .lbfgs)
    balanced.model.shared.classWeighting = .balanced
    let digest = try writtenFileDigest(balanced)
    XCTAssertEqual(digest.size, 1719)
    XCTAssertEqual(String(digest.crc, radix: 16), "32bdca62")
    let before = try writtenFileDigest(balanced, statistics: false)
    XCTAssertEqual(before.size, 1398)
    XCTAssertEqual(String(before.crc, radix: 16), "8bcc5f11")
  }

  func testSyntheticLogisticAdam_ModelFileDigestIsPinned() throws {
    let digest = try writtenFileDigest(options(.logistic, .adam))
    XCTAssertEqual(digest.size, 1790)
    XCTAssertEqual(String(digest.crc, radix: 16), "def091e4")
    let before = try writtenFileDigest(options(.logistic, .adam), statistics: false)
    XCTAssertEqual(before.size, 1469)
    XCTAssertEqual(String(before.crc, radix: 16), "fd366965")
  }

  func testSyntheticMLP_ModelFileDigestIsPinned() throws {
    let digest = try writtenFileDigest(options(.mlp, .adam))
    XCTAssertEqual(digest.size, 2303)
    XCTAssertEqual(String(digest.crc, radix: 16), "a485f08a")
    let before = try writtenFileDigest(options(.mlp, .adam), statistics: false)
    XCTAssertEqual(before.size, 1724)
    XCTAssertEqual(String(before.crc, radix: 16), "f4e29f06")
  }
}
