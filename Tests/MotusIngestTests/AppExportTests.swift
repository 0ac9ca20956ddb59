// Phone-app readers on the SYNTHETIC fixtures in Fixtures/AppExports (see its README): each
// imitates one app's layout with a still, face-up phone and distinct per-axis values, so a
// wrong unit, sign or axis order shows as a wrong mean.

import Foundation
import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

/// Synthetic fixture folder and loading helpers shared by the app-export tests.
enum AppFixtures {
  static var root: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/AppExports")
  }
  static func path(_ name: String) -> String { root.appendingPathComponent(name).path }

  static func load(_ paths: [String], label: String? = "walking", options: LoadOptions = LoadOptions())
    throws -> LoadResult
  {
    var o = options
    o.appLabels = AppExportLabels(label: label)
    return try DatasetLoader.load(paths, options: o)
  }

  /// Mean of `channel` over every sample of every recording.
  static func mean(_ result: LoadResult, _ channel: String) throws -> Double {
    let c = try XCTUnwrap(result.dataset.channels.firstIndex(of: channel), "no \(channel)")
    var sum = 0.0
    var n = 0
    for r in result.dataset.recordings {
      for v in r.columns[c] {
        sum += Double(v)
        n += 1
      }
    }
    return sum / Double(max(n, 1))
  }
}

final class AppExportTests: XCTestCase {
  private func assertMeans(
    _ result: LoadResult, _ group: String, _ expected: [Double], accuracy: Double = 0.002,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    for (axis, value) in zip(["x", "y", "z"], expected) {
      XCTAssertEqual(
        try AppFixtures.mean(result, "\(group).\(axis)"), value, accuracy: accuracy,
        "\(group).\(axis)", file: file, line: line)
    }
  }

  func testSensorLoggerIOS_UnitsAxisOrderPedometer() throws {
    let result = try AppFixtures.load([AppFixtures.path("synthetic-sensor-logger-ios")])
    let d = result.dataset
    XCTAssertEqual(d.recordings.count, 1)
    XCTAssertEqual(d.labels, ["walking"])
    XCTAssertEqual(d.recordings[0].session, "synthetic-sensor-logger-ios")
    XCTAssertEqual(d.recordings[0].subject, "synthetic-sensor-logger-ios")
    XCTAssertEqual(d.recordings[0].sampleRateHz, 50, accuracy: 0.01)
    XCTAssertFalse(d.channels.contains { $0.lowercased().contains("lat") })
    try assertMeans(result, "userAcceleration", [0.1, 0.2, 0.3])
    try assertMeans(result, "gravity", [0, 0, -1])
    try assertMeans(result, "rotationRate", [0.01, 0.02, 0.03])
    try assertMeans(result, "acceleration", [0.1, 0.2, -0.7])
    let pedometer = try XCTUnwrap(d.recordings[0].pedometer)
    XCTAssertEqual(pedometer.cumulativeSteps, [0, 5, 10, 15, 20])
    XCTAssertEqual(pedometer.times, [0, 2.5, 5, 7.5, 10])
    XCTAssertEqual(try XCTUnwrap(pedometer.steps(from: 0, to: 12)), 20)
    XCTAssertTrue(result.report.notes.contains { $0.contains("Location.csv (GPS, never read)") })
  }

  func testSensorLoggerAndroid_SignFlippedSlowerSensorJoinedMissingFileTolerated() throws {
    let result = try AppFixtures.load([AppFixtures.path("synthetic-sensor-logger-android")])
    let d = result.dataset
    XCTAssertEqual(d.recordings.count, 1)
    XCTAssertEqual(d.recordings[0].sampleRateHz, 100, accuracy: 0.01)
    XCTAssertFalse(d.channels.contains("rotationRate.x"))
    try assertMeans(result, "gravity", [0, 0, -1])
    try assertMeans(result, "userAcceleration", [0.1, 0.2, 0.3])
    // TotalAcceleration runs at ~59 Hz with jitter and is interpolated onto the 100 Hz clock.
    try assertMeans(result, "acceleration", [0.1, 0.2, -0.7])
    XCTAssertTrue(result.report.notes.contains { $0.contains("Gyroscope.csv absent") })
    XCTAssertTrue(result.report.notes.contains { $0.contains("Android sign negated") })
  }

  func testSensorLog_GUnitsTwoClocksPedometer() throws {
    let result = try AppFixtures.load([AppFixtures.path("synthetic-sensorlog")])
    let r = result.dataset.recordings[0]
    XCTAssertEqual(r.session, "2024-01-02_10_00_00_synthetic_device")
    XCTAssertEqual(r.sampleRateHz, 20, accuracy: 0.01)
    try assertMeans(result, "userAcceleration", [0.1, 0.2, 0.3])
    try assertMeans(result, "gravity", [0, 0, -1])
    try assertMeans(result, "acceleration", [0.1, 0.2, -0.7])
    XCTAssertEqual(try AppFixtures.mean(result, "attitude.yaw"), 0.5, accuracy: 1e-6)
    let pedometer = try XCTUnwrap(r.pedometer)
    XCTAssertEqual(pedometer.cumulativeSteps.first, 100)
    XCTAssertEqual(pedometer.cumulativeSteps.last, 114)
    XCTAssertEqual(pedometer.cadenceStepsPerSecond?.first, 2)
    // Counts refer to pedometerEndDate: 100 at 10:00:00.5, the first logging row (time 0).
    XCTAssertEqual(pedometer.times[0], 0, accuracy: 1e-9)
    XCTAssertEqual(try XCTUnwrap(pedometer.steps(from: 1, to: 3)), 4, accuracy: 1e-9)
  }

