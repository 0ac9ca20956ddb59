// Names from a user's files reach the terminal escaped: labels, sessions, subjects and source
// names holding escape sequences (`\e[2J` clears the screen, `\e]0;...\a` retitles the window)
// are printed as `\x1B[2J` in every text report (inspect, train, evaluate, cross-validate,
// model-info, bench transfer), while JSON and CSV outputs keep them exact in their own
// escaping. Data is SYNTHETIC (MotusSimulation).

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class TerminalEscapeCommandTests: TemporaryFolderTestCase {
  private static let clear = "walk\u{1B}[2J"
  private static let retitle = "still\u{1B}]0;owned\u{07}"
  private static let redSubject = "s\u{1B}[31m1"

  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Walking and stationary recordings of two subjects whose label, session and subject names
  /// hold escape sequences.
  private func data(_ name: String = "esc.csv") throws -> String {
    var simulator = ActivitySimulator(seed: 9, sampleRateHz: 50)
    var text = ""
    for (s, subject) in [Self.redSubject, "plain"].enumerated() {
      for (activity, label) in [
        (SimulatedActivity.walking, Self.clear), (.stationary, Self.retitle),
      ] {
        var recording = simulator.recording(activity, subject: s + 1, seconds: 12)
        recording.session = "run\(s)\(label)"
        recording.subject = subject
        recording.labels = recording.labels.map { _ in label }
        text += recording.csv(includeHeader: text.isEmpty)
      }
    }
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    return path(name)
  }

  /// No escape or bell byte reaches the terminal; the escaped forms do.
  private func assertEscaped(
    _ run: MotusRun, _ arguments: [String], showing name: String = "walk\\x1B[2J",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(run.exitCode, 0, "\(arguments): \(run.standardError)", file: file, line: line)
    for (name, text) in [("stdout", run.standardOutput), ("stderr", run.standardError)] {
      XCTAssertFalse(
        text.contains("\u{1B}") || text.contains("\u{07}"), "\(arguments) \(name): \(text)",
        file: file, line: line)
    }
    XCTAssertTrue(
      run.standardOutput.contains(name), "\(arguments): \(run.standardOutput)", file: file,
      line: line)
  }

  func testTextReports_EscapeNamesAndJSONAndCSVKeepThemExact() throws {
    let data = try data()
    let model = path("m.motus")
    let train = try MotusRunner.run(["train", data, "--seed", "1", "-o", model])
    assertEscaped(train, ["train"])
    XCTAssertTrue(train.standardOutput.contains("still\\x1B]0;owned\\x07 "), train.standardOutput)
    for arguments in [
      ["inspect", data], ["model-info", model], ["evaluate", model, data],
      ["evaluate", model, data, "--normalize"],
    ] {
      let run = try MotusRunner.run(arguments)
      assertEscaped(run, arguments)
    }
    // Folds are listed by the subjects they hold out.
    // Each fold trains on one subject, so nothing is left to calibrate on.
    let folds = [
      "cross-validate", data, "--folds", "2", "--validation-group", "session", "--no-calibration",
    ]
    assertEscaped(try MotusRunner.run(folds), folds, showing: "s\\x1B[31m1")
    let inspect = try MotusRunner.run(["inspect", data])
    for name in ["run0walk\\x1B[2J", "s\\x1B[31m1", "still\\x1B]0;owned\\x07"] {
      XCTAssertTrue(inspect.standardOutput.contains(name), inspect.standardOutput)
    }
    // The confusion matrix keeps its columns aligned with the escaped names: its last column
    // is right-aligned, so every line ends at the same place.
    let evaluate = try MotusRunner.run(["evaluate", model, data])
    let lines = evaluate.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("truth \\ predicted") })
    let matrix = lines[start...].prefix { !$0.isEmpty }
    XCTAssertEqual(matrix.count, 3, evaluate.standardOutput)
    XCTAssertEqual(Set(matrix.map(\.count)).count, 1, matrix.joined(separator: "\n"))

    // JSON and CSV keep the names exactly, in their own escaping.
    let json = try MotusRunner.run(["inspect", data, "--format", "json"])
    let summary = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let labels = (summary["labels"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
    XCTAssertEqual(Set(labels ?? []), [Self.clear, Self.retitle])
    XCTAssertFalse(json.standardOutput.contains("\u{1B}"), "JSON escapes it as \\u001b")
    let info = try MotusRunner.run(["model-info", model, "--format", "json"])
    let classes =
      try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(info.standardOutput.utf8)) as? [String: Any])[
        "classes"] as? [String]
    XCTAssertEqual(classes, [Self.retitle, Self.clear])
    let csv = try MotusRunner.run(["evaluate", model, data, "--format", "csv"])
    XCTAssertTrue(csv.standardOutput.contains("class,\(Self.clear),f1,"), csv.standardOutput)
    let features = try MotusRunner.run(["features", data, "-o", "-"])
    XCTAssertTrue(
      features.standardOutput.contains(",\(Self.redSubject),\(Self.clear),"),
      String(features.standardOutput.prefix(400)))
  }

  func testBenchTransferTable_EscapesSourceAndClassNames() throws {
    _ = try data("a.csv")
    _ = try data("b.csv")
    let json = """
      { "dataRoot": ".", "sampleRateHz": 25,
        "channels": ["acceleration.x", "acceleration.y", "acceleration.z"],
        "labels": ["walk\\u001b[2J", "still"],
        "sources": [
          { "name": "one\\u001b[2J", "files": ["a.csv"], "channels": ["acceleration.*"],
            "labels": {"walk\\u001b[2J": "walk\\u001b[2J", "still\\u001b]0;owned\\u0007": "still"} },
          { "name": "two", "files": ["b.csv"], "channels": ["acceleration.*"],
            "labels": {"walk\\u001b[2J": "walk\\u001b[2J", "still\\u001b]0;owned\\u0007": "still"} }
        ] }
      """
    let manifest = try write(json, "m.json")
    let arguments = [
      "bench", "transfer", "--manifest", manifest, "--seeds", "1", "--no-placements",
      "--push-up-folds", "0", "--augment", "0", "--parallelism", "1",
    ]
    let run = try MotusRunner.run(arguments)
    assertEscaped(run, arguments)
    XCTAssertTrue(run.standardOutput.contains("one\\x1B[2J (source)"), run.standardOutput)
  }
}
