// A manifest from elsewhere cannot make a system folder its data root, and an error on a file
// it names never quotes that file's text: the data root itself is confined (not only the files
// under it), and the loader's messages about a manifest's sources give the place, not the text.

import Foundation
@testable import MotusIngest
import MotusTestSupport
import XCTest

@testable import MotusData

final class ManifestDataRootTests: TemporaryFolderTestCase {
  private func manifest(root: String, files: [String] = ["etc/passwd"]) throws -> String {
    let list = files.map { "\"\($0)\"" }.joined(separator: ", ")
    let json = """
      { "dataRoot": "\(root)", "sampleRateHz": 10, "channels": ["acceleration.x"],
        "labels": ["walking"],
        "sources": [ { "name": "a", "files": [\(list)], "channels": ["acceleration.x"],
          "labels": {"walk": "walking"} } ] }
      """
    return try write(json, "m.json")
  }

  private func assertRefused(
    root: String, because why: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let path = try manifest(root: root)
    XCTAssertThrowsError(try DatasetLoader.load(manifest: path), file: file, line: line) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("m.json:1:"), text, file: file, line: line)
      XCTAssertTrue(
        text.contains("key 'dataRoot'") && text.contains(why), text, file: file, line: line)
      XCTAssertTrue(text.contains("--allow-outside-data-root"), text, file: file, line: line)
      XCTAssertFalse(text.contains("root:x:0"), "nothing is read: \(text)", file: file, line: line)
    }
  }

  func testDataRoot_SystemFoldersAndTheFileSystemRootAreRefusedUnread() throws {
    try assertRefused(root: "/", because: "which is the root of the file system")
    let climb = String(repeating: "../", count: folder.pathComponents.count + 2)
    try assertRefused(root: climb, because: "resolves to '/', which is the root of the file system")
    try assertRefused(root: "/etc", because: "lies in the system folder /etc")
    try assertRefused(root: "/proc/self", because: "lies in the system folder /proc")
    try assertRefused(root: "/dev", because: "lies in the system folder /dev")
  }

  func testDataRoot_TheHomeFolderWhatHoldsItAndItsHiddenFoldersAreRefused() throws {
    let home = folder.appendingPathComponent("home/someone")
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("data"), withIntermediateDirectories: true)
    restoreAfterTest(get: { getenv("HOME").map { String(cString: $0) } }) {
      if let value = $0 { setenv("HOME", value, 1) } else { unsetenv("HOME") }
    }
    setenv("HOME", home.path, 1)
    try assertRefused(root: home.path, because: "which is the home folder")
    try assertRefused(root: "home", because: "which holds home folders")
    try assertRefused(root: "home/someone/.ssh", because: "a hidden folder of the home folder")
    // A folder of its own inside the home folder is a data root like any other.
    let path = try manifest(root: "home/someone/data", files: ["a.csv"])
    try
      "timestamp,session,subject,label,acceleration.x\n0,s,1,walk,1\n0.1,s,1,walk,1\n0.2,s,1,walk,1\n"
      .write(to: home.appendingPathComponent("data/a.csv"), atomically: true, encoding: .utf8)
    XCTAssertEqual(try DatasetLoader.load(manifest: path).result.dataset.recordings.count, 1)
  }

  func testAllowOutside_LetsTheRootThroughButErrorsStillQuoteNothingOfTheFile() throws {
    #if !os(Linux)
      throw XCTSkip("reads /etc/passwd")
    #endif
    let path = try manifest(root: "/")
    XCTAssertThrowsError(try DatasetLoader.load(manifest: path, allowOutsideDataRoot: true)) {
      let text = "\($0)"
      XCTAssertTrue(text.contains("/etc/passwd: no column named 'timestamp'"), text)
      XCTAssertFalse(text.contains("root:x:0"), "the file's first line is quoted: \(text)")
    }
  }

  func testSourceErrors_GiveThePlaceNotTheText() throws {
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
    let cases: [(String, String)] = [
      (
        "secret-token,other\n1,2\n",
        "a.csv: no column named 'timestamp' (--time-column) in its header"
      ),
      (
        "timestamp,session,subject,label,acceleration.x\n0,s,1,walk,1\n0.1,s,1,walk,hunter2\n",
        "a.csv:3:5: the cell is not a number"
      ),
      (
        "timestamp,session,subject,label,acceleration.x\n1,s-hunter2,1,walk,1\n0,s-hunter2,1,walk,1\n",
        "a.csv:3:1: the time does not increase within the row's session"
      ),
    ]
    for (text, message) in cases {
      try text.write(
        to: folder.appendingPathComponent("data/a.csv"), atomically: true, encoding: .utf8)
      let path = try manifest(root: "data", files: ["a.csv"])
      XCTAssertThrowsError(try DatasetLoader.load(manifest: path)) { error in
        XCTAssertTrue("\(error)".contains(message), "\(error)")
        XCTAssertTrue("\(error)".contains("HINT: "), "\(error)")
        XCTAssertFalse("\(error)".contains("hunter2"), "\(error)")
        XCTAssertFalse("\(error)".contains("secret-token"), "\(error)")
      }
    }
  }
}
