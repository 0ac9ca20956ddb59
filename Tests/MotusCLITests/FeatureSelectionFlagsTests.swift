// `--statistics`, `--spectral` and `--log-power-floor` (WindowOptions) end to end through
// `motus features` on a SYNTHETIC recording (MotusSimulation).

import Foundation
import MotusSimulation
import MotusTestSupport
import XCTest

final class FeatureSelectionFlagsTests: TemporaryFolderTestCase {
  private var data: String!

  override func setUpWithError() throws {
    try super.setUpWithError()
    var simulator = ActivitySimulator(seed: 5, sampleRateHz: 50)
    let text = simulator.recording(.walking, subject: 1, seconds: 12).csv()
    let url = folder.appendingPathComponent("walk.csv")
    try text.write(to: url, atomically: true, encoding: .utf8)
    data = url.path
  }

  /// Runs `motus features` with `flags`; returns the header and the numeric rows.
  private func features(_ flags: [String]) throws -> (header: [String], rows: [[Double]]) {
    let output = folder.appendingPathComponent("out-\(UUID().uuidString).csv").path
    let run = try MotusRunner.run(["features", data, "-o", output] + flags)
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let lines = try String(contentsOfFile: output, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",").map(String.init)
    // Columns 0-2 are session, subject and label; the synthetic names hold no commas.
    let rows = lines.dropFirst().map { line in
      line.split(separator: ",").dropFirst(3).map { Double($0) ?? .nan }
    }
    return (header, rows)
  }

  func testSpectral_LogBandIsLog10OfBandPlusFloor() throws {
    for (flags, floor) in [([String](), 1e-4), (["--log-power-floor", "0.01"], 0.01)] {
      let (header, rows) = try features(["--spectral", "band,log_band"] + flags)
      let columns = Array(header.dropFirst(3))
      let logColumns = columns.indices.filter { columns[$0].contains(":log_band_") }
      XCTAssertFalse(logColumns.isEmpty)
      XCTAssertFalse(columns.contains { $0.hasSuffix(":entropy") }, "--spectral replaces the list")
      XCTAssertFalse(rows.isEmpty)
      for i in logColumns {
        let band = columns[i].replacingOccurrences(of: ":log_band_", with: ":band_")
        let j = try XCTUnwrap(columns.firstIndex(of: band), band)
        for row in rows {
          XCTAssertEqual(row[i], log10(row[j] + floor), accuracy: 1e-4, columns[i])
          XCTAssertGreaterThanOrEqual(row[i], log10(floor) - 1e-6)
        }
      }
    }
  }

  func testStatisticsAndSpectral_ChooseColumnsInListedOrder() throws {
    let axis = ["--channels", "acceleration.x", "--feature-channels", "all"]
    let (header, _) = try features(["--statistics", "std,mean", "--spectral", "none"] + axis)
    XCTAssertEqual(
      Array(header.dropFirst(5)), ["acceleration.x:std", "acceleration.x:mean"])
    let all = try features(["--spectral", "all"] + axis).header
    for name in ["band_0-0.5Hz", "log_band_0-0.5Hz", "entropy", "acf_lag"] {
      XCTAssertTrue(all.contains("acceleration.x:\(name)"), name)
    }
    let defaults = try features(axis).header
    for name in ["band_0-0.5Hz", "log_band_0-0.5Hz", "dominant_hz", "entropy"] {
      XCTAssertTrue(defaults.contains("acceleration.x:\(name)"), "default spectral: \(name)")
    }
  }

  func testBadNames_FailWithTheValidList() throws {
    let output = folder.appendingPathComponent("bad.csv").path
    for (flags, expected) in [
      (["--spectral", "band,logband"], ["'--spectral'", "'logband'", "log_band", "entropy"]),
      (["--statistics", "mean,average"], ["'--statistics'", "'average'", "acf_lag"]),
      (["--statistics", "mean,mean"], ["'mean' is listed twice"]),
      (["--log-power-floor", "0"], ["'--log-power-floor'", "positive"]),
      (["--log-power-floor", "nan"], ["'--log-power-floor'"]),
      (
        ["--statistics", "none", "--spectral", "none", "--channels", "acceleration.x"],
        ["leave no features", "HINT:"]
      ),
    ] {
      let run = try MotusRunner.run(["features", data, "-o", output] + flags)
      XCTAssertNotEqual(run.exitCode, 0, "\(flags)")
      for text in expected {
        XCTAssertTrue(run.standardError.contains(text), "\(flags): \(run.standardError)")
      }
      XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }
  }

  func testHelp_ShowsExamples() throws {
    let run = try MotusRunner.run(["features", "--help"])
    XCTAssertEqual(run.exitCode, 0)
    for text in ["--statistics", "--spectral", "--log-power-floor", "band,log_band"] {
      XCTAssertTrue(run.standardOutput.contains(text), text)
    }
  }
}
