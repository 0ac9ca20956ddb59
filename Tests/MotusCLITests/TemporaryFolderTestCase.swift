// The fresh folder most command tests write their inputs and outputs to.

import Foundation
import MotusTestSupport
import XCTest

/// A test case with its own temporary folder, made before each test and removed after it.
class TemporaryFolderTestCase: XCTestCase {
  var folder: URL!

  override func setUpWithError() throws {
    folder = try makeTemporaryDirectory()
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// Writes `text` to `name` in the folder and returns its path.
  func write(_ text: String, _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }
}
