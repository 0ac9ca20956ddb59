// InputAdapter: a CSV header mapped onto a model's raw inputs, checked against what the batch
// loader computes for training from the same text (small synthetic values, not data).

import Foundation
import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class InputAdapterTests: XCTestCase {
  private var folder: CSVFolder!

  override func setUpWithError() throws { folder = try CSVFolder() }
  override func tearDown() { folder.remove() }

  private let deviceMotionHeader = [
    "timestamp", "session", "subject", "label", "userAcceleration.x", "userAcceleration.y",
    "userAcceleration.z", "gravity.x", "gravity.y", "gravity.z", "rotationRate.x",
  ]

  /// Rows of `header`'s numeric columns, 50 Hz, values that are not exact in binary.
  private func csv(header: [String], rows: Int = 8) -> (text: String, rows: [[Double]]) {
    var text = header.joined(separator: ",") + "\n"
    var values: [[Double]] = []
    for t in 0..<rows {
      let row = (4..<header.count).map { c in 0.1 * Double(c) + 0.013 * Double(t * t) - 0.7 }
      values.append(row)
      text += "\(Double(t) * 0.02),s1,1,walking," + row.map { "\($0)" }.joined(separator: ",")
        + "\n"
    }
    return (text, values)
  }

  /// The model's view: per-sample channels computed through the adapter and `ChannelPlan`.
  private func streamed(
    recipes: [ChannelRecipe], header: [String], rows: [[Double]], negate: Bool
  ) throws -> [[Float]] {
    let inputs = ChannelSelector.rawInputs(of: recipes)
    let adapter = try InputAdapter(
      modelInputs: inputs, header: header, file: "x.csv", negateAcceleration: negate,
      modelNegatesAcceleration: InputAdapter.modelNegatesAcceleration(recipes))
    let plan = try ChannelPlan(recipes: recipes, rawChannels: inputs)
    var raw = [Float](repeating: 0, count: inputs.count)
    var out = [Float](repeating: 0, count: recipes.count)
    var columns = [[Float]](repeating: [], count: recipes.count)
    for row in rows {
      // Row values start at CSV column 4.
      raw.withUnsafeMutableBufferPointer { buffer in
        adapter.apply({ $0 >= 4 ? row[$0 - 4] : nil }, into: buffer)
      }
      raw.withUnsafeBufferPointer { r in
        out.withUnsafeMutableBufferPointer { plan.apply(raw: r, into: $0) }
      }
      for c in 0..<recipes.count { columns[c].append(out[c]) }
    }
    return columns
  }

  private func loaded(_ text: String, patterns: [String], negate: Bool) throws -> LoadResult {
    let path = try folder.write("in.csv", text)
    return try DatasetLoader.load([path], options: options {
      $0.channelPatterns = patterns
      $0.negateAcceleration = negate
    })
  }

  /// An acceleration-only model's recipes, as a manifest such as six-class writes them.
  private let accelerationRecipes: [ChannelRecipe] = [
    .copy("acceleration.x"), .copy("acceleration.y"), .copy("acceleration.z"),
    ChannelRecipe(
      name: "|acceleration|", operation: .magnitude,
      inputs: ["acceleration.x", "acceleration.y", "acceleration.z"]),
  ]

  func testAdapter_DerivedAccelerationAndMagnitudeEqualTraining() throws {
    let (text, rows) = csv(header: deviceMotionHeader)
    let training = try loaded(text, patterns: ["acceleration.*", "|acceleration|"], negate: false)
    XCTAssertEqual(training.dataset.channels, accelerationRecipes.map(\.name))
    let stream = try streamed(
      recipes: accelerationRecipes, header: deviceMotionHeader, rows: rows, negate: false)
    for c in 0..<4 {
      XCTAssertEqual(stream[c], training.dataset.recordings[0].columns[c], "channel \(c)")
    }
    // And the derived values are the sum, not a copy of one part.
    XCTAssertEqual(stream[0][3], Float(rows[3][0]) + Float(rows[3][3]))
  }

  func testAdapter_NegatedRawAccelerationAndMagnitudeEqualTraining() throws {
    let header = ["timestamp", "session", "subject", "label"]
      + ["acceleration.x", "acceleration.y", "acceleration.z", "rotationRate.x"]
    let (text, rows) = csv(header: header)
    let training = try loaded(
      text, patterns: ["acceleration.*", "|acceleration|", "rotationRate.x"], negate: true)
    let recipes = accelerationRecipes + [.copy("rotationRate.x")]
    let stream = try streamed(recipes: recipes, header: header, rows: rows, negate: true)
    for c in 0..<5 {
      XCTAssertEqual(stream[c], training.dataset.recordings[0].columns[c], "channel \(c)")
    }
    XCTAssertEqual(stream[0][2], -Float(rows[2][0]))
    XCTAssertEqual(stream[4][2], Float(rows[2][3]), "only acceleration is negated")
  }

  func testAdapter_RawAccelerationIsPreferredOverDerived() throws {
    let header = deviceMotionHeader + ["acceleration.x", "acceleration.y", "acceleration.z"]
    let adapter = try InputAdapter(
      modelInputs: ["acceleration.x", "acceleration.y", "acceleration.z"], header: header,
      file: "x.csv", negateAcceleration: false)
    XCTAssertEqual(adapter.sources, [
      .column("acceleration.x", scale: 1), .column("acceleration.y", scale: 1),
      .column("acceleration.z", scale: 1),
    ])
    XCTAssertEqual(adapter.adaptations, [])
    XCTAssertEqual(adapter.columns, [11, 12, 13])
  }

  func testAdapter_ModelTrainedOnAndroidSignGetsAndroidSignInput() throws {
    // Trained with --negate-acceleration on an Android file: its recipes flip the sign.
    let header = ["timestamp", "session", "subject", "label"]
      + ["acceleration.x", "acceleration.y", "acceleration.z"]
    let (text, rows) = csv(header: header)
    let training = try loaded(text, patterns: ["acceleration.*"], negate: true)
    let recipes = training.recipes
    XCTAssertTrue(InputAdapter.modelNegatesAcceleration(recipes))
    let android = try streamed(recipes: recipes, header: header, rows: rows, negate: true)
    XCTAssertEqual(android, training.dataset.recordings[0].columns)
    // The same motion in Core Motion sign, without the flag, gives the same channels.
    let coreMotion = rows.map { $0.map { -$0 } }
    XCTAssertEqual(
      try streamed(recipes: recipes, header: header, rows: coreMotion, negate: false), android)
    // Derived acceleration (Core Motion sign) is flipped for this model too.
    let adapter = try InputAdapter(
      modelInputs: ["acceleration.x"], header: deviceMotionHeader, file: "x.csv",
      negateAcceleration: false, modelNegatesAcceleration: true)
    XCTAssertEqual(adapter.sources, [.sum("gravity.x", "userAcceleration.x", scale: -1)])
  }

  func testAdapter_EmptyCellGivesNaN() throws {
    let adapter = try InputAdapter(
      modelInputs: ["acceleration.x", "rotationRate.x"], header: deviceMotionHeader,
      file: "x.csv", negateAcceleration: false)
    var out: [Float] = [0, 0]
    // gravity.x (column 7) empty: the derived value is missing, rotationRate.x is not.
    out.withUnsafeMutableBufferPointer { buffer in
      adapter.apply({ $0 == 7 ? nil : 0.5 }, into: buffer)
    }
    XCTAssertTrue(out[0].isNaN)
    XCTAssertEqual(out[1], 0.5)
  }

  func testAdapter_MissingInputNamesFileColumnAndAlternatives() {
    let header = ["timestamp", "gravity.x", "userAcceleration.y"]
    XCTAssertThrowsError(
      try InputAdapter(
        modelInputs: ["acceleration.x"], header: header, file: "walk.csv",
        negateAcceleration: false)
    ) { error in
      let text = "\(error)"
      XCTAssertEqual(
        error as? InputAdapterError,
        .missingInput(
          file: "walk.csv", input: "acceleration.x",
          alternatives: ["gravity.x", "userAcceleration.x"], available: header))
      XCTAssertTrue(text.hasPrefix("walk.csv: no column named 'acceleration.x'"), text)
      XCTAssertTrue(text.contains("needs acceleration.x or gravity.x + userAcceleration.x"), text)
      XCTAssertTrue(text.contains("HINT: "), text)
    }
    XCTAssertThrowsError(
      try InputAdapter(
        modelInputs: ["userAcceleration.x"], header: header, file: "walk.csv",
        negateAcceleration: false)
    ) { error in
      XCTAssertTrue("\(error)".contains("acceleration only"), "\(error)")
    }
  }

  func testAdapter_NegateWithoutRawAccelerationIsAnError() {
    XCTAssertThrowsError(
      try InputAdapter(
        modelInputs: ["acceleration.x", "acceleration.y", "acceleration.z"],
        header: deviceMotionHeader, file: "ms.csv", negateAcceleration: true)
    ) { error in
      guard case .negateWithoutRawAcceleration(let file, _)? = error as? InputAdapterError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(file, "ms.csv")
      XCTAssertTrue("\(error)".contains("HINT: "), "\(error)")
    }
    // A model that reads no acceleration: the flag would change nothing.
    XCTAssertThrowsError(
      try InputAdapter(
        modelInputs: ["rotationRate.x"], header: deviceMotionHeader + ["acceleration.x"],
        file: "ms.csv", negateAcceleration: true))
  }
}
