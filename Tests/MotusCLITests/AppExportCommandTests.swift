// Phone-app exports through the command line, on the SYNTHETIC fixtures of
// Tests/MotusIngestTests/Fixtures/AppExports: what inspect reports, --label and --label-map, and
// the errors for an unlabelled or unknown recording.

import Foundation

#if canImport(Glibc)
  import Glibc
#endif
import MotusIngest
import MotusTestSupport
import XCTest

final class AppExportCommandTests: TemporaryFolderTestCase {
  private func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("MotusIngestTests/Fixtures/AppExports").appendingPathComponent(name)
      .path
  }

  func testInspect_SaysLayoutConversionsAndIgnoredFiles() throws {
    let run = try MotusRunner.run(["inspect", fixture("synthetic-sensor-logger-android")])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let out = run.standardOutput
    XCTAssertTrue(out.contains("Sensor Logger folder (Android"), out)
    XCTAssertTrue(out.contains("m/s² -> g, Android sign negated, columns z,y,x read by name"), out)
    XCTAssertTrue(out.contains("TotalAcceleration.csv"), out)
    XCTAssertTrue(out.contains("one 100.00 Hz clock"), out)
    XCTAssertTrue(out.contains("Gyroscope.csv absent"), out)
    XCTAssertTrue(out.contains("windows of the default 5.12 s"), out)
  }

  func testInspect_WarnsWhenNoWindowFits() throws {
    let run = try MotusRunner.run([
      "inspect", fixture("synthetic-physics-toolbox-fr"), "--min-gap", "0",
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(run.standardError.contains("yield no window"), run.standardError)
    // Two wall-clock times a second behind (11:42:03:0000 for 11:42:04:0000) are set between
    // their neighbours, no longer dropped, so one hiccup fewer splits the recording.
    XCTAssertTrue(run.standardOutput.contains("note: 231 of 231 recording(s)"), run.standardOutput)
    XCTAssertTrue(run.standardOutput.contains("2 time(s) out of line"), run.standardOutput)
  }

  func testFeatures_LabelAndLabelMap() throws {
    let output = folder.appendingPathComponent("windows.csv").path
    let run = try MotusRunner.run([
      "features", fixture("synthetic-sensor-logger-ios"), fixture("synthetic-sensorlog"),
      "--channels", "acceleration.*", "--sample-rate", "20", "--label", "walking",
      "--label-map", "synthetic-sensor-logger-ios=stationary", "-o", output,
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let table = try String(contentsOfFile: output, encoding: .utf8)
    XCTAssertTrue(table.contains(",stationary,"), table)
    XCTAssertTrue(table.contains(",walking,"), table)
  }

  func testTrain_RefusesAnUnlabelledRecording() throws {
    let run = try MotusRunner.run([
      "train", fixture("synthetic-sensorlog"), "-o", folder.appendingPathComponent("m.motus").path,
    ])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("--label"), run.standardError)
  }

  func testUnknownFile_ErrorListsLayouts() throws {
    let path = try write("a,b\n1,2\n", "mystery.csv")
    let run = try MotusRunner.run(["inspect", path])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("Physics Toolbox"), run.standardError)
    XCTAssertTrue(run.standardError.contains("long layout"), run.standardError)
  }

  func testLabelWithManifest_Refused() throws {
    let run = try MotusRunner.run(["inspect", "--manifest", "x.json", "--label", "walking"])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("--label"), run.standardError)
  }

  func testStream_ReadsAnAppFolder() throws {
    let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
    let run = try MotusRunner.run([
      "stream", model, fixture("synthetic-sensor-logger-ios"), "--format", "csv",
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(run.standardError.contains("Sensor Logger folder (iOS"), run.standardError)
    // 12 s at 50 Hz resampled to the model's 15 Hz: a header and several predictions.
    XCTAssertGreaterThan(run.standardOutput.split(separator: "\n").count, 3, run.standardOutput)
  }

  /// A recording's samples go to the stream as they are: with no temporary folder to write
  /// to, the same lines as its long-layout text streamed from standard input.
  func testStream_AppFolderStreamsAsItsLongLayoutWithoutACopy() throws {
    let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
    let recordingFolder = fixture("synthetic-sensor-logger-ios")
    let recording = try AppExport.read(path: recordingFolder, label: LoadOptions.unlabelled)
    let text = try MotusRunner.run(
      ["stream", model, "-", "--steps"], inputData: Data(recording.longLayout()))
    XCTAssertEqual(text.exitCode, 0, text.standardError)
    let app = try MotusRunner.run(
      ["stream", model, recordingFolder, "--steps"],
      environment: ["TMPDIR": folder.appendingPathComponent("absent").path])
    XCTAssertEqual(app.exitCode, 0, app.standardError)
    XCTAssertGreaterThan(app.standardOutput.split(separator: "\n").count, 3, app.standardOutput)
    XCTAssertTrue(app.standardOutput.contains("\"probabilities\":{"), app.standardOutput)
    XCTAssertEqual(app.standardOutput, text.standardOutput)
    // Its clock is the conversion's: another column as the time is an error naming the flag.
    let timed = try MotusRunner.run(["stream", model, recordingFolder, "--time-column", "label"])
    XCTAssertNotEqual(timed.exitCode, 0)
    XCTAssertTrue(timed.standardError.contains("--time-column label"), timed.standardError)
  }

  /// A Physics Toolbox recording (g-force, 50 Hz, 10 s) written into `folder/name`.
  private func gForceFile(_ name: String, in folder: URL) throws -> String {
    var text = "time,gFx,gFy,gFz,TgF\n"
    for i in 0..<500 { text += "\(Double(i) * 0.02),0.0100,-0.0200,1.00\(i % 7),1.0\n" }
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  private func temporaries(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
  }

  func testSubfolderNamedLikeACSVFile_IsAFolderNotACrash() throws {
    let data = folder.appendingPathComponent("data")
    try FileManager.default.createDirectory(
      at: data.appendingPathComponent("x.csv"), withIntermediateDirectories: true)
    _ = try gForceFile("walk.csv", in: data)
    let output = folder.appendingPathComponent("windows.csv").path
    for command in [["inspect"], ["features", "--label", "walking", "-o", output]] {
      let run = try MotusRunner.run([command[0], data.path] + command.dropFirst())
      XCTAssertEqual(run.exitCode, 0, run.standardError)
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: output))
    XCTAssertEqual(try temporaries(in: folder), [])
  }

  func testFIFOOrUnreadableFileInAFolder_IsAnErrorNamingItAndLeavesNoTemporary() throws {
    let data = folder.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    _ = try gForceFile("walk.csv", in: data)
    let fifo = data.appendingPathComponent("pipe.csv").path
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let output = folder.appendingPathComponent("windows.csv").path
    // A FIFO in a folder is not waited on (nothing will ever write to it).
    let run = try MotusRunner.run(["features", data.path, "--label", "walking", "-o", output])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("pipe.csv"), run.standardError)
    XCTAssertTrue(run.standardError.contains("not a regular file"), run.standardError)
    XCTAssertEqual(try temporaries(in: folder), [])
    try FileManager.default.removeItem(atPath: fifo)
    // Unreadable: only a user other than root is refused by the permissions.
    let locked = try gForceFile("locked.csv", in: data)
    XCTAssertEqual(chmod(locked, 0), 0)
    defer { _ = chmod(locked, 0o644) }
    guard geteuid() != 0 else { return }
    let refused = try MotusRunner.run(["features", data.path, "--label", "walking", "-o", output])
    XCTAssertNotEqual(refused.exitCode, 0)
    XCTAssertTrue(refused.standardError.contains("locked.csv"), refused.standardError)
    XCTAssertTrue(refused.standardError.contains("Permission denied"), refused.standardError)
    XCTAssertEqual(try temporaries(in: folder), [])
  }

  func testEvaluate_PedometerNoPhoneReachesIsLeftOutNotATrap() throws {
    let copy = folder.appendingPathComponent("walk")
    try FileManager.default.copyItem(
      atPath: fixture("synthetic-sensor-logger-ios"), toPath: copy.path)
    try
      "time,seconds_elapsed,steps\n1700000002500000000,2.5,5\n1700000005000000000,5.0,9223372036854775808\n"
      .write(to: copy.appendingPathComponent("Pedometer.csv"), atomically: true, encoding: .utf8)
    let run = try MotusRunner.run(["evaluate", sixClassModel, copy.path, "--label", "walking"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let text = run.standardOutput + run.standardError
    XCTAssertTrue(text.contains("the pedometer reference is not used"), text)
    XCTAssertFalse(text.contains("steps (phone pedometer)"), text)
  }

  private var sixClassModel: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
  }

  func testBenchSteps_TakesARecordingAnAppFolderOrATree() throws {
    let app = folder.appendingPathComponent("sensor-logger")
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    let recording = app.appendingPathComponent("walk").path
    try FileManager.default.copyItem(
      atPath: fixture("synthetic-sensor-logger-ios"), toPath: recording)
    for path in [recording, app.path, folder.path] {
      let run = try MotusRunner.run([
        "bench", "steps", "--model", sixClassModel, "--app-exports", path, "--motion-sense", "",
      ])
      XCTAssertEqual(run.exitCode, 0, run.standardError)
      XCTAssertTrue(
        run.standardOutput.contains("sensor-logger/walk"), path + ": " + run.standardOutput)
    }
  }

  func testBenchSteps_NoRecordingWithAPedometerIsAnError() throws {
    let run = try MotusRunner.run([
      "bench", "steps", "--model", sixClassModel, "--app-exports",
      fixture("synthetic-physics-toolbox-fr"), "--motion-sense", "",
    ])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(
      run.standardError.contains("no phone-app recording with the phone's pedometer"),
      run.standardError)
    XCTAssertTrue(run.standardError.contains("no pedometer: "), run.standardError)
  }

  func testBenchSteps_ARecordingItCannotReadIsAnErrorNamingTheCell() throws {
    let copy = folder.appendingPathComponent("walk")
    try FileManager.default.copyItem(
      atPath: fixture("synthetic-sensor-logger-ios"), toPath: copy.path)
    let gravity = copy.appendingPathComponent("Gravity.csv")
    var lines = try String(contentsOf: gravity, encoding: .utf8).split(separator: "\n").map(
      String.init)
    lines[3] = "-9223372036854775808" + lines[3].drop { $0 != "," }
    try (lines.joined(separator: "\n") + "\n").write(to: gravity, atomically: true, encoding: .utf8)
    let run = try MotusRunner.run([
      "bench", "steps", "--model", sixClassModel, "--app-exports", copy.path, "--motion-sense", "",
    ])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("Gravity.csv:4:1 ('time')"), run.standardError)
  }
}
