// Messages that named the wrong thing: a damaged Parquet footer read as a nested column, and
// a window-table spec's decoding errors in the decoder's words.

import Foundation
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class VagueMessageTests: XCTestCase {
  func testParquetFooter_ElementWithoutNameOrTypeIsADamagedFooter() {
    var root = ParquetFooter.SchemaElement()
    root.name = "schema"
    root.childCount = 1
    for name in ["", "x"] {
      var element = ParquetFooter.SchemaElement()
      element.name = name
      XCTAssertThrowsError(try ParquetSchema.leaves([root, element], file: "t.parquet")) {
        let text = "\($0)"
        XCTAssertTrue(text.contains("the Parquet file is damaged: its footer"), text)
        XCTAssertFalse(text.contains("nested"), text)
      }
    }
    // A group with columns of its own is still a nested column.
    var group = ParquetFooter.SchemaElement()
    group.name = "g"
    group.childCount = 1
    XCTAssertThrowsError(try ParquetSchema.leaves([root, group], file: "t.parquet")) {
      XCTAssertTrue("\($0)".contains("'g'") && "\($0)".contains("nested"), "\($0)")
    }
  }

  func testWindowTableSpec_DecodingErrorsSayWhichKeyInWords() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    func error(_ json: String) -> String {
      let path = folder.appendingPathComponent("s.json").path
      _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
      do {
        _ = try WindowTableSpec.read(path)
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    let head = "{\"format\": \"motus-window-table\", \"formatVersion\": 1, \"motusVersion\": \"x\""
    let missing = error(head + ", \"minimumPurity\": 0, \"windowCount\": 3}")
    XCTAssertTrue(missing.contains("the key 'featureSpec' is missing"), missing)
    XCTAssertFalse(missing.contains("keyNotFound"), missing)
    let wrong = error(
      "{\"format\": \"motus-window-table\", \"formatVersion\": \"1\", \"motusVersion\": \"x\"}")
    XCTAssertTrue(wrong.contains("'formatVersion' should be a whole number"), wrong)
    for other in ["[1, 2]", "42", "{\"a\": 1}"] {
      let text = error(other)
      XCTAssertTrue(text.contains("it is not a window table's spec"), "\(other): \(text)")
      XCTAssertFalse(text.contains("not valid JSON"), "\(other): \(text)")
    }
    XCTAssertTrue(error("\u{FEFF}[1]").contains("it is not a window table's spec"))
  }

  func testSensorLogger_ConstantTimeColumnNamesTheFileItIsIn() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("recording")
    try FileManager.default.copyItem(
      at: URL(fileURLWithPath: AppFixtures.path("synthetic-sensor-logger-ios")), to: copy)
    let file = copy.appendingPathComponent("Accelerometer.csv")
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    let constant = [String(lines[0])]
      + lines.dropFirst().map { line -> String in
        var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        (cells[0], cells[1]) = ("1700000000000000000", "0")
        return cells.joined(separator: ",")
      }
    try (constant.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    XCTAssertThrowsError(try AppFixtures.load([copy.path])) {
      let text = "\($0)"
      XCTAssertTrue(text.contains("Accelerometer.csv"), text)
      XCTAssertTrue(text.contains("the time never changes (all 600 samples"), text)
    }
  }
}
