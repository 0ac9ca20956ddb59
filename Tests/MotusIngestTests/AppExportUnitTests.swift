// Implausible units in phone-app exports are refused with the likely mix-up, not read as a
// phone feeling ten times gravity: m/s² in Physics Toolbox's g columns, g in phyphox's m/s²
// columns, and decimal commas that shift the columns of a comma-separated file. SYNTHETIC.

import Foundation
import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class AppExportUnitTests: TemporaryFolderTestCase {
  private func load(_ path: String) throws -> LoadResult {
    var options = LoadOptions()
    options.appLabels = AppExportLabels(label: "walking")
    return try DatasetLoader.load([path], options: options)
  }

  func testGForceColumnsHoldingMetresPerSecondSquared_AreRefused() throws {
    var text = "time,gFx,gFy,gFz,TgF\n"
    for i in 0..<300 { text += "\(Double(i) * 0.02),0.12,-0.2,9.7\(i % 9),9.8\n" }
    XCTAssertThrowsError(try load(try write(text, "ms2-as-g.csv"))) { error in
      let message = "\(error)"
      XCTAssertTrue(
        message.contains("ms2-as-g.csv (gFx,gFy,gFz): the median |acceleration| is 9.7"), message)
      XCTAssertTrue(message.contains("look like m/s²"), message)
    }
  }

  func testMetresPerSecondSquaredColumnsHoldingG_AreRefused() throws {
    var text =
      "\"Time (s)\",\"Acceleration x (m/s^2)\",\"Acceleration y (m/s^2)\",\"Acceleration z (m/s^2)\"\n"
    for i in 0..<300 { text += "\(Double(i) * 0.01),0.01,0.02,0.99\(i % 9)\n" }
    XCTAssertThrowsError(try load(try write(text, "Raw Data.csv"))) { error in
      XCTAssertTrue("\(error)".contains("look like g (about 1 at rest)"), "\(error)")
    }
  }

  func testDecimalCommasInACommaSeparatedFile_AreRefusedWhereTheColumnsShift() throws {
    var text = "time,gFx,gFy,gFz,TgF\n"
    for i in 0..<300 { text += "0,\(String(format: "%04d", 2 * i)),0,0120,-0,0200,0,9930,0,994\n" }
    XCTAssertThrowsError(try load(try write(text, "comma-decimals.csv"))) { error in
      let message = "\(error)"
      XCTAssertTrue(message.contains("comma-decimals.csv:2:6"), message)
      XCTAssertTrue(message.contains("the row has 10 fields, the header 5"), message)
      XCTAssertTrue(message.contains("decimal commas in a comma-separated file"), message)
    }
  }
}
