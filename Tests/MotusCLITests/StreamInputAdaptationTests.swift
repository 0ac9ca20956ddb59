// `motus stream` on users' own CSV layouts: Core Motion device motion (acceleration derived as
// gravity + userAcceleration) and Android-sign acceleration (--negate-acceleration), against
// the same rows with acceleration precomputed. The rows are read from ../shared/datasets at
// run time and written to a temporary folder; the tests skip without that folder.

import Foundation
import MotusTestSupport
import XCTest

final class StreamInputAdaptationTests: TemporaryFolderTestCase {


  private static var sixClassModel: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("models/six-class.motus").path
  }

  private func write(_ lines: [String], _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// The header and the first `count` data lines of a large CSV, without reading all of it.
  private func head(_ url: URL, lines count: Int) throws -> [String] {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var text = ""
    while text.split(separator: "\n", omittingEmptySubsequences: false).count <= count + 1 {
      guard let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty else { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    return Array(text.split(separator: "\n").prefix(count + 1).map(String.init))
  }

  private func predictionCount(_ output: String) -> Int {
    output.split(separator: "\n").filter { $0.contains("\"event\":\"prediction\"") }.count
  }

  func testStream_DeviceMotionCSVEqualsPrecomputedAcceleration() throws {
    try XCTSkipUnless(SharedData.isAvailable, "needs ../shared/datasets")
    // 3000 rows at 50 Hz: two MotionSense sessions (the first is 896 rows long).
    let lines = try head(SharedData.motionSense, lines: 3000)
    let header = lines[0].split(separator: ",").map(String.init)
    let g = ["x", "y", "z"].map { header.firstIndex(of: "gravity.\($0)")! }
    let u = ["x", "y", "z"].map { header.firstIndex(of: "userAcceleration.\($0)")! }
    // The same rows with acceleration precomputed, as the Float sum ingestion forms
    // (Double(Float) prints exactly, so the file holds the very same values).
    var precomputed = [lines[0] + ",acceleration.x,acceleration.y,acceleration.z"]
    for line in lines.dropFirst() {
      let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let sums = (0..<3).map { a -> String in
        let value = Float(Double(f[g[a]])!) + Float(Double(f[u[a]])!)
        return "\(Double(value))"
      }
      precomputed.append(line + "," + sums.joined(separator: ","))
    }
    let deviceMotion = try write(lines, "device-motion.csv")
    let withAcceleration = try write(precomputed, "with-acceleration.csv")

    let derived = try MotusRunner.run(["stream", Self.sixClassModel, deviceMotion])
    XCTAssertEqual(derived.exitCode, 0, derived.standardError)
    XCTAssertTrue(
      derived.standardError.contains("acceleration.x = gravity.x + userAcceleration.x"),
      derived.standardError)
    let direct = try MotusRunner.run(["stream", Self.sixClassModel, withAcceleration])
    XCTAssertEqual(direct.exitCode, 0, direct.standardError)
    // 3000 rows at 50 Hz are 900 samples at the model's 15 Hz: several windows per session.
    XCTAssertGreaterThanOrEqual(predictionCount(direct.standardOutput), 10)
    XCTAssertEqual(derived.standardOutput, direct.standardOutput)
  }

  func testStream_NegateAccelerationEqualsPreNegatedCSV() throws {
    try XCTSkipUnless(SharedData.isAvailable, "needs ../shared/datasets")
    let lines = try head(SharedData.qrowd, lines: 600)
    let header = lines[0].split(separator: ",").map(String.init)
    let axes = ["x", "y", "z"].map { header.firstIndex(of: "acceleration.\($0)")! }
    // Negation as text: exact, so both files hold the same magnitudes.
    var negated = [lines[0]]
    for line in lines.dropFirst() {
      var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      for a in axes where !f[a].isEmpty {
        f[a] = f[a].hasPrefix("-") ? String(f[a].dropFirst()) : "-" + f[a]
      }
      negated.append(f.joined(separator: ","))
    }
    let android = try write(lines, "android.csv")
    let coreMotion = try write(negated, "core-motion.csv")

    let flagged = try MotusRunner.run(
      ["stream", Self.sixClassModel, android, "--negate-acceleration"])
    XCTAssertEqual(flagged.exitCode, 0, flagged.standardError)
    let preNegated = try MotusRunner.run(["stream", Self.sixClassModel, coreMotion])
    XCTAssertEqual(preNegated.exitCode, 0, preNegated.standardError)
    XCTAssertGreaterThanOrEqual(predictionCount(preNegated.standardOutput), 5)
    XCTAssertEqual(flagged.standardOutput, preNegated.standardOutput)
    // The shipped model gives features only to orientation-free channels (|a| and the parts
    // along and across gravity), which a sign flip of every axis leaves alone, so it reads
    // the Android file the same without the flag. What the flag does to the input is pinned
    // by InputAdapterTests.
    let unflagged = try MotusRunner.run(["stream", Self.sixClassModel, android])
    XCTAssertEqual(unflagged.standardOutput, preNegated.standardOutput)
  }

  func testStream_NegateWithoutRawAccelerationFailsWithHint() throws {
    let csv = try write(
      ["timestamp,gravity.x,gravity.y,gravity.z,userAcceleration.x,userAcceleration.y,"
        + "userAcceleration.z", "0,0,0,1,0,0,0"], "dm.csv")
    let run = try MotusRunner.run(["stream", Self.sixClassModel, csv, "--negate-acceleration"])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("dm.csv: --negate-acceleration"), run.standardError)
    XCTAssertTrue(run.standardError.contains("HINT: "), run.standardError)
    XCTAssertEqual(run.standardOutput, "")
  }

  func testStream_MissingAccelerationNamesColumnAndAlternative() throws {
    let csv = try write(["timestamp,gravity.x,userAcceleration.x", "0,0,0"], "partial.csv")
    let run = try MotusRunner.run(["stream", Self.sixClassModel, csv])
    XCTAssertNotEqual(run.exitCode, 0)
    XCTAssertTrue(run.standardError.contains("partial.csv"), run.standardError)
    XCTAssertTrue(
      run.standardError.contains("needs acceleration.y or gravity.y + userAcceleration.y"),
      run.standardError)
    XCTAssertTrue(run.standardError.contains("HINT: "), run.standardError)
  }
}
