// Runs the built `motus` executable end to end and captures what it prints.

import Foundation
import XCTest

struct MotusRun {
  var exitCode: Int32
  var standardOutput: String
  var standardError: String
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

  /// Runs `motus arguments...` with `input` on standard input and waits for it to exit.
  static func run(_ arguments: [String], input: String? = nil) throws -> MotusRun {
    let process = Process()
    process.executableURL = executableURL
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inPipe = Pipe()
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inPipe.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a chatty process cannot block on a full pipe.
    var outData = Data(), errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      outData = out.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return MotusRun(
      exitCode: process.terminationStatus,
      standardOutput: String(decoding: outData, as: UTF8.self),
      standardError: String(decoding: errData, as: UTF8.self))
  }
}
