// The defaults the command line prints are the library's: a command reads them from the module
// that owns them rather than writing its own copy.

import MotusIngest
import MotusStreaming
import XCTest

final class LibraryDefaultsCommandTests: XCTestCase {
  func testSmoothingDefaults_AreTheStreamConfigurations() throws {
    let help = try MotusRunner.run(["evaluate", "--help"]).standardOutput
    let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    XCTAssertTrue(
      flat.contains("(default: \(StreamConfiguration.defaultExponentialAlpha))"), help)
    XCTAssertTrue(
      flat.contains("(default: \(StreamConfiguration.defaultSwitchProbability))"), help)
  }

  func testInspect_CountsWindowsOfTheDefaultRecipe() throws {
    let help = try MotusRunner.run(["inspect", "--help"]).standardOutput
    let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    XCTAssertTrue(
      flat.contains("windows of the default \(FeatureChoice.defaultWindowSeconds) s"), help)
  }
}
