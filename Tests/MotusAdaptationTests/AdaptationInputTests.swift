// Bad input to an adaptation: every case throws its own error, with a hint.

import Foundation
import MotusAdaptation
import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels
import XCTest

final class AdaptationInputTests: XCTestCase {
  let model = ModelAdapterTests.model

  func testLabelsTheModelDoesNotKnowAreNamed() throws {
    var windows = try ModelAdapterTests.windows()
    windows.labels[0] = "swim"
    windows.labels[1] = "dance"
    XCTAssertThrowsError(try ModelAdapter.adapt(model, to: windows)) { error in
      XCTAssertEqual(
        error as? AdaptationError,
        .unknownLabels(labels: ["dance", "swim"], classes: ["sit", "walk", "push-up"]))
      XCTAssertTrue("\(error)".contains("Hint:"))
    }
  }

  func testTooFewWindowsOfAClassAreRefused() throws {
    let windows = try ModelAdapterTests.windows()
    let few = windows.rows(Array(0..<3) + Array(30..<60))
    XCTAssertThrowsError(try ModelAdapter.adapt(model, to: few)) { error in
      XCTAssertEqual(
        error as? AdaptationError, .tooFewWindows(label: "push-up", count: 3, minimum: 8))
    }
    XCTAssertThrowsError(try ModelAdapter.adapt(model, to: windows.rows([]))) { error in
      XCTAssertEqual(error as? AdaptationError, .noWindows(windowSeconds: 1.28))
    }
  }

  func testWindowsOfAnotherSpecAreRefused() throws {
    var other = ModelAdapterTests.spec
    other.hopLength = 16
    let windows = try ModelAdapterTests.windows()
    let foreign = try AdaptationWindows(spec: other, features: windows.features, labels: windows.labels)
    XCTAssertThrowsError(try ModelAdapter.adapt(model, to: foreign)) { error in
      guard case .specMismatch = error as? AdaptationError else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(
      try AdaptationWindows(
        spec: ModelAdapterTests.spec, features: Matrix(rowCount: 2, columnCount: 4),
        labels: ["sit", "sit"]))
  }

  /// A recording of `seconds` at `rate` on `channels`, labelled `label` throughout.
  func dataset(rate: Double, channels: [String] = ["acceleration.x"], label: String = "walk")
    -> Dataset
  {
    let count = Int(rate * 4)
    let recording = Recording(
      session: "s1", subject: "p1", source: "mine.csv",
      timestamps: (0..<count).map { Double($0) / rate },
      columns: channels.map { _ in (0..<count).map { Float(sin(Double($0) * 0.3)) } },
      labelIndices: [Int32](repeating: 0, count: count), sampleRateHz: rate)
    return Dataset(channels: channels, labels: [label], recordings: [recording])
  }

  func testSamplesAreWindowedByTheModelsSpec() throws {
    let windows = try AdaptationWindows(dataset: dataset(rate: 50), model: model)
    // 200 samples, windows of 64 every 32: 5 windows.
    XCTAssertEqual(windows.count, 5)
    XCTAssertEqual(windows.labels, Array(repeating: "walk", count: 5))
    XCTAssertEqual(windows.features.columnCount, 3)
  }

  func testDataAtAnotherRateIsRefused() {
    XCTAssertThrowsError(try AdaptationWindows(dataset: dataset(rate: 100), model: model)) {
      XCTAssertEqual(
        $0 as? AdaptationError,
        .sampleRateMismatch(source: "mine.csv", session: "s1", recordingHz: 100, modelHz: 50))
      XCTAssertTrue("\($0)".contains("--sample-rate 50"))
    }
  }

  func testDataOnOtherChannelsIsRefused() {
    XCTAssertThrowsError(
      try AdaptationWindows(dataset: dataset(rate: 50, channels: ["rotationRate.x"]), model: model)
    ) {
      XCTAssertEqual(
        $0 as? AdaptationError,
        .channelMismatch(data: ["rotationRate.x"], model: ["acceleration.x"]))
    }
  }
}
