// Model files and the unknown answers: negative classes and the novelty detector survive a
// round trip, files without them keep their header keys, and inconsistent ones are rejected.

import Foundation
import MotusLinearAlgebra
import MotusModels
import XCTest

final class ModelFileUnknownTests: XCTestCase {
  private func headerLength(_ bytes: [UInt8]) -> Int {
    Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
  }

  private func header(_ model: TrainedModel) throws -> [String: Any] {
    let bytes = [UInt8](try ModelFile.encode(model))
    let json = Data(bytes[16..<(16 + headerLength(bytes))])
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: json) as? [String: Any])
  }

  /// The file of `model` with its JSON header edited by `edit`, checksum recomputed, so that
  /// only the header checks can refuse it.
  private func edited(_ model: TrainedModel, _ edit: (inout [String: Any]) -> Void) throws -> Data {
    let bytes = [UInt8](try ModelFile.encode(model))
    let length = headerLength(bytes)
    var object = try header(model)
    edit(&object)
    let json = [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    var out = Array(bytes[0..<12])
    withUnsafeBytes(of: UInt32(json.count).littleEndian) { out.append(contentsOf: $0) }
    out += json + bytes[(16 + length)..<(bytes.count - 4)]
    withUnsafeBytes(of: ModelFile.checksum(out).littleEndian) { out.append(contentsOf: $0) }
    return Data(out)
  }

  func testRoundTrip_KeepsNegativeClassesAndNovelty() throws {
    var infinite = Examples.unknownModel
    infinite.novelty?.threshold = .infinity
    for model in [Examples.unknownModel, infinite] {
      let data = try ModelFile.encode(model)
      let loaded = try ModelFile.decode(data, file: "m.motus")
      XCTAssertEqual(loaded, model)
      XCTAssertEqual(loaded.negativeClasses, ["other"])
      XCTAssertEqual(loaded.novelty, model.novelty)
      XCTAssertEqual(try ModelFile.encode(loaded), data, "re-encoding is stable")
      let x = Matrix(rows: [[2, 0, 0], [0, 2, 0], [0, 4, 0]])
      XCTAssertEqual(loaded.predict(x), model.predict(x))
    }
    let text = try header(Examples.unknownModel)
    XCTAssertEqual(text["negativeClasses"] as? [String], ["other"])
    let novelty = try XCTUnwrap(text["novelty"] as? [String: Any])
    XCTAssertEqual(
      Set(novelty.keys), ["mean", "components", "variances", "residualVariance", "threshold"])
  }

  func testModelWithoutThem_HeaderHasTheKeysItHadBefore() throws {
    for model in [Examples.logisticModel, Examples.mlpModel] {
      XCTAssertEqual(
        Set(try header(model).keys),
        [
          "classes", "confidenceCutoffs", "featureSpec", "kind", "metadata", "standardizer",
          "temperature", "tensors", "unknownThreshold",
        ])
      // An empty negative-class list is not written either.
      var empty = model
      empty.negativeClasses = []
      XCTAssertEqual(try ModelFile.encode(empty), try ModelFile.encode(model))
      XCTAssertEqual(try ModelFile.decode(try ModelFile.encode(model), file: "m").novelty, nil)
    }
  }

  private func assertMalformed(
    _ edit: (inout [String: Any]) -> Void, mentions words: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let data = try edited(Examples.unknownModel, edit)
    XCTAssertThrowsError(try ModelFile.decode(data, file: "bad.motus"), file: file, line: line) {
      error in
      guard case .malformedHeader(let name, let reason)? = error as? ModelFileError else {
        return XCTFail("expected malformedHeader, got \(error)", file: file, line: line)
      }
      XCTAssertEqual(name, "bad.motus", file: file, line: line)
      XCTAssertTrue(reason.contains(words), reason, file: file, line: line)
      XCTAssertTrue("\(error)".contains("HINT"), "\(error)", file: file, line: line)
    }
  }

  private func editNovelty(_ key: String, _ value: Any) -> (inout [String: Any]) -> Void {
    { header in
      var novelty = header["novelty"] as? [String: Any] ?? [:]
      novelty[key] = value
      header["novelty"] = novelty
    }
  }

  func testRead_NoveltyShapesThatDisagreeAreMalformed() throws {
    // The model has F = 3 features and one component.
    let cases: [(String, Any)] = [
      ("mean", [0, 0]),  // 2 means for 3 features
      ("components", [1, 0]),  // 2 values for 1 x 3
      ("components", [1, 0, 0, 0, 1, 0]),  // 2 x 3 for one variance
      ("variances", [1, 1]),  // 2 variances for 3 component values
      ("variances", [0]),
      ("variances", [-1]),
      ("residualVariance", 0),
      ("residualVariance", "inf"),
      ("threshold", "nan"),
    ]
    for (key, value) in cases {
      try assertMalformed(editNovelty(key, value), mentions: "novelty detector")
    }
    // An infinite threshold is allowed (never far).
    let open = try edited(Examples.unknownModel, editNovelty("threshold", "inf"))
    XCTAssertEqual(try ModelFile.decode(open, file: "ok.motus").novelty?.threshold, .infinity)
  }

  func testRead_NegativeClassesNotAmongTheClassesAreMalformed() throws {
    try assertMalformed({ $0["negativeClasses"] = ["jumping"] }, mentions: "negativeClasses")
    // Every class negative leaves nothing to name.
    try assertMalformed(
      { $0["negativeClasses"] = ["sit", "walk", "other"] }, mentions: "negativeClasses")
    let fine = try edited(Examples.unknownModel) { $0["negativeClasses"] = ["walk", "other"] }
    XCTAssertEqual(try ModelFile.decode(fine, file: "ok.motus").negativeClasses, ["walk", "other"])
  }
}
