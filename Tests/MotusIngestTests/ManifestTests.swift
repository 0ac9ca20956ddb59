// Manifest parsing, composition and errors on small labelled synthetic CSV files.

import Foundation
@testable import MotusIngest
import MotusTestSupport
import XCTest

@testable import MotusData

final class ManifestTests: TemporaryFolderTestCase {

  override func setUpWithError() throws {
    try super.setUpWithError()
    // Labelled synthetic: an "Android" source at 20 Hz reading +1 g on z at rest.
    var android = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    for t in 0..<100 {
      let label = t < 50 ? "still" : "walk"
      android += "\(Double(t) / 20),s1,1,\(label),0,0,1\n"
    }
    try writeFile("android/a.csv", android)
    // Labelled synthetic: a device-motion source at 10 Hz (gravity + userAcceleration).
    var motion =
      "timestamp,session,subject,label,userAcceleration.x,userAcceleration.y,"
      + "userAcceleration.z,gravity.x,gravity.y,gravity.z\n"
    for t in 0..<40 { motion += "\(Double(t) / 10),m1,1,sitting,0.5,0,0,0,0,-1\n" }
    try writeFile("motion/m.csv", motion)
    // Labelled synthetic: 3 clips of 8 samples at 10 Hz, one run, plus an unmapped clip.
    var clips = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    for (session, label, value) in [
      ("r1_s02", "pushup_a", 3), ("r1_s00", "pushup_a", 1), ("r1_s01", "pushup_b", 2),
      ("r1_s03", "other", 9),
    ] {
      for t in 0..<8 { clips += "\(Double(t) / 10),\(session),Eric,\(label),\(value),0,0\n" }
    }
    try writeFile("clips/c.csv", clips)
  }

