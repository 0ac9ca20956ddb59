// Messages that did not name the problem, end to end: empty names, a flag's value as written,
// a mistyped command, a window-table cell too large for a float, compressed input of a kind
// motus does not inflate. Data is SYNTHETIC (MotusSimulation) or written by the test.

import Foundation
import MotusData
import MotusSimulation
import MotusTestSupport
import XCTest

final class VagueMessageCommandTests: TemporaryFolderTestCase {
  private static var sixClassModel: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
  }

  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  private func synthetic() throws -> String {
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 50)
    var text = ""
    for subject in 1...2 {
      for activity in [SimulatedActivity.stationary, .walking] {
        text += simulator.recording(activity, subject: subject, seconds: 8)
          .csv(includeHeader: text.isEmpty)
      }
    }
    try text.write(toFile: path("data.csv"), atomically: true, encoding: .utf8)
    return path("data.csv")
  }

  private func expect(_ arguments: [String], says text: String, file: StaticString = #filePath,
    line: UInt = #line) throws
  {
    let run = try MotusRunner.run(arguments)
    XCTAssertNotEqual(run.exitCode, 0, "\(arguments)", file: file, line: line)
    XCTAssertTrue(
      run.standardError.contains(text), "\(arguments): \(run.standardError)", file: file,
      line: line)
  }

  func testEmptyNames_SayTheNameIsEmpty() throws {
    let data = try synthetic()
    try expect(["inspect", ""], says: "'': cannot read the file (the name is empty")
    try expect(["model-info", ""], says: "'': cannot read model file (the name is empty")
    try expect(["features", data, "-o", ""], says: "'': cannot write (it is an empty name")
  }

  func testFlagValue_IsQuotedAsWritten() throws {
    try expect(
      ["evaluate", Self.sixClassModel, try synthetic(), "--smoothing", "ema", "--alpha", "1e-300"],
      says: "'--alpha' must be in (0, 1], got 1e-300")
  }

  func testMistypedCommand_GetsDidYouMean() throws {
    try expect(["trian", "x.csv"], says: "'trian' is not a motus command. Did you mean 'train'?")
    try expect(["inspekt"], says: "Did you mean 'inspect'?")
    try expect(["frobnicate"], says: "the commands are demo, inspect,")
  }

  func testWindowTableCellTooLargeForAFloat_IsQuotedAsWritten() throws {
    let data = try synthetic()
    let features = try MotusRunner.run(
      ["features", data, "-o", path("w.csv"), "--spec-output", path("s.json")])
    XCTAssertEqual(features.exitCode, 0, features.standardError)
    var lines = try String(contentsOfFile: path("w.csv"), encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var cells = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let column = cells.count - 1
    cells[column] = "1e39"
    lines[1] = cells.joined(separator: ",")
    try lines.joined(separator: "\n").write(
      toFile: path("w.csv"), atomically: true, encoding: .utf8)
    try expect(
      ["train", "--windows", path("w.csv"), "--spec", path("s.json"), "-o", path("m.motus")],
      says: ":2:\(column + 1)")
    try expect(
      ["train", "--windows", path("w.csv"), "--spec", path("s.json"), "-o", path("m.motus")],
      says: "'1e39' is beyond ±3.4e38")
  }

  func testCompressedInput_IsNamedWithTheCommandThatDecompresses() throws {
    var bytes = Array("BZh91AY&SY".utf8)
    var generator = SplitMix64(seed: 24301)  // seeded: a failure replays
    bytes += (0..<2000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    _ = FileManager.default.createFile(atPath: path("x.csv.bz2"), contents: Data(bytes))
    try expect(["inspect", path("x.csv.bz2")], says: "looks like bzip2-compressed data")
    try expect(
      ["stream", Self.sixClassModel, path("x.csv.bz2")], says: "`bzip2 -dc FILE > FILE.csv`")
  }
}
