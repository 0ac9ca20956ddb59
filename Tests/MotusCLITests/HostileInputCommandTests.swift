// `motus` end to end on inputs that are not what they seem: files of the kernel's /proc
// interface, one file given twice (by two paths, a link, a folder and a file in it, two
// manifest sources) or beside its gzip copy, manifests whose data root is a system folder or whose keys are misspelt.
// Data is SYNTHETIC (MotusSimulation) or written by the test.

import Foundation
import MotusGzip
import MotusSimulation
import MotusTestSupport
import XCTest

final class HostileInputCommandTests: TemporaryFolderTestCase {
  static var sixClassModel: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Synthetic recordings: stationary, walking and running for two subjects at 50 Hz.
  func synthetic(_ name: String = "data.csv", seconds: Double = 8) throws -> String {
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 50)
    var text = ""
    for subject in 1...2 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: seconds)
          .csv(includeHeader: text.isEmpty)
      }
    }
    let url = URL(fileURLWithPath: path(name))
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func testKernelInterfaceFiles_EveryCommandSaysWhatTheyAreInsteadOfTrapping() throws {
    #if !os(Linux)
      throw XCTSkip("the kernel interface /proc is Linux's")
    #endif
    let data = try synthetic()
    let model = Self.sixClassModel
    for file in ["/proc/self/mem", "/proc/self/status"] {
      let runs: [[String]] = [
        ["inspect", file], ["features", file, "-o", path("w.csv")],
        ["train", file, "-o", path("m.motus")], ["evaluate", model, file],
        ["cross-validate", file], ["stream", model, file], ["evaluate", file, data],
        ["model-info", file],
      ]
      for arguments in runs {
        let run = try MotusRunner.run(arguments)
        XCTAssertEqual(run.exitCode, 1, "\(arguments): \(run.standardError)")
        XCTAssertTrue(
          run.standardError.contains("\(file): cannot read")
            && run.standardError.contains("it is a file of the kernel's /proc interface"),
          "\(arguments): \(run.standardError)")
        XCTAssertFalse(run.standardError.contains("Name:"), "\(arguments): \(run.standardError)")
      }
    }
  }

  func testOneFileTwice_EveryCommandThatReadsDataRefusesIt() throws {
    let data = try synthetic()
    try FileManager.default.createSymbolicLink(atPath: path("link.csv"), withDestinationPath: data)
    let model = path("m.motus")
    let train = try MotusRunner.run(["train", data, "--seed", "1", "-o", model])
    XCTAssertEqual(train.exitCode, 0, train.standardError)
    let json = """
      { "dataRoot": ".", "sampleRateHz": 15,
        "channels": ["acceleration.x", "acceleration.y", "acceleration.z"], "labels": ["walking"],
        "sources": [
          { "name": "a", "files": ["data.csv"], "channels": ["acceleration.*"],
            "labels": {"walking": "walking"} },
          { "name": "b", "files": ["link.csv"], "channels": ["acceleration.*"],
            "labels": {"walking": "walking"} } ] }
      """
    let manifest = try write(json, "twice.json")
    let runs: [([String], String)] = [
      (["inspect", data, folder.path], "(in '\(folder.path)') are one file"),
      (["features", data, path("link.csv"), "-o", path("w.csv")], "are one file"),
      (["train", data, data, "-o", path("m2.motus")], "are one file"),
      (["evaluate", model, data, path("./link.csv")], "are one file"),
      (["cross-validate", data, path("link.csv")], "are one file"),
      (["inspect", "--manifest", manifest], "'link.csv' (sources[1].files[0]) is the file"),
      (["train", "--manifest", manifest, "-o", path("m3.motus")], "key 'sources[1].files[0]'"),
      (["bench", "accuracy", "--manifest", manifest], "key 'sources[1].files[0]'"),
      (["bench", "transfer", "--manifest", manifest], "key 'sources[1].files[0]'"),
    ]
    for (arguments, message) in runs {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 1, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains("HINT: "), "\(arguments): \(run.standardError)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("w.csv")))
  }

  func testCSVBesideItsGzipCopy_EveryCommandRefusesIt() throws {
    // Issue 42, item 6: `gzip -k` leaves both; each was read, and with --validation-group
    // session the held-out sessions had exact copies in training.
    let data = try synthetic("d/data.csv")
    let text = try [UInt8](Data(contentsOf: URL(fileURLWithPath: data)))
    try Data(Gzip.compress(text)).write(to: URL(fileURLWithPath: data + ".gz"))
    let d = path("d")
    let json = """
      { "dataRoot": "d", "sampleRateHz": 15,
        "channels": ["acceleration.x", "acceleration.y", "acceleration.z"], "labels": ["walking"],
        "sources": [
          { "name": "a", "files": ["data.csv"], "channels": ["acceleration.*"],
            "labels": {"walking": "walking"} },
          { "name": "b", "files": ["data.csv.gz"], "channels": ["acceleration.*"],
            "labels": {"walking": "walking"} } ] }
      """
    let manifest = try write(json, "twins.json")
    let twins = "'\(data)' (in '\(d)') and '\(data).gz' (in '\(d)') are one CSV file and its gzip copy"
    let runs: [([String], String)] = [
      (["train", d, "--validation-group", "session", "-o", path("m.motus")], twins),
      (["features", d, "-o", path("w.csv")], twins),
      (["inspect", d], twins),
      (["evaluate", Self.sixClassModel, data, data + ".gz"], "are one CSV file and its gzip copy"),
      (["train", "--manifest", manifest, "-o", path("m2.motus")], "key 'sources[1].files[0]'"),
    ]
    for (arguments, message) in runs {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 1, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
      XCTAssertTrue(
        run.standardError.contains("HINT: remove one of the two"), "\(arguments): \(run.standardError)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("m.motus")))
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("w.csv")))
  }

  func testManifestDataRoot_ASystemFolderIsRefusedAndNoFileTextIsQuoted() throws {
    #if !os(Linux)
      throw XCTSkip("reads /etc/passwd")
    #endif
    let json = """
      { "dataRoot": "/", "sampleRateHz": 15, "channels": ["acceleration.x"], "labels": ["walking"],
        "sources": [ { "name": "a", "files": ["etc/passwd"], "channels": ["acceleration.x"],
          "labels": {"walk": "walking"} } ] }
      """
    let manifest = try write(json, "root.json")
    for arguments in [
      ["inspect", "--manifest", manifest],
      ["train", "--manifest", manifest, "-o", path("m.motus")],
      ["bench", "transfer", "--manifest", manifest],
    ] {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 1, "\(arguments): \(run.standardError)")
      XCTAssertTrue(
        run.standardError.contains("root.json:1:15: key 'dataRoot': the data root '/'"),
        "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains("HINT: "), run.standardError)
    }
    let allowed = try MotusRunner.run(
      ["inspect", "--manifest", manifest, "--allow-outside-data-root"])
    XCTAssertEqual(allowed.exitCode, 1, allowed.standardError)
    XCTAssertTrue(allowed.standardError.contains("/etc/passwd: no column"), allowed.standardError)
    XCTAssertFalse(allowed.standardError.contains("root:x:0"), allowed.standardError)
  }
}