  private func writeFile(_ path: String, _ text: String) throws {
    let url = folder.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  private func manifest(_ json: String) throws -> String {
    let path = folder.appendingPathComponent("m.json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  private let valid = """
    { "dataRoot": ".", "sampleRateHz": 10,
      "channels": ["acceleration.x", "acceleration.y", "acceleration.z", "|acceleration|"],
      "labels": ["stationary", "walking", "push-up"],
      "sources": [
        { "name": "android", "files": ["android/a.csv"], "negateAcceleration": true,
          "channels": ["acceleration.*", "|acceleration|"],
          "labels": {"still": "stationary", "walk": "walking"}, "weight": 2 },
        { "name": "motion", "files": ["motion"], "channels": ["acceleration.*", "|acceleration|"],
          "labels": {"sitting": "stationary"} },
        { "name": "clips", "files": ["clips/c.csv"],
          "channels": ["acceleration.*", "|acceleration|"],
          "labels": {"pushup_a": "push-up", "pushup_b": "push-up"},
          "joinClips": {"runSeparator": "_"} }
      ] }
    """

  func testJoinedClipsOfANegativeLabel_AreNotRepetitionSets() throws {
    let json = valid
      .replacingOccurrences(
        of: "\"labels\": [\"stationary\", \"walking\", \"push-up\"],",
        with: "\"labels\": [\"stationary\", \"walking\", \"push-up\"], "
          + "\"negativeLabels\": [\"rest\"],")
      .replacingOccurrences(
        of: "\"pushup_b\": \"push-up\"}", with: "\"pushup_b\": \"push-up\", \"other\": \"rest\"}")
    let loaded = try DatasetLoader.load(manifest: manifest(json))
    let clips = loaded.result.dataset.recordings.filter { $0.subject == "clips:Eric" }
    XCTAssertEqual(clips.count, 2, "the push-up set and the joined negative clip")
    let counted = clips.filter { loaded.knownRepetitions[$0.session] != nil }
    XCTAssertEqual(counted.map { loaded.knownRepetitions[$0.session] }, [3])
    XCTAssertTrue(counted.allSatisfy { $0.session.contains("/push-up[") }, "\(counted)")
  }

  func testLoad_ComposesSourcesAtOneRate() throws {
    let loaded = try DatasetLoader.load(manifest: manifest(valid))
    let dataset = loaded.result.dataset
    XCTAssertEqual(
      dataset.channels, ["acceleration.x", "acceleration.y", "acceleration.z", "|acceleration|"])
    XCTAssertEqual(dataset.labels, ["stationary", "walking", "push-up"])
    XCTAssertEqual(dataset.subjects, ["android:1", "clips:Eric", "motion:1"])
    XCTAssertTrue(dataset.recordings.allSatisfy { $0.sampleRateHz == 10 })
    // Android sign negated: z reads -1 g at rest; the 20 Hz source was halved in length.
    let android = try XCTUnwrap(dataset.recordings.first { $0.subject == "android:1" })
    XCTAssertEqual(android.columns[2][10], -1, accuracy: 1e-4)
    XCTAssertEqual(android.sampleCount, 50, accuracy: 2)
    // Derived acceleration = gravity + userAcceleration.
    let motion = try XCTUnwrap(dataset.recordings.first { $0.subject == "motion:1" })
    XCTAssertEqual(motion.columns[0][5], 0.5, accuracy: 1e-6)
    XCTAssertEqual(motion.columns[2][5], -1, accuracy: 1e-6)
    XCTAssertEqual(motion.columns[3][5], (0.25 + 1 as Float).squareRoot(), accuracy: 1e-5)
    // Clips joined in session order (values 1, 2, 3), the unmapped clip dropped.
    let joined = dataset.recordings.filter { $0.subject == "clips:Eric" }
    XCTAssertEqual(joined.count, 1)
    XCTAssertEqual(joined[0].sampleCount, 24)
    XCTAssertEqual(joined[0].columns[0][0], 1)
    XCTAssertEqual(joined[0].columns[0][8], 2)
    XCTAssertEqual(joined[0].columns[0][23], 3)
    XCTAssertEqual(loaded.knownRepetitions[joined[0].session], 3)
    XCTAssertEqual(loaded.weight(of: android), 2)
    XCTAssertEqual(loaded.weight(of: motion), 1)
    XCTAssertEqual(loaded.result.recipes.last?.operation, .magnitude)
  }

  func testLoad_DataRootOverride() throws {
    let path = try manifest(
      valid.replacingOccurrences(of: "\"dataRoot\": \".\"", with: "\"dataRoot\": \"nowhere\""))
    XCTAssertThrowsError(try DatasetLoader.load(manifest: path)) { error in
      XCTAssertTrue("\(error)".contains("dataRoot"), "\(error)")
    }
    XCTAssertNoThrow(try DatasetLoader.load(manifest: path, dataRoot: folder.path))
  }

  private func assertError(
    _ json: String, mentions key: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let path = try manifest(json)
    XCTAssertThrowsError(try DatasetLoader.load(manifest: path), file: file, line: line) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains(path), "no file in: \(text)", file: file, line: line)
      XCTAssertTrue(text.contains("'\(key)'"), "no key \(key) in: \(text)", file: file, line: line)
      XCTAssertTrue(text.contains("HINT"), "no hint in: \(text)", file: file, line: line)
    }
  }

  func testErrors_NameFileAndKey() throws {
    try assertError(
      valid.replacingOccurrences(of: "\"sampleRateHz\": 10,", with: ""), mentions: "sampleRateHz")
    try assertError(
      valid.replacingOccurrences(of: "\"sampleRateHz\": 10", with: "\"sampleRateHz\": -1"),
      mentions: "sampleRateHz")
    try assertError(
      valid.replacingOccurrences(of: "\"walk\": \"walking\"", with: "\"walk\": \"strolling\""),
      mentions: "sources[0].labels.walk")
    try assertError(
      valid.replacingOccurrences(of: "\"weight\": 2", with: "\"weight\": \"heavy\""),
      mentions: "sources[0].weight")
    try assertError(
      valid.replacingOccurrences(of: "\"weight\": 2", with: "\"weight\": 0"),
      mentions: "sources[0].weight")
    try assertError(
      valid.replacingOccurrences(of: "\"name\": \"motion\"", with: "\"name\": \"android\""),
      mentions: "sources[1].name")
    try assertError(
      valid.replacingOccurrences(
        of: "[\"motion\"], \"channels\": [\"acceleration.*\", \"|acceleration|\"]",
        with: "[\"motion\"], \"channels\": [\"acceleration.*\"]"),
      mentions: "sources[1].channels")
    try assertError(
      valid.replacingOccurrences(of: "\"motion\"]", with: "\"missing.csv\"]"),
      mentions: "sources[1].files[0]")
    try assertError(
      valid.replacingOccurrences(
        of: "\"sitting\": \"stationary\"", with: "\"lying\": \"stationary\""),
      mentions: "sources[1].files")
    try assertError("{ \"sampleRateHz\": 10, ", mentions: "(top)")
  }

  func testDecode_UTF8ByteOrderMarkIsRead() throws {
    let manifest = try Manifest.decode([0xEF, 0xBB, 0xBF] + Array(valid.utf8), file: "m.json")
    XCTAssertEqual(manifest.sampleRateHz, 10)
    // An error after it still names the key.
    let wrong = valid.replacingOccurrences(of: "\"weight\": 2", with: "\"weight\": \"x\"")
    XCTAssertThrowsError(
      try Manifest.decode([0xEF, 0xBB, 0xBF] + Array(wrong.utf8), file: "m.json")
    ) { XCTAssertTrue("\($0)".contains("sources[0].weight"), "\($0)") }
  }

  func testRead_UnreadableFile() {
    XCTAssertThrowsError(try Manifest.read("/nonexistent/m.json")) { error in
      XCTAssertTrue("\(error)".contains("/nonexistent/m.json"))
    }
  }

  func testShippedManifests_Parse() throws {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    for name in ["six-class", "motionsense-device-motion"] {
      let path = repo.appendingPathComponent("datasets/\(name).json").path
      let m = try Manifest.read(path)
      XCTAssertFalse(m.sources.isEmpty)
      XCTAssertEqual(
        m.resolvedDataRoot(manifestFile: path, dataRoot: nil),
        repo.appendingPathComponent("datasets/../../shared/datasets").path)
    }
  }
}
