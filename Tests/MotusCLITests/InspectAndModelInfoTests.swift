// `motus inspect --format json` and `motus model-info` end to end, on small synthetic CSV
// files, a model trained on SYNTHETIC recordings, and the model files shipped in models/.

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class InspectAndModelInfoTests: TemporaryFolderTestCase {


  private func object(_ text: String) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
  }

  private static var modelsFolder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models")
  }

  /// Two sessions: subject 1 walks 100 rows at 50 Hz (one empty cell), subject 2 sits 40
  /// rows at 20 Hz and runs 60 more.
  private func sampleCSV() -> String {
    var text = "timestamp,session,subject,label,userAcceleration.x,gravity.x\n"
    for t in 0..<100 {
      let value = t == 7 ? "" : "\(0.01 * Double(t % 13))"
      text += "\(Double(t) * 0.02),a,1,walking,\(value),0.5\n"
    }
    for t in 0..<100 {
      text += "\(Double(t) * 0.05),b,2,\(t < 40 ? "sitting" : "running"),0.1,\(0.001 * Double(t))\n"
    }
    return text
  }

  func testInspect_JSONHasTheTextsFacts() throws {
    let path = try write(sampleCSV(), "two.csv")
    let run = try MotusRunner.run(["inspect", path, "--format", "json"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let json = try object(run.standardOutput)
    XCTAssertEqual(json["rowsRead"] as? Int, 200)
    XCTAssertEqual(json["samples"] as? Int, 200)
    XCTAssertEqual(json["files"] as? [String], [path])

    let sessions = try XCTUnwrap(json["sessions"] as? [[String: Any]])
    XCTAssertEqual(sessions.map { $0["name"] as? String }, ["a", "b"])
    XCTAssertEqual(sessions.map { $0["subject"] as? String }, ["1", "2"])
    XCTAssertEqual(sessions.map { $0["rows"] as? Int }, [100, 100])
    let rates = sessions.compactMap { $0["rateHz"] as? Double }
    XCTAssertEqual(rates.count, 2)
    XCTAssertEqual(rates[0], 50, accuracy: 1e-6)
    XCTAssertEqual(rates[1], 20, accuracy: 1e-6)

    let subjects = try XCTUnwrap(json["subjects"] as? [[String: Any]])
    XCTAssertEqual(subjects.map { $0["name"] as? String }, ["1", "2"])
    let subjectSeconds = subjects.compactMap { $0["durationSeconds"] as? Double }
    XCTAssertEqual(subjectSeconds[0], 2, accuracy: 1e-9)  // 100 samples at 50 Hz
    XCTAssertEqual(subjectSeconds[1], 5, accuracy: 1e-9)  // 100 samples at 20 Hz

    let labels = try XCTUnwrap(json["labels"] as? [[String: Any]])
    var byName: [String: [String: Any]] = [:]
    for label in labels { byName[label["name"] as! String] = label }
    XCTAssertEqual(Set(byName.keys), ["walking", "sitting", "running"])
    XCTAssertEqual(byName["sitting"]?["samples"] as? Int, 40)
    let sittingSeconds = try XCTUnwrap(byName["sitting"]?["durationSeconds"] as? Double)
    XCTAssertEqual(sittingSeconds, 2, accuracy: 1e-9)
    let shares = labels.compactMap { $0["sharePercent"] as? Double }
    XCTAssertEqual(shares.reduce(0, +), 100, accuracy: 1e-6)
    let walkingShare = try XCTUnwrap(byName["walking"]?["sharePercent"] as? Double)
    XCTAssertEqual(walkingShare, 200.0 / 7, accuracy: 1e-6)

    let recordingRates = try XCTUnwrap(json["recordingRates"] as? [[String: Any]])
    XCTAssertEqual(recordingRates.map { $0["rateHz"] as? Double }, [20, 50])
    XCTAssertEqual(json["missingValues"] as? [String: Int], ["userAcceleration.x": 1])
    let channels = try XCTUnwrap(json["channels"] as? [[String: Any]])
    XCTAssertEqual(channels.map { $0["name"] as? String }, ["userAcceleration.x", "gravity.x"])
    XCTAssertEqual(channels.map { $0["operation"] as? String }, ["copy", "copy"])

    // The text form (still the default) says the same.
    let text = try MotusRunner.run(["inspect", path])
    XCTAssertEqual(text.exitCode, 0, text.standardError)
    XCTAssertTrue(text.standardOutput.contains("sessions (2):"), text.standardOutput)
    let rows = text.standardOutput.split(separator: "\n").map {
      $0.split(separator: " ").map(String.init)
    }
    XCTAssertTrue(rows.contains(["userAcceleration.x", "1"]), text.standardOutput)
    XCTAssertTrue(rows.contains(["sitting", "40", "0:00:02", "28.6%"]), text.standardOutput)
    XCTAssertTrue(rows.contains(["2", "1", "0:00:05"]), text.standardOutput)
  }

  func testInspect_BadFormatIsRejected() throws {
    let path = try write(sampleCSV(), "two.csv")
    let run = try MotusRunner.run(["inspect", path, "--format", "yaml"])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("--format"), run.standardError)
  }

  func testModelInfo_JSONDescribesATrainedModel() throws {
    var simulator = ActivitySimulator(seed: 5)
    var text = ""
    for subject in 1...3 {
      for activity in [SimulatedActivity.stationary, .walking, .running] {
        text += simulator.recording(activity, subject: subject, seconds: 20)
          .csv(includeHeader: text.isEmpty)
      }
    }
    let model = folder.appendingPathComponent("m.motus").path
    let train = try MotusRunner.run(
      ["train", try write(text, "train.csv"), "--model", "logistic", "--seed", "7",
       "--window", "64", "--hop", "32", "--spectral", "band,dominant_hz", "-o", model])
    XCTAssertEqual(train.exitCode, 0, train.standardError)

    let run = try MotusRunner.run(["model-info", model, "--format", "json"])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let json = try object(run.standardOutput)
    let bytes = try FileManager.default.attributesOfItem(atPath: model)[.size] as? Int
    XCTAssertEqual(json["fileBytes"] as? Int, bytes)
    let classes = try XCTUnwrap(json["classes"] as? [String])
    XCTAssertEqual(Set(classes), ["stationary", "walking", "running"])
    let rate = try XCTUnwrap(json["sampleRateHz"] as? Double)
    let window = try XCTUnwrap(json["window"] as? [String: Any])
    XCTAssertEqual(window["samples"] as? Int, 64)
    XCTAssertEqual(try XCTUnwrap(window["seconds"] as? Double), 64 / rate, accuracy: 1e-9)
    XCTAssertEqual((json["hop"] as? [String: Any])?["samples"] as? Int, 32)
    let classifier = try XCTUnwrap(json["classifier"] as? [String: Any])
    XCTAssertEqual(classifier["kind"] as? String, "logistic")
    XCTAssertEqual(classifier["hiddenLayerSizes"] as? [Int], [])
    let layers = try XCTUnwrap(classifier["layers"] as? [[String: Int]])
    XCTAssertEqual(layers.count, 1)
    let features = try XCTUnwrap(json["features"] as? [String: Any])
    let featureCount = try XCTUnwrap(features["count"] as? Int)
    XCTAssertEqual(layers[0]["inputs"], featureCount)
    XCTAssertEqual(layers[0]["outputs"], 3)
    XCTAssertEqual(classifier["parameterCount"] as? Int, featureCount * 3 + 3)
    XCTAssertEqual(json["classStatistics"] as? Bool, true, "training stores them for adapting")
    // Feature count from the spec summary: per channel, statistics + spectral (bands expanded).
    let channels = try XCTUnwrap(features["channels"] as? [String])
    let statistics = try XCTUnwrap(features["statistics"] as? [String])
    let spectral = try XCTUnwrap(features["spectral"] as? [String])
    let bands = try XCTUnwrap(features["bandCount"] as? Int)
    let perChannel = statistics.count + spectral.count - 1 + bands  // "band" is per band
    XCTAssertLessThanOrEqual(channels.count * perChannel, featureCount)
    XCTAssertTrue(features["logPowerFloor"] == nil, "no log_band, so no floor")
    let training = try XCTUnwrap(json["training"] as? [String: Any])
    XCTAssertEqual(training["seed"] as? Int, 7)
    XCTAssertEqual((training["hyperparameters"] as? [String: String])?["model"], "logistic")
    XCTAssertNotNil(training["validationMetrics"] as? [String: Double])
    XCTAssertEqual((training["dataDigest"] as? String)?.count, 16)
    let inputs = try XCTUnwrap(json["inputs"] as? [[String: Any]])
    XCTAssertFalse(inputs.isEmpty)
    XCTAssertNotNil(json["temperature"] as? Double)
    XCTAssertNotNil((json["confidenceCutoffs"] as? [String: Double])?["high"])
    XCTAssertNotNil(json["unknownThreshold"] as? Double)
  }

  func testModelInfo_TextListsTheColumnsASixClassModelNeeds() throws {
    let model = Self.modelsFolder.appendingPathComponent("six-class.motus").path
    let run = try MotusRunner.run(["model-info", model])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let out = run.standardOutput
    XCTAssertTrue(out.contains("acceleration.x  gravity.x + userAcceleration.x"), out)
    // The negative activities are a seventh class, answered unknown.
    XCTAssertTrue(
      out.contains("classes (7): stationary, walking, running, cycling, automotive, push-up, other"),
      out)
    XCTAssertTrue(
      out.contains("|acceleration|  |acceleration.x, acceleration.y, acceleration.z|"), out)
    XCTAssertTrue(out.contains("classifier: logistic"), out)
    XCTAssertTrue(out.contains("training:"), out)
  }

  func testModelInfo_BrokenFilesFailWithHint() throws {
    let real = try Data(
      contentsOf: Self.modelsFolder.appendingPathComponent("six-class.motus"))
    let truncated = folder.appendingPathComponent("cut.motus")
    try real.prefix(real.count / 2).write(to: truncated)
    let foreign = try write("timestamp,x\n0,1\n", "data.csv")
    let cases: [(String, String)] = [
      (truncated.path, "truncated"), (foreign, "not a Motus model file"),
      (folder.appendingPathComponent("absent.motus").path, "cannot read model file"),
    ]
    for (path, expected) in cases {
      let run = try MotusRunner.run(["model-info", path, "--format", "json"])
      XCTAssertNotEqual(run.exitCode, 0, path)
      XCTAssertTrue(run.standardError.contains(path), run.standardError)
      XCTAssertTrue(run.standardError.contains(expected), run.standardError)
      XCTAssertTrue(run.standardError.contains("HINT: "), run.standardError)
      XCTAssertEqual(run.standardOutput, "", path)
    }
  }
}