  func testPhyphoxFolder_AndroidSignOnEveryPlatform() throws {
    let result = try AppFixtures.load([AppFixtures.path("synthetic-phyphox-multisensor")])
    XCTAssertEqual(result.dataset.recordings[0].sampleRateHz, 50, accuracy: 0.01)
    try assertMeans(result, "acceleration", [0.1, 0.2, -0.7])
    try assertMeans(result, "userAcceleration", [0.1, 0.2, 0.3])
    try assertMeans(result, "rotationRate", [0.01, 0.02, 0.03])
    XCTAssertTrue(result.report.notes.contains { $0.contains("Barometer.csv (not a motion sensor)") })
  }

  func testPhyphoxSingleFile_NegativeFirstTimeNoFinalNewline() throws {
    let result = try AppFixtures.load([AppFixtures.path("synthetic-phyphox-acceleration-with-g")])
    XCTAssertEqual(result.report.rowsRead, 700)
    try assertMeans(result, "acceleration", [0, 0, -1], accuracy: 1e-6)
  }

  func testPhysicsToolboxFrench_DecimalCommasJitterBridgedGapSplit() throws {
    let path = AppFixtures.path("synthetic-physics-toolbox-fr/2024-01-0211.41.59.csv")
    let result = try AppFixtures.load([path])
    let recordings = result.dataset.recordings
    // Two 6 s stretches around the 5 s gap; the 3-13 ms hiccups split nothing.
    XCTAssertEqual(recordings.count, 2)
    for r in recordings {
      XCTAssertEqual(r.sampleRateHz, 250, accuracy: 1)
      XCTAssertGreaterThan(r.durationSeconds, 5.9)
    }
    XCTAssertEqual(try AppFixtures.mean(result, "acceleration.z"), -1, accuracy: 0.01)
    XCTAssertEqual(try AppFixtures.mean(result, "acceleration.x"), 0, accuracy: 1e-6)
    // The same steps split at every hiccup under the rule without an absolute floor.
    var noFloor = LoadOptions()
    noFloor.minimumGapSeconds = 0
    let split = try AppFixtures.load([path], options: noFloor)
    XCTAssertGreaterThan(split.dataset.recordings.count, 100)
  }

  func testPhysicsToolboxLinear_CRLF() throws {
    let result = try AppFixtures.load([AppFixtures.path("synthetic-physics-toolbox-linear")])
    XCTAssertEqual(result.report.rowsRead, 480)
    XCTAssertEqual(result.dataset.channels, ["userAcceleration.x", "userAcceleration.y", "userAcceleration.z"])
    try assertMeans(result, "userAcceleration", [0.1, 0.2, 0.3], accuracy: 1e-4)
  }

  func testAndroSensor_SepLineTwoHertz() throws {
    let result = try AppFixtures.load([AppFixtures.path("synthetic-androsensor")])
    XCTAssertEqual(result.report.rowsRead, 30)
    XCTAssertEqual(result.dataset.recordings[0].sampleRateHz, 2, accuracy: 0.01)
    try assertMeans(result, "gravity", [0, 0, -1], accuracy: 1e-4)
    try assertMeans(result, "acceleration", [0.1, 0.2, -0.7], accuracy: 1e-4)
    try assertMeans(result, "userAcceleration", [0.1, 0.2, 0.3], accuracy: 1e-4)
  }

  func testFolderOfRecordings_LabelMapByFolderName() throws {
    var options = LoadOptions()
    options.appLabels = AppExportLabels(
      label: "walking", byName: ["synthetic-androsensor": "automotive"])
    let result = try DatasetLoader.load(
      [AppFixtures.path("synthetic-androsensor"), AppFixtures.path("synthetic-sensorlog")],
      options: options)
    let d = result.dataset
    let labelOf = Dictionary(
      d.recordings.map { ($0.session, d.labels[Int($0.labelIndices[0])]) },
      uniquingKeysWith: { a, _ in a })
    XCTAssertEqual(labelOf["synthetic_walking"], "automotive")
    XCTAssertEqual(labelOf["2024-01-02_10_00_00_synthetic_device"], "walking")
    // The parent folder: every recording below it, one per folder or file.
    var unlabelled = LoadOptions()
    unlabelled.requireLabels = false
    let all = try DatasetLoader.read([AppFixtures.root.path], options: unlabelled)
    XCTAssertEqual(all.count, 8)
    XCTAssertTrue(all.allSatisfy { $0.appExport != nil })
  }

