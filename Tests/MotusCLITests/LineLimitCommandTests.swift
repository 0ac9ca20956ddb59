// The line rule end to end: a gzip file of one long line, or of blank lines, is an error
// naming the file, the line and the limit in every command that reads recordings, after
// reading about the limit, not the whole text. Files are written by the test.

import Foundation
import MotusGzip
import MotusTestSupport
import XCTest

final class LineLimitCommandTests: TemporaryFolderTestCase {
  private static var sixClassModel: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
  }

  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  private func gzip(_ name: String, _ text: String) throws -> String {
    try Data(Gzip.compress(Array(text.utf8))).write(to: URL(fileURLWithPath: path(name)))
    return path(name)
  }

  private func runs(_ file: String) -> [[String]] {
    [
      ["inspect", file], ["features", file, "-o", path("w.csv")],
      ["train", file, "-o", path("m.motus")], ["evaluate", Self.sixClassModel, file],
      ["stream", Self.sixClassModel, file],
    ]
  }

  func testLongLine_EveryCommandNamesFileLineAndLimit() throws {
    let header = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
      + "0,s,1,walk,0,0,1\n"
    let bomb = try gzip("bomb.csv.gz", header + String(repeating: "a", count: 3 << 20) + "\n")
    for arguments in runs(bomb) {
      let run = try MotusRunner.run(arguments, input: "")
      XCTAssertEqual(run.exitCode, 1, "\(arguments): \(run.standardError)")
      XCTAssertTrue(
        run.standardError.contains(
          "bomb.csv.gz:3: the line is longer than 1 MiB (1048576 bytes), the longest line any "
            + "input may have. HINT:"), "\(arguments): \(run.standardError)")
    }
  }

  func testBlankLines_EveryCommandStopsAtTheBound() throws {
    let header = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
      + "0,s,1,walk,0,0,1\n"
    let blank = try gzip(
      "blank.csv.gz", header + String(repeating: "\n", count: 70_000) + "1,s,1,walk,0,0,1\n")
    for arguments in runs(blank) {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 1, "\(arguments): \(run.standardError)")
      XCTAssertTrue(
        run.standardError.contains("blank.csv.gz:65539: more than 65536 blank lines in a row"),
        "\(arguments): \(run.standardError)")
    }
  }
}
