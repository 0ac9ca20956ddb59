// Manifest `negativeLabels` (activities that are none of the classes) and a source's
// `placementSeparator`, on small labelled synthetic CSV files.

import Foundation
@testable import MotusIngest
import MotusTestSupport
import XCTest

@testable import MotusData

final class ManifestNegativesTests: TemporaryFolderTestCase {

  override func setUpWithError() throws {
    try super.setUpWithError()
    let header = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    // Labelled synthetic: a source without placements, 3 s per session at 10 Hz.
    var plain = header
    for (session, label) in [("w1", "walk"), ("s1", "sit")] {
      for t in 0..<30 { plain += "\(Double(t) / 10),\(session),1,\(label),0,0,1\n" }
    }
    try writeFile("plain.csv", plain)
    // Labelled synthetic: one activity per session recorded at three placements (the session
    // name ends in _T, _RA or _LL); a12 and a13 are activities outside the classes. The LL
    // session of a09 has a 7 s gap, so it loads as two pieces, the second named `...#2`;
    // session x9 has no separator.
    var placed = header
    for (session, label) in [
      ("a09_p1_T", "a09"), ("a09_p1_RA", "a09"), ("a12_p1_T", "a12"), ("a13_p1_RA", "a13"),
      ("x9", "a09"),
    ] {
      for t in 0..<30 { placed += "\(Double(t) / 10),\(session),p1,\(label),1,0,0\n" }
    }
    for t in 0..<60 {
      let time = Double(t) / 10 + (t >= 30 ? 7 : 0)
      placed += "\(time),a09_p1_LL,p1,a09,0,1,0\n"
    }
    try writeFile("placed.csv", placed)
  }

  private func writeFile(_ path: String, _ text: String) throws {
    try text.write(to: folder.appendingPathComponent(path), atomically: true, encoding: .utf8)
  }

