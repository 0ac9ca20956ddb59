// The typed record of how a model was trained: it reads every entry the shipped models hold,
// writes back the text it read, and keeps what it cannot read instead of dropping it.

import Foundation
import MotusData
import XCTest

import MotusModels
import MotusTraining

final class TrainingSettingsTests: XCTestCase {
  private static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("models")

  func testShippedModels_EveryEntryIsReadTyped() throws {
    let sixClass = try ModelFile.read(
      from: Self.models.appendingPathComponent("six-class.motus")
    ).metadata.settings
    XCTAssertEqual(sixClass.unread, [:])
    XCTAssertEqual(sixClass.model, .logistic)
    XCTAssertEqual(sixClass.solver, .lbfgs)
    XCTAssertEqual(sixClass.l2Penalty, 1)
    XCTAssertEqual(sixClass.classWeighting, .balancedPower(0.9))
    XCTAssertEqual(sixClass.augmentation?.copies, 2)
    XCTAssertEqual(sixClass.augmentation?.perturbation.maxRotationDegrees, 180)
    XCTAssertEqual(sixClass.refit, true)
    XCTAssertNotNil(sixClass.refitEpochs)
    XCTAssertNil(sixClass.hiddenLayerSizes, "a logistic model records no hidden layers")

    let motionSense = try ModelFile.read(
      from: Self.models.appendingPathComponent("motionsense-device-motion.motus")
    ).metadata.settings
    XCTAssertEqual(motionSense.unread, [:])
    XCTAssertEqual(motionSense.model, .mlp)
    XCTAssertEqual(motionSense.hiddenLayerSizes, [64])
    XCTAssertNil(motionSense.solver, "an MLP records no logistic solver")
    XCTAssertNotNil(motionSense.learningRate)
    XCTAssertEqual(motionSense.classWeighting, .balanced, "its documented command asks for it")
  }

  func testText_ReadsBackToTheSameText() {
    let text = [
      "model": "mlp", "l2Penalty": "30.0", "maxEpochs": "200", "tolerance": "0.0001",
      "learningRate": "0.001", "batchSize": "200", "patience": "20",
      "hiddenLayerSizes": "64,32", "classWeighting": "0.5,2.0", "validationFraction": "0.2",
      "refit": "false", "calibrate": "true", "negatives": "class", "negativeRate": "0.02",
      "noveltyComponents": "3", "noveltyRate": "0.01", "refitEpochs": "17",
      "augmentation": "copies=2,rotation=180,gain=0.1,noise=0.01",
      "sourceWeights": "phone=1.0,watch=2.5",
    ]
    let settings = TrainingSettings(text: text)
    XCTAssertEqual(settings.unread, [:])
    XCTAssertEqual(settings.text, text)
    XCTAssertEqual(settings.classWeighting, .given([0.5, 2]))
    XCTAssertEqual(settings.hiddenLayerSizes, [64, 32])
    XCTAssertEqual(settings.negatives, .learnAsClass)
    XCTAssertEqual(settings.sourceWeights, ["phone": 1, "watch": 2.5])
    XCTAssertEqual(settings.refit, false)
  }

  func testText_KeepsUnknownKeysAndUnreadableValuesAsWritten() {
    let text = ["l2Penalty": "lots", "maxEpochs": "07", "futureOption": "on", "model": "svm"]
    let settings = TrainingSettings(text: text)
    XCTAssertNil(settings.l2Penalty)
    XCTAssertNil(settings.maxEpochs, "'07' would be written back as '7'")
    XCTAssertNil(settings.model)
    XCTAssertEqual(settings.unread, text)
    XCTAssertEqual(settings.text, text)
  }

  func testCodable_IsTheTextMapOnDisk() throws {
    var settings = TrainingSettings()
    settings.model = .logistic
    settings.l2Penalty = 1
    settings.classWeighting = .balanced
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(settings), as: UTF8.self)
    XCTAssertEqual(json, #"{"classWeighting":"balanced","l2Penalty":"1.0","model":"logistic"}"#)
    XCTAssertEqual(try JSONDecoder().decode(TrainingSettings.self, from: Data(json.utf8)), settings)
  }
}