  func testLabels_RequiredAndMapKeysChecked() throws {
    let path = AppFixtures.path("synthetic-sensorlog")
    var options = LoadOptions()
    XCTAssertThrowsError(try DatasetLoader.load([path], options: options)) { error in
      XCTAssertTrue("\(error)".contains("--label"), "\(error)")
    }
    options.requireLabels = false
    XCTAssertEqual(try DatasetLoader.load([path], options: options).dataset.labels, ["unlabelled"])
    options.appLabels = AppExportLabels(byName: ["no-such-recording": "walking"])
    XCTAssertThrowsError(try DatasetLoader.load([path], options: options)) { error in
      XCTAssertTrue("\(error)".contains("no-such-recording"), "\(error)")
    }
  }

  func testLabelOnLongLayoutFiles_Refused() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("long.csv")
    try Data("timestamp,session,subject,label,acceleration.x\n0,s,1,w,1\n0.1,s,1,w,2\n".utf8)
      .write(to: file)
    XCTAssertNoThrow(try DatasetLoader.load([file.path], options: LoadOptions()))
    XCTAssertThrowsError(try AppFixtures.load([file.path])) { error in
      XCTAssertTrue("\(error)".contains("--label-column"), "\(error)")
    }
  }

  func testUnknownLayout_ErrorNamesKnownLayouts() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("mystery.csv")
    try Data("foo,bar\n1,2\n".utf8).write(to: file)
    XCTAssertThrowsError(try DatasetLoader.load([file.path], options: LoadOptions())) { error in
      let text = "\(error)"
      for name in ["long layout", "Sensor Logger", "SensorLog", "phyphox", "Physics Toolbox", "AndroSensor"] {
        XCTAssertTrue(text.contains(name), "\(name) missing from: \(text)")
      }
    }
  }

  func testBadCell_NamesFileLineAndColumn() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("ptb.csv")
    try Data("time;gFx;gFy;gFz;TgF\n0,01;0,1;0;1;1\n0,02;zwei;0;1;1\n".utf8).write(to: file)
    XCTAssertThrowsError(try AppFixtures.load([file.path])) { error in
      guard case CSVError.nonNumeric(let text, let at) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(text, "zwei")
      XCTAssertEqual(at.line, 3)
      XCTAssertEqual(at.column, 2)
      XCTAssertEqual(at.columnName, "gFx")
    }
  }
}

final class GapRuleTests: XCTestCase {
  func testGap_NeedsBothRelativeAndAbsoluteLength() {
    let rule = GapRule(gapFactor: 3, minimumGapSeconds: 0.25)
    XCTAssertFalse(rule.isGap(step: 0.009, typicalStep: 0.004))  // a hiccup at 250 Hz
    XCTAssertTrue(rule.isGap(step: 4.7, typicalStep: 0.004))
    XCTAssertFalse(rule.isGap(step: 0.3, typicalStep: 0.5))  // a 2 Hz logger's late row
    XCTAssertTrue(rule.isGap(step: 1.6, typicalStep: 0.5))
    XCTAssertFalse(rule.isGap(step: 10, typicalStep: 0))
    XCTAssertEqual(rule.pieces(times: [0, 0.004, 0.013, 5, 5.004], typicalStep: 0.004), [0..<3, 3..<5])
    XCTAssertTrue(rule.bridgesJitter(times: [0, 0.004, 0.024, 0.028], typicalStep: 0.004))
    XCTAssertFalse(rule.bridgesJitter(times: [0, 0.004, 0.008], typicalStep: 0.004))
  }

  func testLongLayout_JitterBridgedAndResampled() throws {
    // SYNTHETIC: 100 Hz with one 50 ms hiccup, a gap under the 0.25 s floor.
    var text = "timestamp,session,subject,label,acceleration.x\n"
    var t = 0.0
    for i in 0..<600 {
      text += "\(t),s,1,walking,\(Double(i % 7) * 0.01)\n"
      t += i == 300 ? 0.05 : 0.01
    }
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("jitter.csv")
    try Data(text.utf8).write(to: file)
    let result = try DatasetLoader.load([file.path], options: LoadOptions())
    XCTAssertEqual(result.dataset.recordings.count, 1)
    let r = result.dataset.recordings[0]
    XCTAssertEqual(r.sampleRateHz, 100, accuracy: 0.01)
    XCTAssertEqual(r.sampleCount, 604)  // the 50 ms step filled by four grid samples
    XCTAssertTrue(result.report.notes.contains { $0.contains("bridged and resampled") })
  }
}

final class PedometerReferenceTests: XCTestCase {
  func testInterpolatesHoldsAndRefusesBeforeFirst() {
    let p = PedometerReference(times: [0, 2, 4], cumulativeSteps: [10, 14, 20], source: "synthetic")
    XCTAssertNil(p.cumulativeSteps(at: -1))
    XCTAssertEqual(p.cumulativeSteps(at: 1), 12)
    XCTAssertEqual(p.cumulativeSteps(at: 9), 20)
    XCTAssertEqual(p.steps(from: 1, to: 3), 5)
    XCTAssertNil(p.steps(from: -1, to: 3))
  }
}
