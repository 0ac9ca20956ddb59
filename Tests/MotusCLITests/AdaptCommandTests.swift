// `motus adapt` end to end on SYNTHETIC recordings (MotusSimulation) and the shared streaming
// test model: the command and the pure-Swift API give the same model, and bad input stops with
// a clear error and writes nothing.

import Foundation
import Motus
import MotusSimulation
import MotusTestSupport
import XCTest

final class AdaptCommandTests: TemporaryFolderTestCase {
  /// One synthetic subject doing `activities` for 30 s each, at `rateHz`, as one CSV.
  private func writeMinutes(
    _ activities: [SimulatedActivity], rateHz: Double = 50, relabel: String? = nil
  ) throws -> String {
    var simulator = ActivitySimulator(seed: 41, sampleRateHz: rateHz)
    var text = ""
    for activity in activities {
      text += simulator.recording(activity, subject: 9, seconds: 30).csv(
        includeHeader: text.isEmpty)
    }
    if let relabel { text = text.replacingOccurrences(of: ",walking,", with: ",\(relabel),") }
    let url = folder.appendingPathComponent("mine.csv")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func testTheCommandAndTheLibraryGiveTheSamePredictions() throws {
    let data = try writeMinutes([.walking, .pushUp])
    let output = folder.appendingPathComponent("mine.motus").path
    let run = try MotusRunner.run([
      "adapt", StreamAgreement.modelURL.path, data, "-o", output, "--penalty", "0.02",
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    XCTAssertTrue(run.standardOutput.contains("windows (push-up"), run.standardOutput)
    let fromCommand = try ModelFile.read(path: output)

    // The library on the same samples, read as the command reads them.
    let model = try StreamAgreement.model()
    var options = LoadOptions()
    options.modelRecipes = model.featureSpec.recipes
    let dataset = try DataSource(files: [data], options: options).load().result.dataset
    let windows = try AdaptationWindows(dataset: dataset, model: model)
    var settings = ModelAdapter.Settings()
    settings.penalty = 0.02
    let fromLibrary = try ModelAdapter.adapt(model, to: windows, settings: settings)

    let a = fromCommand.predictProbabilities(windows.features).values
    let b = fromLibrary.predictProbabilities(windows.features).values
    let largest = zip(a, b).map { abs($0 - $1) }.max() ?? 0
    XCTAssertLessThanOrEqual(largest, 1e-6)
    XCTAssertEqual(fromCommand.metadata.adaptation?.windowsPerClass, ["push-up": 22, "walking": 22])
    XCTAssertEqual(fromCommand.classes, model.classes)
    // Every class training saw but the minutes do not show is held by 200 stand-ins.
    let standIns = 200 * (model.classes.count - 2)
    XCTAssertEqual(fromCommand.metadata.adaptation?.settings["standInWindows"], "\(standIns)")
    XCTAssertTrue(
      run.standardOutput.contains("and \(standIns) stand-ins for the classes they do not show"),
      run.standardOutput)

    let info = try MotusRunner.run(["model-info", output])
    XCTAssertEqual(info.exitCode, 0, info.standardError)
    XCTAssertTrue(info.standardOutput.contains("adaptation windows: push-up 22, walking 22"))
  }

  private func assertRefused(
    _ arguments: [String], mentions: [String], file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let output = folder.appendingPathComponent("refused.motus").path
    let run = try MotusRunner.run(
      ["adapt", StreamAgreement.modelURL.path] + arguments + ["-o", output])
    XCTAssertNotEqual(run.exitCode, 0, file: file, line: line)
    for text in mentions {
      XCTAssertTrue(run.standardError.contains(text), run.standardError, file: file, line: line)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: output), file: file, line: line)
  }

  func testBadInputIsRefusedAndNothingIsWritten() throws {
    try assertRefused(
      [writeMinutes([.walking, .running], relabel: "swimming")],
      mentions: ["swimming", "not classes of the model", "Hint:"])
    try assertRefused(
      [writeMinutes([.walking], rateHz: 25)],
      mentions: ["mine.csv", "25 Hz", "--sample-rate 50"])
    try assertRefused(
      [writeMinutes([.walking]), "--min-windows", "40"],
      mentions: ["'walking' has 22 windows", "at least 40"])
    try assertRefused([writeMinutes([.walking]), "--penalty", "0"], mentions: ["--penalty"])
    try assertRefused(
      [writeMinutes([.walking]), "--rehearsal-weight", "-1"], mentions: ["--rehearsal-weight"])
  }
}
