// Every phone-app export in ../shared/datasets/app-exports (skipped when absent): each reads with
// no flag but a label; gravity is about 1 g; a still, face-up phone reads Core Motion's sign;
// rates match the folder's README; the jittery Physics Toolbox car file yields windows; the
// phones' pedometers give the counts the README states. GPS values are never printed.

import Foundation
import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class AppExportRealDataTests: XCTestCase {
  private var root: URL { SharedData.root.appendingPathComponent("app-exports") }

  /// Folder -> the README's rate (Hz) of the recording's fastest sensor ('~50 Hz': within 5 %).
  private let rates: [(String, Double)] = [
    ("sensor-logger/android-galaxy-s24-car", 100), ("sensor-logger/ios-iphone14pro-watch-cycling", 20),
    ("sensor-logger/ios-iphone13-walking", 100), ("sensorlog/iphone-walking", 16.8),
    ("sensorlog/iphone-still-on-table", 29.7), ("sensorlog/apple-watch-table-tennis", 28.7),
    ("phyphox/ios-iphone13mini-running-multisensor", 100),
    ("phyphox/android-galaxy-a36-walking-linear-acceleration", 200),
    ("phyphox/acceleration-with-g-walking-pocket", 100),
    ("physics-toolbox/android-gforce-car-fr-locale", 267), ("physics-toolbox/gforce-walking", 50),
    ("physics-toolbox/linear-accelerometer-walking", 69), ("androsensor/walking-2022-10-02", 2),
    ("androsensor/upstairs-2022-10", 2),
  ]

  private func load(_ folder: String) throws -> LoadResult {
    let path = root.appendingPathComponent(folder).path
    guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("\(path) is absent") }
    var options = LoadOptions()
    options.appLabels = AppExportLabels(label: "walking")
    return try DatasetLoader.load([path], options: options)
  }

  func testEveryExport_ReadsWithALabelAtItsRateWithGravityOfOneG() throws {
    for (folder, rate) in rates {
      let result = try load(folder)
      let d = result.dataset
      XCTAssertEqual(d.labels, ["walking"], folder)
      XCTAssertFalse(
        d.channels.contains { $0.lowercased().contains("lat") || $0.lowercased().contains("lon") },
        folder)
      for r in d.recordings where r.sampleCount > 100 {
        XCTAssertEqual(r.sampleRateHz, rate, accuracy: rate * 0.05, folder)
      }
      guard let gx = d.channels.firstIndex(of: "gravity.x") else { continue }
      for r in d.recordings {
        var sum = 0.0
        for t in 0..<r.sampleCount {
          let v = (0..<3).map { Double(r.columns[gx + $0][t]) }
          sum += (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
        }
        XCTAssertEqual(sum / Double(r.sampleCount), 1, accuracy: 0.02, "|gravity| of \(folder)")
      }
    }
  }

  func testStillFaceUpPhone_ReadsCoreMotionSign() throws {
    let result = try load("sensorlog/iphone-still-on-table")
    XCTAssertEqual(try AppFixtures.mean(result, "gravity.z"), -1, accuracy: 0.01)
    XCTAssertEqual(try AppFixtures.mean(result, "acceleration.z"), -0.994, accuracy: 0.01)
    // Android-sign sources, face up or flat: gravity z negative after conversion too.
    let car = try load("physics-toolbox/android-gforce-car-fr-locale")
    XCTAssertEqual(try AppFixtures.mean(car, "acceleration.z"), -1.01, accuracy: 0.03)
    let upstairs = try load("androsensor/upstairs-2022-10")
    XCTAssertLessThan(try AppFixtures.mean(upstairs, "gravity.z"), -0.85)
  }

  func testPhysicsToolboxCar_JitterNoLongerCutsItBelowAWindow() throws {
    let result = try load("physics-toolbox/android-gforce-car-fr-locale")
    var windows = 0
    for r in result.dataset.recordings {
      let length = Int((5.12 * r.sampleRateHz).rounded())
      let hop = length / 3
      if r.sampleCount >= length { windows += (r.sampleCount - length) / hop + 1 }
    }
    XCTAssertGreaterThanOrEqual(windows, 48)
    XCTAssertLessThanOrEqual(result.dataset.recordings.count, 6)  // the README's four long gaps
  }

  func testPedometers_MatchTheREADME() throws {
    let sensorLog = try load("sensorlog/iphone-walking")
    let a = try XCTUnwrap(sensorLog.dataset.recordings[0].pedometer)
    XCTAssertEqual(a.cumulativeSteps.first, 843)
    XCTAssertEqual(a.cumulativeSteps.last, 1009)
    XCTAssertNotNil(a.cadenceStepsPerSecond)

    let logger = try load("sensor-logger/ios-iphone13-walking")
    let r = logger.dataset.recordings[0]
    let b = try XCTUnwrap(r.pedometer)
    XCTAssertEqual(b.cumulativeSteps.last, 40)
    XCTAssertEqual(r.durationSeconds, 22, accuracy: 0.5)
    XCTAssertEqual(try XCTUnwrap(b.steps(from: 0, to: r.timestamps.last!)), 40, accuracy: 1e-9)
  }

  /// The absolute floor of the gap rule leaves the training sources exactly as the relative
  /// rule alone loaded them (the six-class model retrains byte-identical on them).
  func testGapFloor_ChangesNothingOnTrainingSources() throws {
    for url in [SharedData.qrowd, SharedData.pushUps, SharedData.motionSense] {
      guard FileManager.default.fileExists(atPath: url.path) else {
        throw XCTSkip("\(url.path) is absent")
      }
      var relativeOnly = LoadOptions()
      relativeOnly.minimumGapSeconds = 0
      let before = try DatasetLoader.load([url.path], options: relativeOnly)
      let after = try DatasetLoader.load([url.path], options: LoadOptions())
      XCTAssertEqual(after.dataset, before.dataset, url.lastPathComponent)
      XCTAssertEqual(after.report.sessions, before.report.sessions, url.lastPathComponent)
    }
  }
}
