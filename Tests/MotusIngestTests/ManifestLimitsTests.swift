// Manifests from elsewhere: source paths stay inside the data root, values have bounds, and
// errors give the line and column of the key at fault.

import Foundation
@testable import MotusIngest
import MotusTestSupport
import XCTest

@testable import MotusData

final class ManifestLimitsTests: TemporaryFolderTestCase {

  override func setUpWithError() throws {
    try super.setUpWithError()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("root/a"), withIntermediateDirectories: true)
    var csv = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    for t in 0..<40 { csv += "\(Double(t) / 10),s1,1,walk,0,0,1\n" }
    try csv.write(
      to: folder.appendingPathComponent("root/a/a.csv"), atomically: true, encoding: .utf8)
    // A file beside the data root, as /etc/passwd would be.
    try "root:x:0:0:root:/root:/bin/bash\n".write(
      to: folder.appendingPathComponent("secret.csv"), atomically: true, encoding: .utf8)
  }


  private func manifest(files: [String], rate: String = "10", weight: String = "1") throws
    -> String
  {
    let list = files.map { "\"\($0)\"" }.joined(separator: ", ")
    let json = """
      { "dataRoot": "root", "sampleRateHz": \(rate),
        "channels": ["acceleration.x", "acceleration.y", "acceleration.z"],
        "labels": ["walking"],
        "sources": [
          { "name": "a", "files": [\(list)], "channels": ["acceleration.*"],
            "labels": {"walk": "walking"}, "weight": \(weight) }
        ] }
      """
    let path = folder.appendingPathComponent("m.json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func testSourcePaths_OutsideTheDataRootAreRefusedUnreadUnlessAllowed() throws {
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("root/a/link.csv"),
      withDestinationURL: folder.appendingPathComponent("secret.csv"))
    let cases = [
      ("../secret.csv", "climbs out of the data root"),
      ("a/../../secret.csv", "climbs out of the data root"),
      (folder.appendingPathComponent("secret.csv").path, "is an absolute path"),
      ("a/link.csv", "leads out of the data root through a symbolic link"),
    ]
    for (file, why) in cases {
      let path = try manifest(files: [file])
      XCTAssertThrowsError(try DatasetLoader.load(manifest: path)) { error in
        let text = "\(error)"
        XCTAssertTrue(text.contains("'sources[0].files[0]'") && text.contains(why), text)
        XCTAssertTrue(text.contains("--allow-outside-data-root"), text)
        XCTAssertFalse(text.contains("root:x:0:0"), "the file is never read: \(text)")
      }
      // Allowed, the file is read (and is no data file, which the loader then says).
      XCTAssertThrowsError(try DatasetLoader.load(manifest: path, allowOutsideDataRoot: true)) {
        error in
        XCTAssertFalse("\(error)".contains("outside"), "\(error)")
      }
    }
    XCTAssertNoThrow(try DatasetLoader.load(manifest: try manifest(files: ["a/./a.csv"])))
  }

  func testValues_OutOfBoundsNameTheKeyItsPositionAndTheLimit() throws {
    let rate = try manifest(files: ["a/a.csv"], rate: "1e308")
    XCTAssertThrowsError(try Manifest.read(rate)) { error in
      let text = "\(error)"
      XCTAssertTrue(text.hasPrefix("\(rate):1:39: key 'sampleRateHz': 1e+308 Hz"), text)
      XCTAssertTrue(text.contains("0.1...10000.0 Hz"), text)
    }
    let weight = try manifest(files: ["a/a.csv"], weight: "1e9")
    XCTAssertThrowsError(try Manifest.read(weight)) { error in
      XCTAssertTrue("\(error)".contains(":6:48: key 'sources[0].weight'"), "\(error)")
      XCTAssertTrue("\(error)".contains("largest relative weight"), "\(error)")
    }
  }

  func testJSONErrors_GiveLineAndColumn() throws {
    let path = folder.appendingPathComponent("bad.json").path
    try "{ \"sampleRateHz\": 10,\n  \"channels\": [\"x\" \"y\"] }".write(
      toFile: path, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try Manifest.read(path)) { error in
      XCTAssertTrue(
        "\(error)".hasPrefix("\(path):2:20: key '(top)': not valid JSON: expected ',' or ']'"),
        "\(error)")
    }
    let typed = try manifest(files: ["a/a.csv"], weight: "\"heavy\"")
    XCTAssertThrowsError(try Manifest.read(typed)) { error in
      XCTAssertTrue("\(error)".contains("m.json:6:48: key 'sources[0].weight'"), "\(error)")
    }
    let utf16 = folder.appendingPathComponent("utf16.json").path
    try Data([0xFF, 0xFE, 0x7B, 0, 0x7D, 0]).write(to: URL(fileURLWithPath: utf16))
    XCTAssertThrowsError(try Manifest.read(utf16)) { error in
      XCTAssertTrue("\(error)".contains("UTF-16"), "\(error)")
    }
  }

  func testLocator_FindsNestedValuesAndSurvivesDeepNesting() {
    let json = Array("{\"a\": [1, {\"b\": \"x\"}],\n \"c\": {\"d\": [true, null, -2.5e3]}}".utf8)
    func at(_ text: String) -> String? {
      JSONKeyPath(text).flatMap { JSONLocator.position(of: $0.keys, in: json) }?.description
    }
    XCTAssertEqual(at("a[1].b"), "1:17")
    XCTAssertEqual(at("c.d[2]"), "2:26")
    XCTAssertEqual(at("c.missing"), "2:7", "a missing key points at its object")
    XCTAssertNil(JSONLocator.syntaxError(in: json))
    let deep = Array((String(repeating: "[", count: 100_000)).utf8)
    XCTAssertEqual(JSONLocator.syntaxError(in: deep)?.reason, "nested more than 256 levels deep")
  }
}
