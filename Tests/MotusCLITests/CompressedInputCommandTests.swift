// Commands on gzip-compressed recordings, end to end: a `.csv.gz` file and gzip piped into
// standard input read as their text (`inspect`, `evaluate`, `stream`), and a file cut short
// stops every one with its name and a hint. SYNTHETIC recordings (MotusSimulation).

import Foundation
import MotusGzip
import MotusSimulation
import MotusTestSupport
import XCTest

final class CompressedInputCommandTests: TemporaryFolderTestCase {
  private func recordingText() -> String {
    var simulator = ActivitySimulator(seed: 5)
    var text = ""
    for subject in 1...2 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: 20)
          .csv(includeHeader: text.isEmpty)
      }
    }
    return text
  }

  func testCompressedFileAndStandardInput_ReadAsTheirText() throws {
    let text = recordingText()
    let plain = try write(text, "rec.csv")
    let compressed = Gzip.compress(Array(text.utf8))
    let packed = try writeBytes(compressed, "rec.csv.gz")
    let expected = try MotusRunner.run(["inspect", plain])
    XCTAssertEqual(expected.exitCode, 0, expected.standardError)
    for run in [
      try MotusRunner.run(["inspect", packed]),
      try MotusRunner.run(["inspect", "-"], inputData: Data(compressed)),
    ] {
      XCTAssertEqual(run.exitCode, 0, run.standardError)
      XCTAssertEqual(run.standardOutput, expected.standardOutput)
    }
    let model = path("m.motus")
    let train = try MotusRunner.run(
      ["train", packed, "--seed", "1", "--window", "128", "--hop", "64", "-o", model])
    XCTAssertEqual(train.exitCode, 0, train.standardError)
    let evaluated = try MotusRunner.run(["evaluate", model, plain])
    XCTAssertEqual(
      try MotusRunner.run(["evaluate", model, "-"], inputData: Data(compressed))
        .standardOutput, evaluated.standardOutput)
    // The stream, from the file and from a pipe, as it streams the text.
    let streamed = try MotusRunner.run(["stream", model, plain])
    XCTAssertEqual(streamed.exitCode, 0, streamed.standardError)
    XCTAssertTrue(streamed.standardOutput.contains("\"prediction\""), streamed.standardOutput)
    XCTAssertEqual(
      try MotusRunner.run(["stream", model, packed]).standardOutput,
      streamed.standardOutput)
    XCTAssertEqual(
      try MotusRunner.run(["stream", model, "-"], inputData: Data(compressed)).standardOutput,
      streamed.standardOutput)
  }

  func testCutShortFile_StopsEveryCommandNamingItWithAHint() throws {
    let compressed = Gzip.compress(Array(recordingText().utf8))
    let cut = Array(compressed[..<(compressed.count / 2)])
    let path = try writeBytes(cut, "cut.csv.gz")
    let model = self.path("m.motus")
    let train = try MotusRunner.run(["train", path, "--seed", "1", "-o", model])
    for (run, name) in [
      (try MotusRunner.run(["inspect", path]), path),
      (train, path),
      (try MotusRunner.run(["features", path, "-o", self.path("f.csv")]), path),
      (try MotusRunner.run(["inspect", "-"], inputData: Data(cut)), "<stdin>"),
    ] {
      XCTAssertEqual(run.exitCode, 1, run.standardError)
      XCTAssertFalse(run.diedOfSignal)
      XCTAssertTrue(
        run.standardError.contains("\(name): cannot read (the file ends inside its compressed"),
        run.standardError)
      XCTAssertTrue(run.standardError.contains("HINT: was it copied whole?"), run.standardError)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: model))
    XCTAssertFalse(FileManager.default.fileExists(atPath: self.path("f.csv")))
  }

  func testBenchIO_TimesEachCommandPlainAndGzipAgainstTheTarget() throws {
    let plain = try write(recordingText(), "bench-rec.csv")
    let model = path("m.motus")
    let train = try MotusRunner.run(
      ["train", plain, "--seed", "1", "--window", "128", "--hop", "64", "-o", model])
    XCTAssertEqual(train.exitCode, 0, train.standardError)
    // A file of the copy's name already in the temporary folder is not the benchmark's.
    let temporary = FileManager.default.temporaryDirectory.path
    let bystander = (temporary as NSString).appendingPathComponent("bench-rec.csv.gz")
    try Data("someone else's".utf8).write(to: URL(fileURLWithPath: bystander))
    let run = try MotusRunner.run(["bench", "io", plain, "--runs", "1", "--model", model])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertEqual(try String(contentsOfFile: bystander, encoding: .utf8), "someone else's")
    try FileManager.default.removeItem(atPath: bystander)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    for command in ["inspect", "features", "stream"] {
      let row = lines.first { $0.hasPrefix(command + " ") }
      XCTAssertEqual(row?.split(separator: " ").count, 8, "\(command): \(run.standardOutput)")
    }
    for part in ["target: gzip within 1.5x", "load average", "inflating the copy alone"] {
      XCTAssertTrue(run.standardOutput.contains(part), run.standardOutput)
    }
    // The copy and the scratch output are removed.
    let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
      .filter { $0.contains("bench-rec.csv") || $0.hasPrefix("motus-bench-io-") }
    XCTAssertEqual(left, [])
  }

  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}
