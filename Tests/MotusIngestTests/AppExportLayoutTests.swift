// App layouts that fell through to "no column named 'timestamp'": a tab-separated phyphox
// export, a byte-order mark before AndroSensor's `sep=;`, CR-only line ends, lower-case
// Sensor Logger file names and empty sensor files. Each is now read. SYNTHETIC copies of
// the fixtures in Fixtures/AppExports, edited per test.

import Foundation
import MotusData
import MotusTestSupport
import XCTest

final class AppExportLayoutTests: TemporaryFolderTestCase {
  private func fixtureText(_ name: String) throws -> String {
    try String(contentsOfFile: AppFixtures.path(name), encoding: .utf8)
  }

  private func copyFixture(_ name: String) throws -> URL {
    let copy = folder.appendingPathComponent((name as NSString).lastPathComponent)
    try FileManager.default.copyItem(atPath: AppFixtures.path(name), toPath: copy.path)
    return copy
  }

  func testPhyphoxTabSeparated_WithDecimalPointsOrCommas() throws {
    let comma = try fixtureText("synthetic-phyphox-acceleration-with-g/Raw Data.csv")
    let tabs = comma.replacingOccurrences(of: ",", with: "\t")
    for (name, text) in [
      ("tabs.csv", tabs), ("tabs-comma.csv", tabs.replacingOccurrences(of: ".", with: ",")),
    ] {
      let result = try AppFixtures.load([try write(text, name)])
      XCTAssertEqual(result.report.rowsRead, 700, name)
      XCTAssertEqual(try AppFixtures.mean(result, "acceleration.z"), -1, accuracy: 1e-6, name)
    }
  }

  func testByteOrderMarkBeforeSepLine_IsAndroSensor() throws {
    let text = "\u{FEFF}" + (try fixtureText("synthetic-androsensor/synthetic_walking.csv"))
    let result = try AppFixtures.load([try write(text, "bom.csv")])
    XCTAssertEqual(result.report.rowsRead, 30)
    XCTAssertEqual(try AppFixtures.mean(result, "gravity.z"), -1, accuracy: 1e-4)
  }

  func testCarriageReturnLineEnds_AreLines() throws {
    let text = try fixtureText("synthetic-physics-toolbox-linear/synthetic_walking.csv")
      .replacingOccurrences(of: "\r\n", with: "\r")
    let result = try AppFixtures.load([try write(text, "cr.csv")])
    XCTAssertEqual(result.report.rowsRead, 480)
    XCTAssertEqual(try AppFixtures.mean(result, "userAcceleration.x"), 0.1, accuracy: 1e-4)
  }

  func testLowerCaseSensorLoggerNames_AreSensorLogger() throws {
    let copy = try copyFixture("synthetic-sensor-logger-ios")
    for name in try FileManager.default.contentsOfDirectory(atPath: copy.path) {
      try FileManager.default.moveItem(
        at: copy.appendingPathComponent(name), to: copy.appendingPathComponent(name.lowercased()))
    }
    let result = try AppFixtures.load([copy.path])
    XCTAssertTrue(result.report.notes.contains { $0.contains("Sensor Logger folder (iOS") })
    XCTAssertEqual(try AppFixtures.mean(result, "gravity.z"), -1, accuracy: 0.002)
    XCTAssertEqual(result.dataset.recordings[0].pedometer?.cumulativeSteps.last, 20)
  }

  func testEmptySensorFile_IsPassedOverWithANote() throws {
    let logger = try copyFixture("synthetic-sensor-logger-ios")
    try Data().write(to: logger.appendingPathComponent("Gyroscope.csv"))
    let result = try AppFixtures.load([logger.path])
    XCTAssertFalse(result.dataset.channels.contains("rotationRate.x"))
    XCTAssertTrue(result.report.notes.contains { $0.contains("Gyroscope.csv is empty") })
    let phyphox = try copyFixture("synthetic-phyphox-multisensor")
    try Data().write(to: phyphox.appendingPathComponent("Gyroscope.csv"))
    let read = try AppFixtures.load([phyphox.path])
    XCTAssertEqual(try AppFixtures.mean(read, "acceleration.z"), -0.7, accuracy: 0.002)
    XCTAssertTrue(read.report.notes.contains { $0.contains("Gyroscope.csv (empty)") })
  }
}
