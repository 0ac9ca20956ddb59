// The one clock rule for phone-app exports (`AppClock`, `AppExportJoin`): times that step
// back, repeat or jump are repaired with a note or refused, never dropped in silence; a
// sensor cut short is noted; the common clock is bounded; recordings in subfolders are found
// beside CSV files. SYNTHETIC data, written per test.

import Foundation
import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class AppExportClockTests: TemporaryFolderTestCase {
  private func load(_ path: String, options: LoadOptions = LoadOptions()) throws -> LoadResult {
    var o = options
    o.appLabels = AppExportLabels(label: "walking")
    return try DatasetLoader.load([path], options: o)
  }

  private func notes(_ result: LoadResult) -> String { result.report.notes.joined(separator: "\n") }

  /// A phone still face up: g-force (Android sign) about +1 g on z, 50 Hz.
  private func gForceRow(_ time: String, _ i: Int) -> String {
    "\(time),0.0100,-0.0200,\(String(format: "%.4f", 1 + 0.001 * Double(i % 7))),1.00\n"
  }

  /// Sensor Logger (iOS) folder: Accelerometer, Gravity and Metadata, times from `times(i)`.
  private func sensorLogger(
    _ name: String, rows: Int, gravityRows: Int? = nil, times: (Int) -> Int64
  ) throws -> String {
    let folder = self.folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let epoch: Int64 = 1_700_000_000_000
    var accelerometer = "time,seconds_elapsed,z,y,x\n"
    var gravity = "time,seconds_elapsed,z,y,x\n"
    for i in 0..<rows {
      let ns = epoch * 1_000_000 + times(i)
      accelerometer += "\(ns),0,0.3,0.2,0.1\n"
      if i < (gravityRows ?? rows) { gravity += "\(ns),0,-9.80665,0,0\n" }
    }
    try accelerometer.write(
      to: folder.appendingPathComponent("Accelerometer.csv"), atomically: true, encoding: .utf8)
    try gravity.write(
      to: folder.appendingPathComponent("Gravity.csv"), atomically: true, encoding: .utf8)
    try "version,device name,recording epoch time,platform\n3,iPhone,\(epoch),ios\n"
      .write(to: folder.appendingPathComponent("Metadata.csv"), atomically: true, encoding: .utf8)
    return folder.path
  }

  func testDaylightSavingFallBack_KeepsEveryRowAndSaysWhere() throws {
    // 01:59:50 to 01:59:59.98, then the clock falls back to 01:00:00: 20 s at 50 Hz.
    var text = "time,gFx,gFy,gFz,TgF\n"
    for i in 0..<1000 {
      let seconds = (i < 500 ? 7190 : 3600 - 500 * 0.02) + Double(i) * 0.02
      let (h, m, s) = (Int(seconds) / 3600, Int(seconds) / 60 % 60, Int(seconds) % 60)
      let fraction = Int(((seconds - seconds.rounded(.down)) * 10_000).rounded())
      text += gForceRow(String(format: "%02d:%02d:%02d:%04d", h, m, s, fraction), i)
    }
    let result = try load(try write(text, "fall-back.csv"))
    XCTAssertEqual(result.dataset.recordings.count, 1)
    let r = result.dataset.recordings[0]
    XCTAssertEqual(r.durationSeconds, 19.98, accuracy: 0.05, "the hour after the change is kept")
    XCTAssertTrue(notes(result).contains("the clock steps back 3600 s at line 502"), notes(result))
    // Every command warns of it, not only inspect.
    XCTAssertTrue(result.report.warnings.contains { $0.contains("steps back 3600 s") })
  }

  func testClockJumpingForward_SplitsThereAndSaysHowFar() throws {
    // Spring forward: 10 s, the wall clock jumps an hour, 10 s more.
    var text = "time,gFx,gFy,gFz,TgF\n"
    for i in 0..<1000 { text += gForceRow(String(Double(i) * 0.02 + (i >= 500 ? 3600 : 0)), i) }
    let result = try load(try write(text, "spring-forward.csv"))
    XCTAssertEqual(result.dataset.recordings.count, 2)
    XCTAssertEqual(result.report.rowsRead, 1000)
    XCTAssertTrue(notes(result).contains("split at 1 gap(s)"), notes(result))
    XCTAssertTrue(notes(result).contains("(the longest 3600 s, at 10.0 s)"), notes(result))
  }

  func testFiveSecondCorrection_InEverySensorFileIsRepaired() throws {
    // 100 Hz for 10 s; at 5 s the clock is set back by 5 s.
    let path = try sensorLogger("corrected", rows: 1000) { i in
      Int64(i) * 10_000_000 - (i >= 500 ? 5_000_000_000 : 0)
    }
    let result = try load(path)
    XCTAssertEqual(result.dataset.recordings.count, 1)
    XCTAssertEqual(result.dataset.recordings[0].durationSeconds, 9.99, accuracy: 0.02)
    XCTAssertTrue(
      notes(result).contains("Accelerometer.csv (x,y,z): the clock steps back 4.99 s at line 502"),
      notes(result))
    XCTAssertTrue(
      notes(result).contains("Gravity.csv (x,y,z): the clock steps back 4.99 s"), notes(result))
  }

  func testOneCorruptTimeAndRepeats_AreRepairedWithNotes() throws {
    var text =
      "\"Time (s)\",\"Acceleration x (m/s^2)\",\"Acceleration y (m/s^2)\",\"Acceleration z (m/s^2)\"\n"
    for i in 0..<600 {
      var t = Double(i) / 100
      if i == 300 { t = 86_400 }  // one corrupt cell
      if i == 400 || i == 401 { t = 3.99 }  // logged twice more
      text += "\(t),0.1,0.2,9.80665\n"
    }
    let result = try load(try write(text, "Raw Data.csv"))
    XCTAssertEqual(result.dataset.recordings.count, 1)
    XCTAssertEqual(result.dataset.recordings[0].durationSeconds, 5.99, accuracy: 0.02)
    XCTAssertTrue(
      notes(result).contains(
        "1 time(s) out of line with their neighbours (first at line 302: 86400.0 s)"), notes(result)
    )
    XCTAssertTrue(notes(result).contains("2 repeated time(s) dropped"), notes(result))
  }

  func testRowsOutOfTimeOrder_AreRefused() throws {
    var text = "time,gFx,gFy,gFz,TgF\n"
    for i in 0..<400 { text += gForceRow(String(Double((i * 37) % 400) * 0.02), i) }
    XCTAssertThrowsError(try load(try write(text, "shuffled.csv"))) { error in
      XCTAssertTrue("\(error)".contains("the time goes back"), "\(error)")
      XCTAssertTrue("\(error)".contains("sort the rows by time"), "\(error)")
    }
  }

  func testSensorCutShort_SaysWhereEverySensorIsCut() throws {
    // Gravity.csv ends after 3 s of the 10 s the accelerometer logged.
    let path = try sensorLogger("truncated", rows: 1000, gravityRows: 300) {
      Int64($0) * 10_000_000
    }
    let result = try load(path)
    XCTAssertEqual(result.dataset.recordings[0].durationSeconds, 2.99, accuracy: 0.02)
    XCTAssertTrue(
      notes(result).contains("Gravity.csv (x,y,z) ends at 3.0 s, 7.0 s before the last sensor"),
      notes(result))
    XCTAssertTrue(
      notes(result).contains("kept 0.0 s-3.0 s, where every sensor has samples, of 0.0 s-10.0 s"),
      notes(result))
  }

  func testMicrosecondSteps_AreRefusedBeforeAnyAllocation() throws {
    // Bursts of rows a microsecond apart, 0.2 s between bursts: a 1 MHz "clock".
    var text = "time,gFx,gFy,gFz,TgF\n"
    for burst in 0..<200 {
      for k in 0..<10 {
        text += gForceRow(String(format: "%.6f", Double(burst) * 0.2 + Double(k) * 1e-6), k)
      }
    }
    XCTAssertThrowsError(try load(try write(text, "microseconds.csv"))) { error in
      XCTAssertTrue("\(error)".contains("outside 0.1...10000 Hz"), "\(error)")
    }
    // Within the rate limits, bursts 1 ms apart would still make 20 samples per row read.
    text = "time,gFx,gFy,gFz,TgF\n"
    for burst in 0..<200 {
      for k in 0..<10 {
        text += gForceRow(String(format: "%.4f", Double(burst) * 0.2 + Double(k) * 1e-3), k)
      }
    }
    XCTAssertThrowsError(try load(try write(text, "bursts.csv"))) { error in
      XCTAssertTrue("\(error)".contains("come in bursts"), "\(error)")
    }
  }

  func testRecordingsInSubfolders_AreFoundBesideCSVFiles() throws {
    var text = "time,gFx,gFy,gFz,TgF\n"
    for i in 0..<300 { text += gForceRow(String(Double(i) * 0.02), i) }
    _ = try write(text, "top.csv")
    let sub = folder.appendingPathComponent("rides/morning")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    try text.write(to: sub.appendingPathComponent("ride.csv"), atomically: true, encoding: .utf8)
    let result = try load(folder.path)
    XCTAssertEqual(Set(result.dataset.recordings.map(\.session)), ["top", "ride"])
  }
}