  private func manifest(_ json: String) throws -> String {
    let path = folder.appendingPathComponent("m.json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  private let valid = """
    { "dataRoot": ".", "sampleRateHz": 10,
      "channels": ["acceleration.x", "acceleration.y", "acceleration.z"],
      "labels": ["walking", "stationary"],
      "negativeLabels": ["other"],
      "sources": [
        { "name": "plain", "files": ["plain.csv"], "channels": ["acceleration.*"],
          "labels": {"walk": "walking", "sit": "stationary"} },
        { "name": "dsads", "files": ["placed.csv"], "channels": ["acceleration.*"],
          "labels": {"a09": "walking", "a12": "other", "a13": "other"},
          "placementSeparator": "_" }
      ] }
    """

  // MARK: Negative labels

  func testNegativeLabels_LoadAsLabelsAndAreMarkedNegative() throws {
    let loaded = try DatasetLoader.load(manifest: manifest(valid))
    XCTAssertEqual(loaded.manifest?.vocabulary, ["walking", "stationary", "other"])
    let dataset = loaded.result.dataset
    XCTAssertEqual(dataset.labels, ["walking", "stationary", "other"])
    XCTAssertEqual(dataset.negativeLabels, ["other"])
    XCTAssertEqual(dataset.classLabels, ["walking", "stationary"])
    XCTAssertEqual((0..<3).map { dataset.isNegative(labelIndex: $0) }, [false, false, true])
    XCTAssertFalse(dataset.isNegative(labelIndex: -1))
    XCTAssertFalse(dataset.isNegative(labelIndex: 3))
    // Both source activities outside the classes map into the negative label.
    let other = dataset.recordings.filter { $0.labelIndices.first == 2 }
    XCTAssertEqual(Set(other.map(\.session)), ["dsads:a12_p1_T", "dsads:a13_p1_RA"])
    XCTAssertTrue(other.allSatisfy { $0.labelIndices.allSatisfy { $0 == 2 } })
  }

  func testNegativeLabels_WithoutSamplesAreNotInTheDataset() throws {
    let json = valid.replacingOccurrences(
      of: "\"negativeLabels\": [\"other\"]", with: "\"negativeLabels\": [\"other\", \"rowing\"]")
    let dataset = try DatasetLoader.load(manifest: manifest(json)).result.dataset
    XCTAssertEqual(dataset.labels, ["walking", "stationary", "other"])
    XCTAssertEqual(dataset.negativeLabels, ["other"])
  }

  func testNoNegativeLabels_DatasetHasNone() throws {
    let json = valid.replacingOccurrences(of: "\"negativeLabels\": [\"other\"],", with: "")
      .replacingOccurrences(of: ", \"a12\": \"other\", \"a13\": \"other\"", with: "")
    let dataset = try DatasetLoader.load(manifest: manifest(json)).result.dataset
    XCTAssertEqual(dataset.negativeLabels, [])
    XCTAssertEqual(dataset.classLabels, dataset.labels)
    XCTAssertFalse(dataset.isNegative(labelIndex: 0))
  }

  func testNegativeLabels_ErrorsNameTheKey() throws {
    // A repeated negative label, and a negative label that is also a class.
    let negatives = "\"negativeLabels\": [\"other\"]"
    for list in ["[\"other\", \"other\"]", "[\"other\", \"walking\"]"] {
      try assertError(
        valid.replacingOccurrences(of: negatives, with: "\"negativeLabels\": \(list)"),
        mentions: "negativeLabels")
    }
    // A source label mapped into neither list names both lists and the choices.
    let path = try manifest(
      valid.replacingOccurrences(of: "\"a13\": \"other\"", with: "\"a13\": \"rowing\""))
    XCTAssertThrowsError(try DatasetLoader.load(manifest: path)) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("'sources[1].labels.a13'"), text)
      XCTAssertTrue(text.contains("labels or negativeLabels"), text)
      XCTAssertTrue(text.contains("use one of walking, stationary, other"), text)
    }
    // Without negativeLabels, mapping into `other` is an error.
    try assertError(
      valid.replacingOccurrences(of: "\"negativeLabels\": [\"other\"],", with: ""),
      mentions: "sources[1].labels.a12")
  }

  // MARK: Placements

  func testPlacement_IsTheTextAfterTheLastSeparator() throws {
    let loaded = try DatasetLoader.load(manifest: manifest(valid))
    var placements: [String: String?] = [:]
    for r in loaded.result.dataset.recordings {
      placements.updateValue(loaded.placement(of: r), forKey: r.session)
    }
    XCTAssertEqual(
      placements,
      [
        "dsads:a09_p1_T": "T", "dsads:a09_p1_RA": "RA", "dsads:a12_p1_T": "T",
        "dsads:a13_p1_RA": "RA", "dsads:a09_p1_LL": "LL", "dsads:a09_p1_LL#2": "LL",
        "dsads:x9": nil, "plain:w1": nil, "plain:s1": nil,
      ])
  }

  func testPlacement_OtherSeparatorsAndEdgeCases() throws {
    let result = try DatasetLoader.load(manifest: manifest(valid))
    func placement(_ session: String, separator: String?, source: String = "dsads") -> String? {
      var loaded = result
      loaded.manifest?.sources[1].placementSeparator = separator
      let r = Recording(
        session: session, subject: "\(source):p1", source: source, timestamps: [0],
        columns: [[0], [0], [0]], labelIndices: [0], sampleRateHz: 10)
      return loaded.placement(of: r)
    }
    XCTAssertEqual(placement("dsads:a01-p2-wrist", separator: "-"), "wrist")
    XCTAssertEqual(placement("dsads:a01::chest#3", separator: "::"), "chest")
    XCTAssertNil(placement("dsads:a01_", separator: "_"), "nothing after the separator")
    XCTAssertNil(placement("dsads:a01_T", separator: nil), "the source declares no placements")
    XCTAssertNil(placement("plain:a01_T", separator: "_", source: "plain"))
  }

  func testPlacementSeparator_EmptyIsRejected() throws {
    try assertError(
      valid.replacingOccurrences(
        of: "\"placementSeparator\": \"_\"", with: "\"placementSeparator\": \"\""),
      mentions: "sources[1].placementSeparator")
  }

  // MARK: Helpers

  private func assertError(
    _ json: String, mentions key: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    XCTAssertNotEqual(json, valid, "the replacement matched nothing", file: file, line: line)
    let path = try manifest(json)
    XCTAssertThrowsError(try DatasetLoader.load(manifest: path), file: file, line: line) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains(path), "no file in: \(text)", file: file, line: line)
      XCTAssertTrue(text.contains("'\(key)'"), "no key \(key) in: \(text)", file: file, line: line)
      XCTAssertTrue(text.contains("HINT"), "no hint in: \(text)", file: file, line: line)
    }
  }
}
