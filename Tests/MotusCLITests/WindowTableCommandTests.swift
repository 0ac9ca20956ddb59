// `motus train --windows TABLE --spec SPEC` end to end: the model file is the one `motus train
// DATA --augment 0` writes, byte for byte, for one file, a folder of files and a cluster's
// table in another order; every flag it cannot honour is refused by name. Data is SYNTHETIC
// (MotusSimulation) or MotionSense from ../shared/datasets (skipped when absent).

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class WindowTableCommandTests: TemporaryFolderTestCase {
  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Eleven recordings of three subjects, one per file, named so that natural order
  /// (`rec-2` before `rec-10`) is not byte order.
  private func recordingFolder() throws -> String {
    let data = path("data")
    try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 50)
    let activities: [SimulatedActivity] = [.stationary, .walking, .running]
    for n in 1...11 {
      let text = simulator.recording(
        activities[n % 3], subject: 1 + n % 4, seconds: 11, session: "session-\(n)"
      ).csv()
      try text.write(toFile: data + "/rec-\(n).csv", atomically: true, encoding: .utf8)
    }
    return data
  }

  private func run(_ arguments: [String]) throws -> MotusRun {
    let run = try MotusRunner.run(arguments)
    XCTAssertEqual(run.exitCode, 0, "\(arguments): \(run.standardError)")
    return run
  }

  private func bytes(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file)) }

  /// The model trained from `data`, and the one trained from the table `features` wrote of it.
  private func bothModels(_ data: [String], flags: [String] = []) throws -> (Data, Data) {
    _ = try run(["train"] + data + flags + ["--augment", "0", "--seed", "1", "-o", path("a.motus")])
    _ = try run(
      ["features"] + data + flags.filter { $0 != "--model" && $0 != "mlp" }
        + ["-o", path("w.csv"), "--spec-output", path("s.json")])
    _ = try run(
      ["train", "--windows", path("w.csv"), "--spec", path("s.json"), "--seed", "1", "-o",
       path("b.motus")] + flags.filter { $0 == "--model" || $0 == "mlp" })
    return (try bytes(path("a.motus")), try bytes(path("b.motus")))
  }

  func testFolderOfFiles_TableTrainsTheSameModelBytes() throws {
    let (a, b) = try bothModels([try recordingFolder()])
    XCTAssertEqual(a, b)
    let (mlpA, mlpB) = try bothModels([try recordingFolder()], flags: ["--model", "mlp"])
    XCTAssertEqual(mlpA, mlpB)
    XCTAssertNotEqual(a, mlpA)
  }

  func testMotionSense_TableTrainsTheSameModelBytes() throws {
    try XCTSkipUnless(SharedData.isAvailable, "needs ../shared/datasets")
    let (a, b) = try bothModels([SharedData.motionSense.path], flags: ["--subjects", "1-6"])
    XCTAssertEqual(a, b)
  }

  /// The table with a `recording` column (each row's file), its recordings in reverse order,
  /// as a cluster may write its parts.
  private func clusterTable(_ table: String, recordingOf session: (String) -> String) throws
    -> String
  {
    let lines = try String(contentsOfFile: table, encoding: .utf8).split(separator: "\n")
    var blocks: [(String, [String])] = []
    for line in lines.dropFirst() {
      let recording = session(String(line.prefix(while: { $0 != "," })))
      if blocks.last?.0 == recording {
        blocks[blocks.count - 1].1.append(recording + "," + line)
      } else {
        blocks.append((recording, [recording + "," + line]))
      }
    }
    let text = (["recording," + lines[0]] + blocks.reversed().flatMap(\.1))
      .joined(separator: "\n") + "\n"
    try text.write(toFile: path("cluster.csv"), atomically: true, encoding: .utf8)
    return path("cluster.csv")
  }

  func testClusterTable_InAnotherRecordingOrder_TrainsTheSameModelBytes() throws {
    let (a, _) = try bothModels([try recordingFolder()])
    let cluster = try clusterTable(path("w.csv")) { "rec-\($0.dropFirst("session-".count)).csv" }
    var spec = try String(contentsOfFile: path("s.json"), encoding: .utf8)
    // A cluster's spec counts no rows (each part's run counts its own).
    spec = spec.replacingOccurrences(
      of: #""windowCount" : \d+"#, with: #""windowCount" : null"#, options: .regularExpression)
    try spec.write(toFile: path("cluster.json"), atomically: true, encoding: .utf8)
    _ = try run(
      ["train", "--windows", cluster, "--spec", path("cluster.json"), "--seed", "1", "-o",
       path("c.motus")])
    XCTAssertEqual(try bytes(path("c.motus")), a)
    // Without the recording column, the reversed rows are another training set.
    let reversed = try String(contentsOfFile: cluster, encoding: .utf8).split(separator: "\n")
      .map { $0.split(separator: ",", maxSplits: 1)[1] }.joined(separator: "\n") + "\n"
    try reversed.write(toFile: path("reversed.csv"), atomically: true, encoding: .utf8)
    _ = try run(
      ["train", "--windows", path("reversed.csv"), "--spec", path("cluster.json"), "--seed", "1",
       "-o", path("r.motus")])
    XCTAssertNotEqual(try bytes(path("r.motus")), a)
  }

  /// The Spark job's table of six SYNTHETIC gzipped recordings, as its `features` mode wrote
  /// it (Tests/MotusIngestTests/Fixtures/Parquet/make_cluster_table.py): Parquet parts with
  /// float32 features, a `recording` and a `window` column, and the spec with its row count.
  private static let clusterFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("MotusIngestTests/Fixtures/Parquet/cluster-table")

  func testSparkParquetTable_TrainsTheModelOfItsRecordings() throws {
    let fixture = Self.clusterFixture.path
    _ = try run(
      ["train", fixture + "/recordings", "--augment", "0", "--seed", "1", "-o", path("a.motus")])
    _ = try run(
      ["train", "--windows", fixture + "/features", "--spec", fixture + "/spec.json", "--seed", "1",
       "-o", path("b.motus")])
    XCTAssertEqual(try bytes(path("a.motus")), try bytes(path("b.motus")))
    // The parts in another order are the same table: rows go by recording and window.
    let shuffled = path("shuffled")
    try FileManager.default.createDirectory(atPath: shuffled, withIntermediateDirectories: true)
    let parts = try FileManager.default.contentsOfDirectory(atPath: fixture + "/features")
      .filter { $0.hasSuffix(".parquet") }.sorted()
    XCTAssertGreaterThan(parts.count, 1)
    for (k, part) in parts.reversed().enumerated() {
      try FileManager.default.copyItem(
        atPath: fixture + "/features/" + part, toPath: shuffled + "/part-\(k).parquet")
    }
    _ = try run(
      ["train", "--windows", shuffled, "--spec", fixture + "/spec.json", "--seed", "1", "-o",
       path("c.motus")])
    XCTAssertEqual(try bytes(path("c.motus")), try bytes(path("a.motus")))
    // A part left out is a table of another row count than its spec's.
    try FileManager.default.removeItem(atPath: shuffled + "/part-0.parquet")
    let cut = try MotusRunner.run(
      ["train", "--windows", shuffled, "--spec", fixture + "/spec.json", "-o", path("d.motus")])
    XCTAssertEqual(cut.exitCode, 1, cut.standardError)
    XCTAssertTrue(cut.standardError.contains("spec.json was written with a table of 54"), cut.standardError)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("d.motus")))
  }

  func testWindowsFlags_ThatWouldBeIgnoredOrCannotHoldAreUsageErrors() throws {
    let data = try recordingFolder()
    _ = try run(["features", data, "-o", path("w.csv"), "--spec-output", path("s.json")])
    let table = ["train", "--windows", path("w.csv"), "--spec", path("s.json"), "-o", path("m.motus")]
    let cases: [([String], String)] = [
      (table + ["--window", "2.56s"], "'--window' applies only with recordings"),
      (table + ["--subjects", "1-2"], "'--subjects' applies only with recordings"),
      (table + ["--min-purity", "0.5"], "'--min-purity' applies only with recordings"),
      (table + ["--statistics", "mean"], "'--statistics' applies only with recordings"),
      (table + ["--sample-rate", "25"], "'--sample-rate' applies only with recordings"),
      (table + ["--feature-channels", "all"], "'--feature-channels' applies only with recordings"),
      (table + [data], "Give either recordings (paths or --manifest) or --windows"),
      (table + ["--augment", "2"], "'--augment' perturbs recordings' samples"),
      (table + ["--perturbation", "gain=0.2"], "'--perturbation' perturbs recordings' samples"),
      (["train", data, "--spec", path("s.json"), "-o", path("m.motus")],
       "'--spec' applies only with --windows TABLE"),
      (["train", "--windows", path("w.csv"), "-o", path("m.motus")], "'--windows' needs '--spec FILE'"),
      (["features", "--manifest", path("m.json"), "-o", path("x.csv"), "--spec-output", path("x.json")],
       "'--spec-output' does not combine with --manifest"),
    ]
    for (arguments, expected) in cases {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 64, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains(expected), "\(arguments): \(run.standardError)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("m.motus")))
    // --augment 0 is what a table trains with anyway.
    _ = try run(table + ["--augment", "0"])
  }

  func testSpecOutput_IsAnOutputBesideTheTable() throws {
    let data = try recordingFolder()
    let input = data + "/rec-1.csv"
    let before = try bytes(input)
    for arguments in [
      ["features", data, "-o", path("w.csv"), "--spec-output", path("w.csv")],
      ["features", data, "-o", path("w.csv"), "--spec-output", input],
    ] {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 1, "\(arguments)")
      XCTAssertTrue(
        run.standardError.contains("also the output")
          || run.standardError.contains("--spec-output"), run.standardError)
    }
    XCTAssertEqual(try bytes(input), before)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("w.csv")))
  }

  func testTableThatIsNotTheSpecs_IsAnErrorNamingTheColumnAndTheSpec() throws {
    let data = try recordingFolder()
    _ = try run(["features", data, "-o", path("w.csv"), "--spec-output", path("s.json")])
    _ = try run(
      ["features", data, "-o", path("few.csv"), "--spec-output", path("few.json"), "--statistics",
       "mean,std", "--spectral", "none"])
    let run = try MotusRunner.run(
      ["train", "--windows", path("few.csv"), "--spec", path("s.json"), "-o", path("m.motus")])
    XCTAssertEqual(run.exitCode, 1)
    XCTAssertTrue(run.standardError.contains("few.csv: feature column 3 is"), run.standardError)
    XCTAssertTrue(run.standardError.contains("s.json has 'acceleration.vertical:min'"), run.standardError)
    XCTAssertTrue(run.standardError.contains("pass the spec written with this table"), run.standardError)
    // A table cut short is not the table the spec was written with.
    let lines = try String(contentsOfFile: path("w.csv"), encoding: .utf8).split(separator: "\n")
    try (lines.dropLast(3).joined(separator: "\n") + "\n")
      .write(toFile: path("cut.csv"), atomically: true, encoding: .utf8)
    let cut = try MotusRunner.run(
      ["train", "--windows", path("cut.csv"), "--spec", path("s.json"), "-o", path("m.motus")])
    XCTAssertEqual(cut.exitCode, 1)
    XCTAssertTrue(
      cut.standardError.contains("cut.csv has \(lines.count - 4) windows, and ")
        && cut.standardError.contains("s.json was written with a table of \(lines.count - 1)"),
      cut.standardError)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("m.motus")))
  }
  func testHandEditedSpecOrLostRow_IsRefusedBeforeTraining() throws {
    // Issue 42, item 7: each trained a model whose windows are not those of its features.
    let data = try recordingFolder()
    _ = try run(["features", data, "-o", path("w.csv"), "--spec-output", path("s.json")])
    let spec = try String(contentsOfFile: path("s.json"), encoding: .utf8)
    let edits = [
      (#""windowLength" : \d+"#, #""windowLength" : 128"#),
      (#""sampleRateHz" : \d+"#, #""sampleRateHz" : 100"#),
      (#""scale" : 1"#, #""scale" : 2"#),
    ]
    for (pattern, replacement) in edits {
      let edited = spec.replacingOccurrences(
        of: pattern, with: replacement, options: .regularExpression)
      XCTAssertNotEqual(edited, spec, pattern)
      try edited.write(toFile: path("edited.json"), atomically: true, encoding: .utf8)
      let refused = try MotusRunner.run(
        ["train", "--windows", path("w.csv"), "--spec", path("edited.json"), "-o", path("m.motus")])
      XCTAssertEqual(refused.exitCode, 1, "\(replacement): \(refused.standardError)")
      XCTAssertTrue(
        refused.standardError.contains("edited.json: its featureSpec is not the one the table was "
          + "written with"), refused.standardError)
    }
    // Without a row count (a cluster's spec), a row lost from the middle of a recording.
    let counted = spec.replacingOccurrences(
      of: #""windowCount" : \d+"#, with: #""windowCount" : null"#, options: .regularExpression)
    try counted.write(toFile: path("uncounted.json"), atomically: true, encoding: .utf8)
    var lines = try String(contentsOfFile: path("w.csv"), encoding: .utf8).components(
      separatedBy: "\n")
    lines.remove(at: 3)
    try lines.joined(separator: "\n").write(
      toFile: path("lost.csv"), atomically: true, encoding: .utf8)
    let lost = try MotusRunner.run(
      ["train", "--windows", path("lost.csv"), "--spec", path("uncounted.json"), "-o",
       path("m.motus")])
    XCTAssertEqual(lost.exitCode, 1, lost.standardError)
    XCTAssertTrue(lost.standardError.contains("lost.csv:4:5 ('start_s'): recording"), lost.standardError)
    XCTAssertTrue(lost.standardError.contains("(a window is missing"), lost.standardError)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("m.motus")))
    // The spec as written still trains.
    _ = try run(
      ["train", "--windows", path("w.csv"), "--spec", path("uncounted.json"), "-o", path("m.motus")])
  }
}
