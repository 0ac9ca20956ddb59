// Runs the built `motus` executable end to end and captures what it prints.

import Foundation
import XCTest

struct MotusRun {
  /// The exit status, or the signal's number when `diedOfSignal`.
  var exitCode: Int32
  var standardOutput: String
  var standardError: String
  var diedOfSignal = false
  /// Still running at the deadline, then terminated.
  var timedOut = false
}

enum MotusRunner {
  /// The `motus` binary beside the test bundle (SwiftPM builds it because the tests depend on it).
  static var executableURL: URL {
    var dir = Bundle(for: Marker.self).bundleURL
    while dir.path != "/" {
      let candidate = dir.appendingPathComponent("motus")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir.deleteLastPathComponent()
    }
    return Bundle(for: Marker.self).bundleURL.deletingLastPathComponent().appendingPathComponent("motus")
  }

  private final class Marker {}

  /// Runs `motus arguments...` with `input` (or the bytes `inputData`) on standard input and
  /// waits for it to exit.
  ///
  /// `changes` sets (or, with nil, removes) environment variables of the child.
  ///
  /// Output goes to temporary files rather than pipes, so a chatty process cannot block;
  /// `standardOutput` and `standardError` replace the files (their text is then empty).
  static func run(
    _ arguments: [String], input: String? = nil, inputData: Data? = nil,
    standardOutput: FileHandle? = nil, standardError: FileHandle? = nil,
    workingDirectory: URL? = nil, timeout: TimeInterval? = nil,
    environment changes: [String: String?] = [:]
  ) throws -> MotusRun {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("motus-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("out"), errURL = directory.appendingPathComponent("err")
    // A failed creation surfaces as the FileHandle error below.
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = executableURL
    process.arguments = arguments
    if let workingDirectory { process.currentDirectoryURL = workingDirectory }
    if !changes.isEmpty {
      var environment = ProcessInfo.processInfo.environment
      for (name, value) in changes { environment[name] = value }
      process.environment = environment
    }
    process.standardOutput = standardOutput ?? out
    process.standardError = standardError ?? err
    let inPipe = Pipe()
    process.standardInput = inPipe
    try process.run()
    if let data = inputData ?? input.map({ Data($0.utf8) }) {
      inPipe.fileHandleForWriting.write(data)
    }
    try inPipe.fileHandleForWriting.close()
    var timedOut = false
    if let timeout {
      let deadline = Date().addingTimeInterval(timeout)
      while process.isRunning && Date() < deadline { usleep(20_000) }
      if process.isRunning {
        timedOut = true
        process.terminate()
      }
    }
    process.waitUntilExit()
    try out.close()
    try err.close()
    return MotusRun(
      exitCode: process.terminationStatus,
      standardOutput: try String(contentsOf: outURL, encoding: .utf8),
      standardError: try String(contentsOf: errURL, encoding: .utf8),
      diedOfSignal: process.terminationReason == .uncaughtSignal, timedOut: timedOut)
  }
}
