import Foundation
import MotusLinearAlgebra
import MotusModels
import MotusTestSupport
import XCTest

final class ModelFileTests: XCTestCase {
  var directory: URL!

  override func setUpWithError() throws { directory = try makeTemporaryDirectory() }
  override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

  func testRoundTrip_IdenticalModelAndPredictions() throws {
    for model in [Examples.logisticModel, Examples.mlpModel] {
      let url = directory.appendingPathComponent("m.motus")
      try ModelFile.encode(model).write(to: url)
      let loaded = try ModelFile.read(from: url)
      XCTAssertEqual(loaded, model)
      XCTAssertEqual(
        loaded.predictProbabilities(Examples.inputs).values,
        model.predictProbabilities(Examples.inputs).values)
      XCTAssertEqual(
        try ModelFile.encode(loaded), try ModelFile.encode(model), "re-encoding is stable")
    }
  }

  func testEncode_LayoutStartsWithMagicVersionAndHeaderLength() throws {
    let bytes = [UInt8](try ModelFile.encode(Examples.logisticModel))
    XCTAssertEqual(Array(bytes[0..<8]), Array("MOTUSMDL".utf8))
    XCTAssertEqual(Array(bytes[8..<12]), [2, 0, 0, 0])
    let headerLength =
      Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
    // logistic with F = 3, K = 2: weight 6 + bias 2 floats after the header, then the CRC-32
    XCTAssertEqual(bytes.count, 16 + headerLength + 4 * 8 + 4)
    let header =
      try JSONSerialization.jsonObject(with: Data(bytes[16..<(16 + headerLength)]))
      as? [String: Any]
    XCTAssertEqual(header?["kind"] as? String, "logistic")
    XCTAssertEqual(header?["classes"] as? [String], ["sit", "walk"])
  }

  func testFormatVersion_ReadFromThePreambleAndCheckedAsDecodeChecksIt() throws {
    var bytes = [UInt8](try ModelFile.encode(Examples.logisticModel))
    XCTAssertEqual(try ModelFile.formatVersion(of: Data(bytes), file: "m.motus"), 2)
    bytes[8] = 3
    XCTAssertThrowsError(try ModelFile.formatVersion(of: Data(bytes), file: "m.motus")) {
      XCTAssertEqual(
        $0 as? ModelFileError, .unsupportedVersion(file: "m.motus", version: 3, supported: 1...2))
    }
  }

  func testRead_BadMagicFails() throws {
    let url = directory.appendingPathComponent("notes.txt")
    try Data("timestamp,session,subject,label\n0,a,b,c\n".utf8).write(to: url)
    XCTAssertThrowsError(try ModelFile.read(from: url)) { error in
      XCTAssertEqual(error as? ModelFileError, .badMagic(file: url.path))
      XCTAssertTrue("\(error)".contains(url.path) && "\(error)".contains("HINT"))
    }
  }

  func testRead_FutureVersionFails() throws {
    var bytes = [UInt8](try ModelFile.encode(Examples.logisticModel))
    bytes[8] = 3
    XCTAssertThrowsError(try ModelFile.decode(Data(bytes), file: "future.motus")) { error in
      XCTAssertEqual(
        error as? ModelFileError,
        .unsupportedVersion(file: "future.motus", version: 3, supported: 1...2))
      XCTAssertTrue("\(error)".contains("HINT"))
    }
  }

  func testRead_TruncatedFileFails() throws {
    let bytes = [UInt8](try ModelFile.encode(Examples.mlpModel))
    for cut in [0, 4, 8, 12, 15, 16, 100, bytes.count - 1] {
      XCTAssertThrowsError(
        try ModelFile.decode(Data(bytes[0..<cut]), file: "cut.motus"), "cut \(cut)"
      ) {
        error in
        guard case .truncated(let file, _, let actual) = error as? ModelFileError else {
          return XCTFail("cut \(cut): \(error)")
        }
        XCTAssertEqual(file, "cut.motus")
        XCTAssertEqual(actual, cut)
      }
    }
  }

  func testRead_ShapeMismatchFails() throws {
    // Rewrite the header so the first weight claims 4 inputs where the standardiser has 3.
    let bytes = [UInt8](try ModelFile.encode(Examples.mlpModel))
    let headerLength =
      Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
    let json = String(decoding: bytes[16..<(16 + headerLength)], as: UTF8.self)
    let edited = json.replacingOccurrences(
      of: #"{"name":"layers.0.weight","shape":[5,3]}"#,
      with: #"{"name":"layers.0.weight","shape":[5,4]}"#)
    XCTAssertNotEqual(edited, json, "the header layout changed; update this test")
    let header = Array(edited.utf8)
    var out = Array(bytes[0..<12])
    withUnsafeBytes(of: UInt32(header.count).littleEndian) { out.append(contentsOf: $0) }
    out += header + bytes[(16 + headerLength)..<(bytes.count - 4)]
    Self.seal(&out)
    XCTAssertThrowsError(try ModelFile.decode(Data(out), file: "shape.motus")) { error in
      XCTAssertEqual(
        error as? ModelFileError,
        .shapeMismatch(
          file: "shape.motus", tensor: "layers.0.weight", expected: [5, 3], actual: [5, 4]))
    }
  }

  func testRead_FeatureSpecDisagreeingWithStandardizerFails() throws {
    // Rewrite the header's spec to name a fourth statistic: 4 features vs 3 in the standardiser.
    let bytes = [UInt8](try ModelFile.encode(Examples.logisticModel))
    let headerLength =
      Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
    let json = String(decoding: bytes[16..<(16 + headerLength)], as: UTF8.self)
    let edited = json.replacingOccurrences(
      of: #""statistics":["mean","std","rms"]"#, with: #""statistics":["mean","std","rms","max"]"#)
    XCTAssertNotEqual(edited, json, "the header layout changed; update this test")
    let header = Array(edited.utf8)
    var out = Array(bytes[0..<12])
    withUnsafeBytes(of: UInt32(header.count).littleEndian) { out.append(contentsOf: $0) }
    out += header + bytes[(16 + headerLength)..<(bytes.count - 4)]
    Self.seal(&out)
    XCTAssertThrowsError(try ModelFile.decode(Data(out), file: "spec.motus")) { error in
      XCTAssertEqual(
        error as? ModelFileError,
        .shapeMismatch(file: "spec.motus", tensor: "standardizer", expected: [4], actual: [3]))
    }
  }

  func testRead_TrailingBytesFail() throws {
    var bytes = [UInt8](try ModelFile.encode(Examples.logisticModel))
    bytes += [0, 0, 0, 0]
    XCTAssertThrowsError(try ModelFile.decode(Data(bytes), file: "long.motus")) { error in
      XCTAssertEqual(error as? ModelFileError, .trailingBytes(file: "long.motus", count: 4))
    }
  }

  /// Appends the CRC-32 of `bytes`, as the writer seals a file.
  static func seal(_ bytes: inout [UInt8]) {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
      crc ^= UInt32(b)
      for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
    withUnsafeBytes(of: (crc ^ 0xFFFF_FFFF).littleEndian) { bytes.append(contentsOf: $0) }
  }
}
