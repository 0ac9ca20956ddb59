// Writes small CSV texts to temporary files for the loader tests.

import Foundation
import MotusData
import MotusIngest
import MotusTestSupport
import XCTest

/// A temporary folder holding CSV files written by a test; removed in `tearDown`.
final class CSVFolder {
  let url: URL

  init() throws { url = try makeTemporaryDirectory() }

  /// Writes `text` (as UTF-8 bytes, unchanged) to `name` and returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body`, expecting a `CSVError`; returns it (or fails the test).
func expectCSVError(
  _ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line
) -> CSVError? {
  do {
    try body()
    XCTFail("expected a CSVError", file: file, line: line)
  } catch let error as CSVError {
    XCTAssertTrue(
      error.description.contains("HINT: "), "no hint in \(error)", file: file, line: line)
    return error
  } catch {
    XCTFail("expected a CSVError, got \(error)", file: file, line: line)
  }
  return nil
}

/// Options with everything default except `body`'s changes.
func options(_ body: (inout LoadOptions) -> Void = { _ in }) -> LoadOptions {
  var o = LoadOptions()
  body(&o)
  return o
}
