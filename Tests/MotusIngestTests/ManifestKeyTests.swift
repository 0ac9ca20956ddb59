// Manifest keys and values that were silently ignored or mangled: a misspelt key (its setting
// left at the default), a weight so small the source vanishes, a NUL character that cuts a
// path short. Each is an error with the key's path, line and column and a hint.

import Foundation
@testable import MotusIngest
import MotusTestSupport
import XCTest

@testable import MotusData

final class ManifestKeyTests: TemporaryFolderTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    var csv = "timestamp,session,subject,label,acceleration.x\n"
    for t in 0..<40 { csv += "\(Double(t) / 10),s1,1,walk,0.5\n" }
    _ = try write(csv, "a.csv")
  }

  /// A valid manifest with `top` added to the top object and `source` to the source object.
  private func manifest(top: String = "", source: String = "", files: String = "\"a.csv\"")
    throws -> String
  {
    let json = """
      { "dataRoot": ".", "sampleRateHz": 10, "channels": ["acceleration.x"],
        "labels": ["walking"],\(top)
        "sources": [
          { "name": "a", "files": [\(files)], "channels": ["acceleration.x"],
            "labels": {"walk": "walking"}\(source) } ] }
      """
    return try write(json, "m.json")
  }

  private func assertError(
    _ path: String, _ parts: [String], file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try DatasetLoader.load(manifest: path), file: file, line: line) { error in
      for part in parts {
        XCTAssertTrue(
          "\(error)".contains(part), "'\(part)' missing: \(error)", file: file, line: line)
      }
    }
  }

  func testUnknownKeys_AreRefusedWithPathPositionAndTheClosestKnownKey() throws {
    assertError(
      try manifest(top: #" "lables": ["walking"],"#),
      ["m.json:2:26: key 'lables': a manifest has no key 'lables'", "did you mean 'labels'?"])
    assertError(
      try manifest(source: #", "negateAccelration": true"#),
      [
        "m.json:5:38: key 'sources[0].negateAccelration'", "did you mean 'negateAcceleration'?",
        "The keys of a source are name, files",
      ])
    assertError(
      try manifest(source: #", "joinClips": {"runSeperator": "_"}"#),
      ["key 'sources[0].joinClips.runSeperator'", "did you mean 'runSeparator'?"])
    // No known key is near: the keys are listed, nothing is guessed.
    let far = try manifest(top: #" "colour": "red","#)
    assertError(far, ["key 'colour'", "HINT: the keys of a manifest are name, description"])
    XCTAssertThrowsError(try DatasetLoader.load(manifest: far)) {
      XCTAssertFalse("\($0)".contains("did you mean"), "\($0)")
    }
    // Two unknown keys: the first in the text is named.
    assertError(
      try manifest(top: #" "zebra": 1, "lables": [],"#), ["key 'zebra'"])
    // Source labels are free names, not keys of the format.
    XCTAssertNoThrow(try DatasetLoader.load(manifest: try manifest()))
  }

  func testKnownKeys_AreExactlyTheKeysTheManifestTypeEncodes() throws {
    let source = Manifest.Source(
      name: "a", files: ["a.csv"], channels: ["x"], negateAcceleration: true,
      labels: ["walk": "walking"], subjects: "1", excludeSubjects: "2",
      joinClips: Manifest.ClipJoin(runSeparator: "_", oneRepetitionPerClip: true), weight: 1,
      placementSeparator: "_", label: "walk", licence: "MIT")
    let manifest = Manifest(
      name: "n", description: "d", dataRoot: ".", sampleRateHz: 10, channels: ["x"],
      labels: ["walking"], negativeLabels: ["other"], sources: [source])
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: JSONEncoder().encode(manifest)) as? [String: Any])
    XCTAssertEqual(Set(object.keys), Set(Manifest.keys))
    let encodedSource = try XCTUnwrap((object["sources"] as? [[String: Any]])?.first)
    XCTAssertEqual(Set(encodedSource.keys), Set(Manifest.sourceKeys))
    let join = try XCTUnwrap(encodedSource["joinClips"] as? [String: Any])
    XCTAssertEqual(Set(join.keys), Set(Manifest.clipJoinKeys))
  }

  func testTinyWeight_IsRefusedWithTheBoundAndWhy() throws {
    for weight in ["1e-300", "0.0009"] {
      assertError(
        try manifest(source: #", "weight": \#(weight)"#),
        [
          "key 'sources[0].weight'", "is below 0.001, the smallest relative weight of a source",
          "all but removes its windows from training", "HINT: ",
        ])
    }
    XCTAssertNoThrow(try DatasetLoader.load(manifest: try manifest(source: #", "weight": 0.001"#)))
  }

  func testNULInAPath_IsAnErrorNotAShorterPath() throws {
    // "a.csv\u0000b.csv" used to read a.csv: the system sees the path up to the NUL.
    assertError(
      try manifest(files: #""a.csv\u0000b.csv""#),
      ["key 'sources[0].files[0]'", "'a.csv\\x00b.csv' holds a NUL character", "HINT: "])
    let root = try write(
      """
      { "dataRoot": ".\\u0000/etc", "sampleRateHz": 10, "channels": ["x"], "labels": ["w"],
        "sources": [ { "name": "a", "files": ["a.csv"], "channels": ["x"], "labels": {"w": "w"} } ] }
      """, "root.json")
    assertError(root, ["key 'dataRoot'", "holds a NUL character"])
  }

  func testSpellingSuggestion_FindsSwapsAndSmallSlipsOnly() {
    XCTAssertEqual(SpellingSuggestion.closest(to: "lables", among: Manifest.keys), "labels")
    XCTAssertEqual(
      SpellingSuggestion.closest(to: "SampleRateHZ", among: Manifest.keys), "sampleRateHz")
    XCTAssertEqual(SpellingSuggestion.closest(to: "datRoot", among: Manifest.keys), "dataRoot")
    XCTAssertNil(SpellingSuggestion.closest(to: "colour", among: Manifest.keys))
    XCTAssertNil(SpellingSuggestion.closest(to: "ab", among: ["xy"]))
    XCTAssertEqual(SpellingSuggestion.editDistance(Array("abcd"), Array("abdc")), 1)
    XCTAssertEqual(SpellingSuggestion.editDistance(Array("kitten"), Array("sitting")), 3)
  }
}
