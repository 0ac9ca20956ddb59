// The fresh folder most tests that touch files write their inputs and outputs to.

import Foundation
import XCTest

/// A test case with its own temporary folder, made before each test and removed after it.
open class TemporaryFolderTestCase: XCTestCase {
  public var folder: URL!

  override open func setUpWithError() throws {
    folder = try makeTemporaryDirectory()
  }

  override open func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Writes `text` to `name` in the folder and returns its path.
  public func write(_ text: String, _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Writes `bytes` to `name` in the folder and returns its path.
  public func writeBytes(_ bytes: [UInt8], _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }
}

extension XCTestCase {
  /// Puts a process-wide setting back after this test, whatever the test sets it to: `get`
  /// reads it now, `set` writes that value back at tear-down.
  public func restoreAfterTest<Value>(get: () -> Value, set: @escaping (Value) -> Void) {
    let saved = get()
    addTeardownBlock { set(saved) }
  }
}
