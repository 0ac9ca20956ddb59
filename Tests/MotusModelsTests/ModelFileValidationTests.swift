// Model files from elsewhere: every header value is range-checked before anything is
// allocated from it, sizes are overflow-checked, a changed byte breaks the checksum, and the
// files of the previous version (the two in models/ among them) keep loading.

import Foundation
import MotusData
import MotusFeatures
import MotusModels
import XCTest

final class ModelFileValidationTests: XCTestCase {
  /// The header of `model`'s file as JSON, edited by `change`, sealed again as the writer does.
  private func edited(
    _ change: (inout [String: Any]) -> Void, model: TrainedModel = Examples.mlpModel
  ) throws -> Data {
    let bytes = [UInt8](try ModelFile.encode(model))
    let headerLength =
      Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
    var header = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(bytes[16..<(16 + headerLength)]))
        as? [String: Any])
    change(&header)
    let json = [UInt8](try JSONSerialization.data(withJSONObject: header, options: .sortedKeys))
    var out = Array(bytes[0..<12])
    withUnsafeBytes(of: UInt32(json.count).littleEndian) { out.append(contentsOf: $0) }
    out += json + bytes[(16 + headerLength)..<(bytes.count - 4)]
    withUnsafeBytes(of: ModelFile.checksum(out).littleEndian) { out.append(contentsOf: $0) }
    return Data(out)
  }

  private func assertRejected(
    _ data: Data, mentioning text: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try ModelFile.decode(data, file: "bad.motus"), file: file, line: line) {
      error in
      let message = "\(error)"
      XCTAssertTrue(message.hasPrefix("bad.motus: "), message, file: file, line: line)
      XCTAssertTrue(message.contains(text), message, file: file, line: line)
      XCTAssertTrue(message.contains("HINT:"), message, file: file, line: line)
      XCTAssertLessThan(message.count, 800, "bounded", file: file, line: line)
    }
  }

  private func spec(_ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any])
    -> Void
  {
    { header in
      var spec = header["featureSpec"] as? [String: Any] ?? [:]
      change(&spec)
      header["featureSpec"] = spec
    }
  }

  func testHeader_ImpossibleWindowsAndRatesAreRefusedBeforeAllocation() throws {
    assertRejected(
      try edited(spec { $0["windowLength"] = 1 << 40 }), mentioning: "longer than 65536")
    assertRejected(try edited(spec { $0["windowLength"] = 0 }), mentioning: "must be positive")
    assertRejected(try edited(spec { $0["hopLength"] = 500 }), mentioning: "hop must be in")
    assertRejected(
      try edited(spec { $0["sampleRateHz"] = 1e300 }), mentioning: "outside 0.1...10000.0 Hz")
    assertRejected(
      try edited(spec { $0["statistics"] = Array(repeating: "mean", count: 70_000) }),
      mentioning: "more than 65536 per window")
  }

  func testHeader_TensorOfTwoToThe56RowsIsRefusedWithoutAllocating() throws {
    func hidden(_ width: Int) throws -> Data {
      try edited { header in
        header["tensors"] = [
          ["name": "layers.0.weight", "shape": [width, 3]],
          ["name": "layers.0.bias", "shape": [width]],
          ["name": "layers.1.weight", "shape": [4, width]],
          ["name": "layers.1.bias", "shape": [4]],
          ["name": "layers.2.weight", "shape": [3, 4]], ["name": "layers.2.bias", "shape": [3]],
        ]
      }
    }
    XCTAssertThrowsError(try ModelFile.decode(try hidden(1 << 56), file: "bad.motus")) { error in
      guard case .truncated(_, let expected, _)? = error as? ModelFileError else {
        return XCTFail("\(error)")
      }
      XCTAssertGreaterThan(expected, 1 << 60)
    }
    assertRejected(try hidden(1 << 62), mentioning: "tensor sizes overflow")
  }

  func testHeader_DuplicateClassesAndOutOfRangeProbabilitiesAreRefused() throws {
    assertRejected(
      try edited { $0["classes"] = ["sit", "walk", "sit"] }, mentioning: "'sit' is listed twice")
    assertRejected(try edited { $0["unknownThreshold"] = 5 }, mentioning: "unknown threshold 5")
    assertRejected(try edited { $0["temperature"] = 0 }, mentioning: "temperature 0")
    assertRejected(
      try edited { $0["confidenceCutoffs"] = ["medium": 0.9, "high": 0.5] },
      mentioning: "confidence cut-offs")
    assertRejected(
      try edited { $0["standardizer"] = ["mean": [0, 0, 0], "scale": [1, -1, 1]] },
      mentioning: "scales finite and positive")
    // A cut-off above 1 is what training writes for a level it never gives: valid.
    XCTAssertNoThrow(
      try ModelFile.decode(
        try edited { $0["confidenceCutoffs"] = ["medium": 0.5, "high": 1.0000001] }, file: "ok"))
  }

  func testHeader_DeeplyNestedJSONIsRefusedWithItsPosition() throws {
    let header = Array((String(repeating: "[", count: 100_000)).utf8)
    var bytes = Array("MOTUSMDL".utf8) + [1, 0, 0, 0]
    withUnsafeBytes(of: UInt32(header.count).littleEndian) { bytes.append(contentsOf: $0) }
    bytes += header
    assertRejected(Data(bytes), mentioning: "header JSON at 1:257: nested more than 256 levels")
  }

  func testFlippedBit_IsAChecksumErrorNamingTheFile() throws {
    let bytes = [UInt8](try ModelFile.encode(Examples.mlpModel))
    // In the header, in a tensor, in the checksum itself.
    for position in [40, bytes.count / 2, bytes.count - 10, bytes.count - 1] {
      var damaged = bytes
      damaged[position] ^= 0x08
      XCTAssertThrowsError(try ModelFile.decode(Data(damaged), file: "m.motus"), "\(position)") {
        error in
        XCTAssertEqual(error as? ModelFileError, .checksumMismatch(file: "m.motus"))
        XCTAssertTrue("\(error)".contains("HINT: copy the file again"), "\(error)")
      }
    }
  }

  func testNonFiniteWeights_AreRefused() throws {
    var bytes = [UInt8](try ModelFile.encode(Examples.logisticModel))
    // The first weight of the first layer is the first float after the header.
    let headerLength =
      Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
    withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) {
      bytes.replaceSubrange((16 + headerLength)..<(20 + headerLength), with: $0)
    }
    bytes.removeLast(4)
    withUnsafeBytes(of: ModelFile.checksum(bytes).littleEndian) { bytes.append(contentsOf: $0) }
    assertRejected(Data(bytes), mentioning: "NaN or infinite weights")
  }

  func testVersion1Files_KeepLoadingAndAreWrittenAsVersion2() throws {
    let v2 = [UInt8](try ModelFile.encode(Examples.mlpModel))
    var v1 = Array(v2.dropLast(4))
    v1[8] = 1
    let model = try ModelFile.decode(Data(v1), file: "old.motus")
    XCTAssertEqual(model, Examples.mlpModel)
    XCTAssertEqual([UInt8](try ModelFile.encode(model)), v2)
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    for name in ["six-class", "motionsense-device-motion"] {
      let path = repo.appendingPathComponent("models/\(name).motus").path
      let shipped = try ModelFile.read(path: path)
      let version = FileManager.default.contents(atPath: path).map { $0[8] }
      XCTAssertTrue(version == 1 || version == 2, "\(name): version \(String(describing: version))")
      XCTAssertFalse(shipped.classes.isEmpty)
    }
  }

  func testRead_FolderAndMissingFileSayWhy() {
    XCTAssertThrowsError(try ModelFile.read(path: "/tmp")) { error in
      XCTAssertEqual(
        error as? ModelFileError,
        .unreadable(file: "/tmp", reason: "it is a folder, not a file"))
    }
    XCTAssertThrowsError(try ModelFile.read(path: "/nonexistent/m.motus")) { error in
      XCTAssertTrue("\(error)".contains("No such file or directory"), "\(error)")
    }
  }
}
