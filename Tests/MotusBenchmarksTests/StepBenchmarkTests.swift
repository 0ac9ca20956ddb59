// Steps on real recordings (skipped when ../shared/datasets is absent): the figures the README
// quotes from `motus bench steps`.

import Foundation
import MotusData
@testable import MotusIngest
import MotusModels
import MotusTestSupport
import XCTest

@testable import MotusBenchmarks

final class StepBenchmarkTests: XCTestCase {
  private static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("models/six-class.motus")

  private func appRecording(_ path: String) throws -> Recording {
    var options = LoadOptions()
    options.channelPatterns = ["acceleration.*"]
    options.appLabels = AppExportLabels(label: "walking")
    let url = SharedData.root.appendingPathComponent("app-exports/" + path)
    let recordings = try DatasetLoader.load([url.path], options: options).dataset.recordings
    return try XCTUnwrap(recordings.first { $0.pedometer != nil }, "\(path) has a pedometer")
  }

  func testPhoneWalks_CountWithinFivePercentOfThePhonesPedometer() throws {
    guard SharedData.isAvailable else { throw XCTSkip("../shared/datasets is absent") }
    let model = try ModelFile.read(from: Self.model)
    let recordings = try [
      appRecording("sensorlog/iphone-walking/2025-03-11_14_44_11_my_iOS_device.csv"),
      appRecording("sensor-logger/ios-iphone13-walking"),
    ]
    let results = try StepBenchmark.counts(
      model: model, recordings: recordings,
      channels: ["acceleration.x", "acceleration.y", "acceleration.z"])
    XCTAssertEqual(results.count, 2)
    for r in results {
      let error = try XCTUnwrap(r.error(r.learned))
      XCTAssertLessThanOrEqual(abs(error), 0.05, "\(r.recording): \(r.learned) vs \(r.reference)")
      XCTAssertNotNil(r.tunedThreshold, "tuned on the other walk")
    }
  }

  func testMotionSense_CadenceInRangeAndNoStepsAtRest() throws {
    guard SharedData.isAvailable else { throw XCTSkip("../shared/datasets is absent") }
    let model = try ModelFile.read(from: Self.model)
    var options = LoadOptions()
    options.channelPatterns = ["acceleration.*"]
    options.keepLabels = ["walking", "jogging", "sitting", "standing"]
    let dataset = try DatasetLoader.load([SharedData.motionSense.path], options: options).dataset
    let results = try StepBenchmark.cadences(
      model: model, dataset: dataset,
      ranges: ["walking": 90...130, "jogging": 140...200, "sitting": nil, "standing": nil])
    let byLabel = Dictionary(uniqueKeysWithValues: results.map { ($0.label, $0) })
    XCTAssertGreaterThanOrEqual(try XCTUnwrap(byLabel["jogging"]?.fractionInRange), 0.95)
    // Walking: two of the 20 people walk at 130-137 steps/min (README), so the share is lower.
    XCTAssertGreaterThanOrEqual(try XCTUnwrap(byLabel["walking"]?.fractionInRange), 0.9)
    for label in ["sitting", "standing"] {
      XCTAssertLessThanOrEqual(try XCTUnwrap(byLabel[label]?.stepsPerMinute), 1, label)
    }
  }
}
