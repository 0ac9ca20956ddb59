// Pins what `inspect`, `features`, `stream` and `evaluate` print for small synthetic inputs
// (Tests/Golden, written by its make-fixtures.py): a faster parser, writer or formatter must
// give the same bytes. The expected files were written by the build before those speed-ups;
// regenerate them only for a change of output that is meant.

import Foundation
import MotusTestSupport
import XCTest

final class GoldenOutputTests: TemporaryFolderTestCase {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Golden")
  static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("models/motionsense-device-motion.motus").path

  private func input(_ name: String) -> String {
    Self.golden.appendingPathComponent(name).path
  }

  private func expected(_ name: String) throws -> String {
    try String(
      contentsOf: Self.golden.appendingPathComponent("expected").appendingPathComponent(name),
      encoding: .utf8)
  }

  /// Runs `arguments` and checks its standard output against `expected/<name>`.
  private func assertOutput(
    _ arguments: [String], equals name: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let run = try MotusRunner.run(arguments)
    XCTAssertEqual(run.exitCode, 0, run.standardError, file: file, line: line)
    XCTAssertEqual(run.standardOutput, try expected(name), "motus \(arguments)", file: file, line: line)
  }

  func testInspectPrintsTheSameText() throws {
    try assertOutput(["inspect", input("synthetic.csv")], equals: "inspect.txt")
    try assertOutput(["inspect", input("synthetic-quirks.csv")], equals: "inspect-quirks.txt")
  }

  func testFeaturesWritesTheSameBytes() throws {
    for (source, name) in [("synthetic.csv", "features.csv"), ("synthetic-quirks.csv", "features-quirks.csv")] {
      let out = folder.appendingPathComponent(name).path
      let run = try MotusRunner.run(["features", input(source), "-o", out])
      XCTAssertEqual(run.exitCode, 0, run.standardError)
      let written = try Data(contentsOf: URL(fileURLWithPath: out))
      let pinned = try Data(
        contentsOf: Self.golden.appendingPathComponent("expected").appendingPathComponent(name))
      XCTAssertEqual(written, pinned, "motus features \(source)")
    }
  }

  func testFeaturesOnStandardOutputWritesTheSameBytes() throws {
    try assertOutput(["features", input("synthetic.csv"), "-o", "-"], equals: "features.csv")
  }

  func testStreamWritesTheSameLines() throws {
    try assertOutput(["stream", Self.model, input("synthetic.csv")], equals: "stream.jsonl")
    try assertOutput(
      ["stream", Self.model, input("synthetic-quirks.csv"), "--format", "csv"],
      equals: "stream-quirks.csv")
    try assertOutput(
      ["stream", Self.model, input("synthetic.csv"), "--segments", "--smoothing", "hmm"],
      equals: "stream-segments.jsonl")
  }

  func testStreamFromStandardInputWritesTheSameLines() throws {
    let text = try String(contentsOfFile: input("synthetic.csv"), encoding: .utf8)
    let run = try MotusRunner.run(["stream", Self.model, "-"], input: text)
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertEqual(run.standardOutput, try expected("stream.jsonl"))
  }

  func testEvaluatePrintsTheSameReport() throws {
    try assertOutput(["evaluate", Self.model, input("synthetic.csv")], equals: "evaluate.txt")
  }
}
