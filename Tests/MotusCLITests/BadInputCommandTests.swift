// `motus` end to end on the inputs a new and a hostile user would try: outputs that are inputs,
// values out of range, binary and UTF-16 files, pipes, absurd flags and rates, manifests that
// reach outside their data root, damaged model files. Each gets a clear error naming the file,
// line and column or the flag, with a hint, or a correct result. Data is SYNTHETIC
// (MotusSimulation) or written by the test.

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class BadInputCommandTests: TemporaryFolderTestCase {


  private static var sixClassModel: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
  }

  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Synthetic recordings: stationary, walking and running for three subjects at 50 Hz.
  private func synthetic(_ name: String = "data.csv", seconds: Double = 12) throws -> String {
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 50)
    var text = ""
    for subject in 1...3 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: seconds)
          .csv(includeHeader: text.isEmpty)
      }
    }
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    return path(name)
  }

  private func trainedModel(data: String) throws -> String {
    let model = path("m.motus")
    let run = try MotusRunner.run(["train", data, "--seed", "1", "-o", model])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    return model
  }

  /// Replaces the cell at 1-based `row` (the header is row 1) and `column` of `file`.
  private func replacing(_ file: String, row: Int, column: Int, with value: String) throws {
    var lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
    var cells = lines[row - 1].components(separatedBy: ",")
    cells[column - 1] = value
    lines[row - 1] = cells.joined(separator: ",")
    try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
  }

  func testOutputThatIsAnInput_IsRefusedAndTheInputKept() throws {
    let data = try synthetic()
    let model = try trainedModel(data: data)
    let before = try Data(contentsOf: URL(fileURLWithPath: data))
    let modelBefore = try Data(contentsOf: URL(fileURLWithPath: model))
    try FileManager.default.createSymbolicLink(atPath: path("alias.csv"), withDestinationPath: data)
    let runs: [[String]] = [
      ["train", data, "-o", data],
      ["train", data, "-o", path("alias.csv")],
      ["features", data, "-o", data],
      ["evaluate", model, data, "-o", data],
      ["evaluate", model, data, "--report", model],
      ["evaluate", model, data, "-o", path("same.txt"), "--report", path("same.txt")],
    ]
    for arguments in runs {
      let run = try MotusRunner.run(arguments)
      XCTAssertNotEqual(run.exitCode, 0, "\(arguments)")
      XCTAssertTrue(
        run.standardError.contains("cannot write (it is the input")
          || run.standardError.contains("cannot write (it is also the output"),
        "\(arguments): \(run.standardError)")
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: data)), before)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: model)), modelBefore)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    XCTAssertFalse(names.contains { $0.hasSuffix(".tmp") }, "\(names)")
  }

  func testDemoOutput_IsOpenedBeforeTheWorkAndNeverStandardOutput() throws {
    let missing = try MotusRunner.run(["demo", "-o", path("no/such/m.motus")])
    XCTAssertEqual(missing.exitCode, 1, missing.standardError)
    XCTAssertTrue(missing.standardError.contains("does not exist"), missing.standardError)
    XCTAssertEqual(missing.standardOutput, "", "refused before simulating anything")
    let mixed = try MotusRunner.run(["demo", "-o", "-"])
    XCTAssertEqual(mixed.exitCode, 64, mixed.standardError)
    XCTAssertTrue(mixed.standardError.contains("would mix the model"), mixed.standardError)
  }

  func testOneCharacterPaths_AreReadAndWritten() throws {
    // Foundation's NSString path methods trap on them: `-o m` crashed train and features.
    let data = try synthetic()
    try FileManager.default.copyItem(atPath: data, toPath: path("d"))
    for arguments in [["train", "d", "--seed", "1", "-o", "m"], ["features", "d", "-o", "w"]] {
      let run = try MotusRunner.run(arguments, workingDirectory: folder)
      XCTAssertEqual(run.exitCode, 0, "\(arguments): \(run.standardError)")
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: path("m")))
    XCTAssertTrue(FileManager.default.fileExists(atPath: path("w")))
    try """
      { "sampleRateHz": 50, "dataRoot": ".",
        "channels": ["acceleration.x", "acceleration.y", "acceleration.z"],
        "labels": ["stationary", "walking", "running"],
        "sources": [ { "name": "s", "files": ["d"], "channels": ["acceleration.*"],
          "labels": {"stationary": "stationary", "walking": "walking", "running": "running"} } ] }
      """.write(toFile: path("j"), atomically: true, encoding: .utf8)
    let manifest = try MotusRunner.run(["inspect", "--manifest", "j"], workingDirectory: folder)
    XCTAssertEqual(manifest.exitCode, 0, manifest.standardError)
  }

  func testOutputInAMissingFolderOrOnAFolder_SaysWhich() throws {
    let data = try synthetic()
    let missing = try MotusRunner.run(["train", data, "-o", path("no/such/m.motus")])
    XCTAssertNotEqual(missing.exitCode, 0)
    XCTAssertTrue(
      missing.standardError.contains("the folder \(path("no/such")) does not exist"),
      missing.standardError)
    XCTAssertFalse(missing.standardError.contains("NSCocoaErrorDomain"))
    let onFolder = try MotusRunner.run(["features", data, "-o", folder.path])
    XCTAssertTrue(
      onFolder.standardError.contains("it is a folder, not a file"), onFolder.standardError)
  }

  func testHugeValue_EveryCommandNamesFileLineAndColumn() throws {
    let data = try synthetic()
    let model = try trainedModel(data: data)
    try replacing(data, row: 42, column: 6, with: "1e30")
    let location = "\(data):42:6 ('acceleration.y'): 1e30 is beyond ±1e7"
    for arguments in [
      ["features", data, "-o", path("w.csv")], ["train", data, "-o", path("n.motus")],
      ["evaluate", model, data], ["cross-validate", data, "--folds", "2"],
    ] {
      let run = try MotusRunner.run(arguments)
      XCTAssertNotEqual(run.exitCode, 0, "\(arguments)")
      XCTAssertTrue(run.standardError.contains(location), "\(arguments): \(run.standardError)")
    }
    // The stream skips the row, says where, and every line it prints is valid JSON.
    let stream = try MotusRunner.run(["stream", model, data])
    XCTAssertEqual(stream.exitCode, 0, stream.standardError)
    XCTAssertTrue(stream.standardError.contains(location), stream.standardError)
    let lines = stream.standardOutput.split(separator: "\n")
    XCTAssertGreaterThan(lines.count, 10)
    for line in lines {
      XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8)), String(line))
      XCTAssertFalse(line.contains("nan"), String(line))
    }
  }

  func testStream_ManyBadRowsGiveTenWarningsAndACount() throws {
    var text = "timestamp,acceleration.x,acceleration.y,acceleration.z\n"
    for i in 0..<300 { text += "\(Double(i) / 15),\(i % 2 == 0 ? "oops" : "0"),0,1\n" }
    try text.write(toFile: path("live.csv"), atomically: true, encoding: .utf8)
    let run = try MotusRunner.run(["stream", Self.sixClassModel, path("live.csv")])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let warnings = run.standardError.split(separator: "\n").filter { $0.hasPrefix("warning:") }
    XCTAssertEqual(warnings.count, 12, run.standardError)
    XCTAssertTrue(
      run.standardError.contains("warning: 150 skipped rows in all, 140 of them not shown."),
      run.standardError)
    XCTAssertTrue(run.standardError.contains("rows skipped (unreadable or out of range): 150"))
  }

  func testStream_EndlessOrBinaryInputStopsWithAHint() throws {
    let run = try MotusRunner.run(["stream", Self.sixClassModel, "/dev/zero"])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("holds NUL bytes"), run.standardError)
    XCTAssertLessThan(run.standardError.count, 500)
  }

  func testStream_AbsurdInputRateIsAnError() throws {
    // 600 rows a thousand seconds apart: 0.001 Hz, which would make 467,000 predictions.
    var text = "timestamp,acceleration.x,acceleration.y,acceleration.z\n"
    for i in 0..<600 { text += "\(i * 1000),0,0,1\n" }
    try text.write(toFile: path("slow.csv"), atomically: true, encoding: .utf8)
    let run = try MotusRunner.run(["stream", Self.sixClassModel, path("slow.csv")])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(
      run.standardError.contains("a sample rate of 0.001 Hz is outside"), run.standardError)
    XCTAssertTrue(
      run.standardError.contains("(input rate estimated from the first rows)"), run.standardError)
    XCTAssertEqual(run.standardOutput, "")
  }

  func testFlags_OutOfBoundsNameTheLimitAndTheReason() throws {
    let data = try synthetic(seconds: 4)
    let cases: [([String], String)] = [
      (
        ["train", data, "-o", "m", "--sample-rate", "1e9"],
        "'--sample-rate' must be within 0.1...10000.0 Hz, the rates inertial sensors record at "
          + "(higher ones only multiply memory and time), got 1000000000.0."
      ),
      (["train", data, "-o", "m", "--window", "1e30s"], "must be at most 3600s (an hour"),
      (["train", data, "-o", "m", "--window", "-5"], "'--window' must be positive, got -5"),
      (["train", data, "-o", "m", "--window", "100000"], "at most 65536 samples"),
      (["train", data, "-o", "m", "--hidden", "1e18"], "'--hidden' item '1e18' is not a positive"),
      (["train", data, "-o", "m", "--hidden", "100000000"], "above 4096: time and memory"),
      (["train", data, "-o", "m", "--augment", "100000"], "must be in 0...16 (each copy adds"),
      (["train", data, "-o", "m", "--epochs", "1000000000"], "must be in 1...100000"),
      (["features", data, "-o", "w", "--hop", "-1s"], "'--hop' must be positive"),
      (
        ["stream", Self.sixClassModel, data, "--input-rate", "1e9"],
        "'--input-rate' must be within 0.1...10000.0 Hz, the rates inertial sensors record at "
          + "(higher ones only multiply memory and time), got 1000000000.0."
      ),
      (["evaluate", Self.sixClassModel, data, "--perturb", "noise=1e30"], "noise at most 10"),
      (["stream", Self.sixClassModel, data, "--smoothing", "hmm", "--evidence-factors", "push-up=1.5"],
       "'--evidence-factors': the factor of push-up must be in (0, 1], got 1.5"),
      (["stream", Self.sixClassModel, data, "--smoothing", "hmm", "--evidence-factors", "push-up"],
       "'--evidence-factors' takes class=factor pairs separated by commas, or none"),
      (["evaluate", Self.sixClassModel, data, "--smoothing", "hmm", "--entry-factors",
        "push-up=0.2,push-up=0.3"], "'--entry-factors' names push-up twice"),
      (["bench", "transfer", "--manifest", data, "--compare-evidence", "none;push-up=0"],
       "'--compare-evidence': the factor of push-up must be in (0, 1], got 0.0"),
    ]
    for (arguments, message) in cases {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 64, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
    }
  }

  /// A class name the model does not have would change nothing: refused, naming the classes.
  func testEvidenceFactors_OfAClassTheModelLacksAreRefused() throws {
    let data = try synthetic(seconds: 6)
    for command in ["stream", "evaluate"] {
      let run = try MotusRunner.run(
        [command, Self.sixClassModel, data, "--smoothing", "hmm", "--evidence-factors", "pushup=0.5"])
      XCTAssertNotEqual(run.exitCode, 0, run.standardError)
      XCTAssertTrue(
        run.standardError.contains("--evidence-factors names 'pushup', which the model does not have")
          && run.standardError.contains("stationary, walking, running"),
        run.standardError)
    }
  }

  func testFlags_NegativeNumbersAreRefusedByNameNotReadAsFlags() throws {
    let data = try synthetic(seconds: 4)
    let model = Self.sixClassModel
    let cases: [([String], String)] = [
      (["train", data, "-o", "m", "--hidden", "-5"], "'--hidden' item '-5' is not a positive"),
      (["train", data, "-o", "m", "--seed", "-5"], "a seed must be a whole number from 0"),
      (["export", model, "-o", "x", "--parity-windows", "-5"], "must be positive, got -5"),
      (["stream", model, data, "--steps", "--step-length", "-5"], "between 0 and 3, got -5"),
      (["bench", "transfer", "--parallelism", "-5"], "'--parallelism' must be in 1...64, got -5"),
      (["bench", "transfer", "--placement-folds", "-5"], "must be in 2...64, got -5"),
      (["bench", "transfer", "--seeds", "-5"], "'--seeds' item '-5' is not a whole number"),
      (
        ["bench", "adapt", "--rehearsal-weights", "0.5,-5"],
        "'--rehearsal-weights' item '-5' is not a number of at least 0"
      ),
      (["evaluate", model, data, "--perturb-seed", "-5"], "a seed must be a whole number"),
      (["bench", "features", "--repetitions", "-5"], "must be in 1...1000"),
      (["demo", "--subjects", "-5"], "'--subjects' must be in 2...50, got -5"),
      (["features", data, "-o", path("w.csv"), "--bands", "-1,0,1"], "ascending, got -1,0,1"),
    ]
    for (arguments, message) in cases {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 64, "\(arguments): \(run.standardError)")
      XCTAssertFalse(run.standardError.contains("Missing value"), "\(arguments)")
      XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
    }
  }

  func testFlags_ThatWouldBeIgnoredAreUsageErrors() throws {
    let data = try synthetic(seconds: 4)
    let model = Self.sixClassModel
    let train = ["train", data, "-o", path("m.motus")]
    let cases: [([String], String)] = [
      (["stream", model, data, "--steps", "--format", "csv"], "'--steps' applies only with"),
      (["stream", model, data, "--step-length", "0.7"], "'--step-length' applies only with"),
      (["stream", model, data, "--smoothing", "ema", "--switch-probability", "0.1"],
       "'--switch-probability' applies only with --smoothing hmm"),
      (["stream", model, data, "--trips"], "'--trips' applies only with --smoothing hmm"),
      (["evaluate", model, data, "--trip-entry-factor", "0.5"],
       "'--trip-entry-factor' applies only with --smoothing hmm"),
      (["stream", model, data, "--smoothing", "hmm", "--no-trips", "--trip-stop-half-life", "60"],
       "'--trip-stop-half-life' sets the trips that --no-trips turns off"),
      (["stream", model, data, "--gate-window", "12"], "'--gate-window' applies only with"),
      (["stream", model, data, "--evidence-factors", "push-up=0.5"],
       "'--evidence-factors' applies only with --smoothing hmm"),
      (["evaluate", model, data, "--entry-factors", "push-up=0.2"],
       "'--entry-factors' applies only with --smoothing hmm"),
      (train + ["--negative-rate", "0.1"], "'--negative-rate' applies only with --manifest"),
      (train + ["--novelty-rate", "0.1"], "'--novelty-rate' applies only with --novelty"),
      (train + ["--negatives", "class"], "'--negatives' applies only with --manifest"),
      (train + ["--hidden", "32"], "'--hidden' applies only with --model mlp"),
      (train + ["--model", "mlp", "--solver", "lbfgs"], "'--solver' applies only with"),
      (train + ["--learning-rate", "0.1"], "'--learning-rate' applies only with Adam"),
      (train + ["--patience", "5"], "'--patience' applies only with Adam"),
      (["cross-validate", data, "--batch-size", "64"], "'--batch-size' applies only with Adam"),
      (["evaluate", model, data, "--alpha", "0.3"], "'--alpha' applies only with --smoothing ema"),
      (["evaluate", model, data, "--perturb-seed", "3"], "'--perturb-seed' applies only with"),
      (["evaluate", model, data, "--timeline-session", "s"], "applies only with --report"),
      (["evaluate", model, data, "--normalize", "--format", "json"], "'--normalize' applies"),
      (["features", data, "-o", path("w.csv"), "--spectral", "band", "--log-power-floor", "0.1"],
       "'--log-power-floor' applies only with log_band"),
    ]
    for (arguments, message) in cases {
      let run = try MotusRunner.run(arguments)
      XCTAssertEqual(run.exitCode, 64, "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
      XCTAssertTrue(run.standardError.contains("would be ignored"), run.standardError)
    }
  }

  func testFlags_ThatTheDataLeavesWithoutEffectGiveAWarning() throws {
    // A manifest without negativeLabels: --negatives class has nothing to learn. synthetic()
    // writes the data.csv it names.
    _ = try synthetic()
    try """
      { "sampleRateHz": 50, "dataRoot": ".",
        "channels": ["acceleration.x", "acceleration.y", "acceleration.z"],
        "labels": ["stationary", "walking", "running"],
        "sources": [ { "name": "s", "files": ["data.csv"],
          "channels": ["acceleration.*"],
          "labels": {"stationary": "stationary", "walking": "walking", "running": "running"} } ] }
      """.write(toFile: path("m.json"), atomically: true, encoding: .utf8)
    let run = try MotusRunner.run([
      "train", "--manifest", path("m.json"), "--negatives", "class", "-o", path("m.motus"),
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(
      run.standardError.contains("warning: --negatives and --negative-rate act on a manifest's "
        + "negativeLabels; this data has none"), run.standardError)
    // An input rate the timestamps contradict: 15 Hz rows streamed as if they were 30 Hz.
    var text = "timestamp,acceleration.x,acceleration.y,acceleration.z\n"
    for i in 0..<300 { text += "\(Double(i) / 15),0,\(i % 3 == 0 ? 0.1 : 0),1\n" }
    try text.write(toFile: path("live.csv"), atomically: true, encoding: .utf8)
    let stream = ["stream", Self.sixClassModel, path("live.csv"), "--input-rate"]
    let given = try MotusRunner.run(stream + ["30"])
    XCTAssertEqual(given.exitCode, 0, given.standardError)
    XCTAssertTrue(
      given.standardError.contains(
        "warning: --input-rate 30.0 Hz, but the timestamps step at 15 Hz (first rows)"),
      given.standardError)
    let agreeing = try MotusRunner.run(stream + ["15"])
    XCTAssertFalse(agreeing.standardError.contains("--input-rate"), agreeing.standardError)
  }

  func testTrain_OneRecordingPerActivityStopsWithAHintOrTrainsWithoutFigures() throws {
    // The README's own-recordings recipe: one recording (one subject) per activity.
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 50)
    var files: [String] = []
    for (subject, activity) in [SimulatedActivity.stationary, .walking, .running].enumerated() {
      let text = simulator.recording(activity, subject: subject + 1, seconds: 30)
        .csv(includeHeader: true)
      try text.write(toFile: path("\(activity).csv"), atomically: true, encoding: .utf8)
      files.append(path("\(activity).csv"))
    }
    let train = ["train"] + files + ["--seed", "1", "-o", path("mine.motus")]
    let refused = try MotusRunner.run(train)
    XCTAssertEqual(refused.exitCode, 1, refused.standardError)
    XCTAssertTrue(
      refused.standardError.contains("no window can be held out for validation"),
      refused.standardError)
    XCTAssertTrue(refused.standardError.contains("'--no-calibration'"), refused.standardError)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("mine.motus")))
    let trained = try MotusRunner.run(train + ["--no-calibration"])
    XCTAssertEqual(trained.exitCode, 0, trained.standardError)
    XCTAssertTrue(
      trained.standardOutput.contains("so there are no validation figures"),
      trained.standardOutput)
    let info = try MotusRunner.run(["model-info", path("mine.motus")])
    for text in [trained.standardOutput, info.standardOutput] {
      let nan = text.range(of: #"\bnan\b"#, options: [.regularExpression, .caseInsensitive])
      XCTAssertNil(nan, text)
    }
  }

  func testPipes_EveryCommandThatReadsDataReadsStandardInputAndDevStdin() throws {
    let data = try synthetic()
    let text = try String(contentsOfFile: data, encoding: .utf8)
    let inspect = try MotusRunner.run(["inspect", "-"], input: text)
    XCTAssertEqual(inspect.exitCode, 0, inspect.standardError)
    XCTAssertTrue(
      inspect.standardOutput.hasPrefix("files: 1, rows read: 5400"), inspect.standardOutput)
    let features = try MotusRunner.run(["features", "/dev/stdin", "-o", "-"], input: text)
    XCTAssertEqual(features.exitCode, 0, features.standardError)
    XCTAssertTrue(features.standardOutput.hasPrefix("session,subject,label,purity,start_s,"))
    XCTAssertTrue(features.standardError.contains("windows x"), features.standardError)
    let model = path("piped.motus")
    let train = try MotusRunner.run(["train", "-", "--seed", "1", "-o", model], input: text)
    XCTAssertEqual(train.exitCode, 0, train.standardError)
    let evaluate = try MotusRunner.run(["evaluate", model, "-"], input: text)
    XCTAssertEqual(evaluate.exitCode, 0, evaluate.standardError)
    XCTAssertTrue(evaluate.standardOutput.contains("macro-F1"), evaluate.standardOutput)
    let fromFile = try MotusRunner.run(["evaluate", model, data])
    XCTAssertEqual(evaluate.standardOutput, fromFile.standardOutput)
  }

  func testEvaluate_DeviceMotionCSVScoresLikeItsPrecomputedAcceleration() throws {
    // The same samples twice: as Core Motion device motion (gravity + userAcceleration) and
    // with acceleration computed as ingestion computes it (a Float sum).
    var simulator = ActivitySimulator(seed: 9, sampleRateHz: 50)
    var motion = "timestamp,session,subject,label,gravity.x,gravity.y,gravity.z,"
      + "userAcceleration.x,userAcceleration.y,userAcceleration.z\n"
    var direct = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    for activity in [SimulatedActivity.stationary, .walking, .running] {
      let r = simulator.recording(activity, subject: 1, seconds: 30)
      for t in r.timestamps.indices {
        let prefix = String(format: "%.4f", r.timestamps[t]) + ",\(r.session),1,\(r.labels[t])"
        let gravity: [Float] = [0, 0, -1]
        let user = (0..<3).map { r.columns[$0][t] - gravity[$0] }
        let sum = (0..<3).map { 0 + gravity[$0] + user[$0] }
        motion += prefix + "," + (gravity + user).map { "\($0)" }.joined(separator: ",") + "\n"
        direct += prefix + "," + sum.map { "\(Double($0))" }.joined(separator: ",") + "\n"
      }
    }
    try motion.write(toFile: path("motion.csv"), atomically: true, encoding: .utf8)
    try direct.write(toFile: path("direct.csv"), atomically: true, encoding: .utf8)
    let derived = try MotusRunner.run(
      ["evaluate", Self.sixClassModel, path("motion.csv"), "--format", "json"])
    XCTAssertEqual(derived.exitCode, 0, derived.standardError)
    XCTAssertTrue(
      derived.standardError.contains("acceleration.x = gravity.x + userAcceleration.x"),
      derived.standardError)
    let plain = try MotusRunner.run(
      ["evaluate", Self.sixClassModel, path("direct.csv"), "--format", "json"])
    XCTAssertEqual(plain.exitCode, 0, plain.standardError)
    XCTAssertEqual(derived.standardOutput, plain.standardOutput)
    // The stream, features and training read the same file by the same rule.
    let streamed = try MotusRunner.run(["stream", Self.sixClassModel, path("motion.csv")])
    XCTAssertEqual(streamed.exitCode, 0, streamed.standardError)
    let directStream = try MotusRunner.run(["stream", Self.sixClassModel, path("direct.csv")])
    XCTAssertEqual(streamed.standardOutput, directStream.standardOutput)
    for name in ["motion", "direct"] {
      let run = try MotusRunner.run([
        "features", path("\(name).csv"), "--channels", "acceleration.*,|acceleration|", "-o",
        path("\(name)-windows.csv"),
      ])
      XCTAssertEqual(run.exitCode, 0, run.standardError)
    }
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: path("motion-windows.csv"))),
      try Data(contentsOf: URL(fileURLWithPath: path("direct-windows.csv"))))
  }

  func testManifest_SourceOutsideTheDataRootIsRefusedUnlessAllowed() throws {
    try FileManager.default.createDirectory(
      atPath: path("root"), withIntermediateDirectories: false)
    try "root:x:0:0:root:/root:/bin/bash\n".write(
      toFile: path("passwd"), atomically: true, encoding: .utf8)
    let manifest = """
      { "dataRoot": "root", "sampleRateHz": 15, "channels": ["acceleration.x"],
        "labels": ["walking"],
        "sources": [ { "name": "s", "files": ["../passwd"], "channels": ["acceleration.x"],
                       "labels": {"walk": "walking"} } ] }
      """
    try manifest.write(toFile: path("m.json"), atomically: true, encoding: .utf8)
    let refused = try MotusRunner.run(["inspect", "--manifest", path("m.json")])
    XCTAssertNotEqual(refused.exitCode, 0)
    XCTAssertTrue(
      refused.standardError.contains("climbs out of the data root"), refused.standardError)
    XCTAssertFalse(refused.standardError.contains("root:x:0"), refused.standardError)
    let allowed = try MotusRunner.run(
      ["inspect", "--manifest", path("m.json"), "--allow-outside-data-root"])
    XCTAssertFalse(allowed.standardError.contains("climbs out"), allowed.standardError)
  }

  func testModelFile_FolderAndFlippedBitSayWhy() throws {
    let folderRun = try MotusRunner.run(["model-info", folder.path])
    XCTAssertTrue(
      folderRun.standardError.contains("it is a folder, not a file"), folderRun.standardError)
    XCTAssertFalse(folderRun.standardError.contains("don't have permission"))
    let data = try synthetic(seconds: 6)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: try trainedModel(data: data)))
    bytes[bytes.count / 2] ^= 0x10
    try bytes.write(to: URL(fileURLWithPath: path("damaged.motus")))
    for arguments in [
      ["model-info", path("damaged.motus")], ["stream", path("damaged.motus"), data],
      ["evaluate", path("damaged.motus"), data],
    ] {
      let run = try MotusRunner.run(arguments)
      XCTAssertNotEqual(run.exitCode, 0)
      XCTAssertTrue(
        run.standardError.contains("\(path("damaged.motus")): model file is damaged: its checksum"),
        "\(arguments): \(run.standardError)")
    }
  }

  func testBinaryAndUTF16Files_GetShortMessagesWithAnEncodingHint() throws {
    try Data(count: 1 << 20).write(to: URL(fileURLWithPath: path("zeros.csv")))
    let zeros = try MotusRunner.run(["features", path("zeros.csv"), "-o", path("w.csv")])
    XCTAssertNotEqual(zeros.exitCode, 0)
    XCTAssertTrue(zeros.standardError.contains("looks like binary data"), zeros.standardError)
    XCTAssertLessThan(zeros.standardError.utf8.count, 400)
    let text = "timestamp,label,x\n0,a,1\n"
    let utf16 = Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    try utf16.write(to: URL(fileURLWithPath: path("utf16.csv")))
    let run = try MotusRunner.run(["inspect", path("utf16.csv")])
    XCTAssertTrue(run.standardError.contains("UTF-16 (little-endian)"), run.standardError)
    XCTAssertTrue(run.standardError.contains("iconv -f UTF-16 -t UTF-8"), run.standardError)
  }
}
