// Ctrl-C and kill: an interrupted run leaves the earlier output and no temporary file, and an
// interrupted stream still writes its open segment and its summary. The tests wait on what the
// process does (a FIFO opened, a line printed), never on a clock.

import Foundation
import MotusTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

final class InterruptionTests: TemporaryFolderTestCase {


  private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  func testInterruptedFeatures_LeaveTheEarlierOutputAndNoTemporaryFile() throws {
    try "earlier windows".write(toFile: path("w.csv"), atomically: true, encoding: .utf8)
    let fifo = path("live.csv")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let process = Process()
    process.executableURL = MotusRunner.executableURL
    process.arguments = ["features", fifo, "-o", path("w.csv")]
    process.standardError = FileHandle.nullDevice
    try process.run()
    // motus opens its output (the temporary file) before its input: once this open returns,
    // the temporary file exists and motus is reading.
    let writer = try XCTUnwrap(FileHandle(forWritingAtPath: fifo))
    writer.write(Data("timestamp,session,subject,label,x\n0,s,1,a,1\n".utf8))
    let temporary = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasPrefix(".w.csv.") && $0.hasSuffix(".tmp") }
    XCTAssertEqual(temporary.count, 1, "the temporary output exists while motus reads")
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    try writer.close()
    XCTAssertEqual(process.terminationReason, .uncaughtSignal)
    XCTAssertEqual(process.terminationStatus, SIGINT)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    XCTAssertEqual(left.sorted(), ["live.csv", "w.csv"])
    XCTAssertEqual(try String(contentsOfFile: path("w.csv"), encoding: .utf8), "earlier windows")
  }

  func testInterruptedStream_WritesTheOpenSegmentAndTheSummary() throws {
    let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("models/six-class.motus").path
    let process = Process()
    process.executableURL = MotusRunner.executableURL
    process.arguments = ["stream", model, "-", "--segments"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Two sessions at 15 Hz: the change of session closes the first segment, which is printed.
    var text = "timestamp,session,acceleration.x,acceleration.y,acceleration.z\n"
    for i in 0..<600 {
      let t = Double(i) / 15
      text += "\(t),\(i < 300 ? "a" : "b"),\(0.3 * sin(7 * t)),\(0.2 * cos(7 * t)),1\n"
    }
    input.fileHandleForWriting.write(Data(text.utf8))
    var printed = ""
    while !printed.contains("\"session\":\"a\"") {
      let chunk = output.fileHandleForReading.availableData
      XCTAssertFalse(chunk.isEmpty, "the stream ended before printing session a's segment")
      if chunk.isEmpty { break }
      printed += String(decoding: chunk, as: UTF8.self)
    }
    // Session b is open and the input still is: Ctrl-C.
    kill(process.processIdentifier, SIGINT)
    printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let summary = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try input.fileHandleForWriting.close()
    XCTAssertEqual(process.terminationReason, .uncaughtSignal)
    XCTAssertEqual(process.terminationStatus, SIGINT)
    XCTAssertTrue(printed.contains("\"event\":\"segment\",\"session\":\"b\""), printed)
    // Every row of session a, and some of b, were classified before the signal.
    let samples = summary.split(separator: "\n").first { $0.hasPrefix("stream: ") }
      .flatMap { Int($0.dropFirst("stream: ".count).prefix { $0.isNumber }) }
    XCTAssertGreaterThan(samples ?? 0, 300, summary)
    XCTAssertTrue(summary.contains("interrupted by signal 2"), summary)
  }
}
