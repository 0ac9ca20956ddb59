// Values in phone-app exports that do not fit: Sensor Logger times beyond 64-bit nanoseconds
// (which trapped), an epoch that overflows, and pedometer counts no phone reaches (which
// trapped `motus evaluate` or were taken as the phone's count). SYNTHETIC copies of the
// fixtures in Fixtures/AppExports, edited per test.

import Foundation
import MotusData
import MotusTestSupport
import XCTest

final class AppExportBoundsTests: TemporaryFolderTestCase {
  /// A copy of the synthetic iOS Sensor Logger folder with `file` replaced by `text`.
  private func sensorLogger(replacing file: String, with text: String) throws -> String {
    let copy = folder.appendingPathComponent("synthetic-sensor-logger-ios")
    try FileManager.default.copyItem(
      atPath: AppFixtures.path("synthetic-sensor-logger-ios"), toPath: copy.path)
    try text.write(to: copy.appendingPathComponent(file), atomically: true, encoding: .utf8)
    return copy.path
  }

  /// Gravity.csv with the time of its third sample (line 4) replaced by `cell`.
  private func gravityWithTime(_ cell: String) throws -> String {
    let original = try String(
      contentsOfFile: AppFixtures.path("synthetic-sensor-logger-ios/Gravity.csv"), encoding: .utf8)
    var lines = original.split(separator: "\n").map(String.init)
    lines[3] = cell + lines[3].drop { $0 != "," }
    return try sensorLogger(replacing: "Gravity.csv", with: lines.joined(separator: "\n") + "\n")
  }

  func testNanosecondsBeyondSixtyFourBits_NameTheCell() throws {
    for cell in ["-9223372036854775808", "-9223372036854775000", "99999999999999999999"] {
      let path = try gravityWithTime(cell)
      XCTAssertThrowsError(try AppFixtures.load([path])) { error in
        XCTAssertTrue("\(error)".contains("Gravity.csv:4:1 ('time')"), "\(error)")
        XCTAssertTrue("\(error)".contains("nanoseconds"), "\(error)")
      }
      try FileManager.default.removeItem(atPath: path)
    }
    // Within 64 bits, one such time is a corrupt cell, set between its neighbours.
    let result = try AppFixtures.load([try gravityWithTime("9223372036854775807")])
    XCTAssertTrue(
      result.report.notes.contains { $0.contains("Gravity.csv (x,y,z): 1 time(s) out of line") },
      "\(result.report.notes)")
  }

  func testEpochBeyondSixtyFourBitNanoseconds_NamesTheCell() throws {
    let path = try sensorLogger(
      replacing: "Metadata.csv",
      with: "version,device name,recording epoch time,platform\n3,iPhone,99999999999999,ios\n")
    XCTAssertThrowsError(try AppFixtures.load([path])) { error in
      XCTAssertTrue("\(error)".contains("Metadata.csv:2:3"), "\(error)")
      XCTAssertTrue("\(error)".contains("beyond what 64-bit nanoseconds hold"), "\(error)")
    }
  }

  func testImplausiblePedometer_IsLeftOutWithANote() throws {
    for steps in ["9223372036854775808", "1e300", "-inf"] {
      let path = try sensorLogger(
        replacing: "Pedometer.csv",
        with:
          "time,seconds_elapsed,steps\n1700000002500000000,2.5,5\n1700000005000000000,5.0,\(steps)\n"
      )
      let result = try AppFixtures.load([path])
      XCTAssertNil(result.dataset.recordings[0].pedometer, steps)
      let notes = result.report.notes.joined(separator: "\n")
      XCTAssertTrue(notes.contains("Pedometer.csv line 3: "), notes)
      XCTAssertTrue(notes.contains("the pedometer reference is not used"), notes)
      try FileManager.default.removeItem(atPath: path)
    }
    // A count that falls is not a pedometer's either.
    let path = try sensorLogger(
      replacing: "Pedometer.csv",
      with: "time,seconds_elapsed,steps\n1700000002500000000,2.5,50\n1700000005000000000,5.0,10\n")
    let result = try AppFixtures.load([path])
    XCTAssertNil(result.dataset.recordings[0].pedometer)
    XCTAssertTrue(result.report.notes.contains { $0.contains("the count falls from 50 to 10") })
  }
}
