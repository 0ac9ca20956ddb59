// The one escaping rule for names shown on a terminal (`Excerpt.printable`, applied to every
// cell by `TextTable`), and the one CSV quoting rule (`CSVText.field`) for names written as
// CSV: each keeps ordinary names as they are.

@testable import MotusOutput
import XCTest

@testable import MotusData

final class TerminalTextTests: XCTestCase {
  func testPrintable_EscapesControlBytesAndBidiOverridesAndKeepsOrdinaryNames() {
    XCTAssertEqual(Excerpt.printable("walk\u{1B}[2J"), "walk\\x1B[2J")
    XCTAssertEqual(Excerpt.printable("s\u{1B}]0;title\u{07}"), "s\\x1B]0;title\\x07")
    XCTAssertEqual(Excerpt.printable("a\nb\tc\r"), "a\\nb\\tc\\r")
    XCTAssertEqual(Excerpt.printable("\u{9B}2J"), "\\x9B2J")  // the one-byte CSI
    XCTAssertEqual(Excerpt.printable("abc\u{202E}def"), "abc\\u{202E}def")
    // Whole, however long: a table shows the name, an error message cuts it.
    let long = String(repeating: "x", count: 200)
    XCTAssertEqual(Excerpt.printable(long), long)
    for name in ["walking", "café", "步行", "push-up (negative)", ""] {
      XCTAssertEqual(Excerpt.printable(name), name)
    }
  }

  func testTextTable_EscapesEveryCellAndAlignsTheEscapedText() {
    let text = TextTable.render(
      [["label", "n"], ["walk\u{1B}[2J", "12"], ["still", "3"]], rightAligned: [1])
    XCTAssertEqual(
      text,
      """
      label         n
      walk\\x1B[2J  12
      still         3
      """)
  }

  /// The layouts the commands share go through `render`: indented lines (inspect, model-info,
  /// demo) and fixed-width columns with no separator (bench accuracy), where a longer cell
  /// widens its column instead of shifting its row.
  func testTextTable_IndentsAndHoldsMinimumWidths() {
    XCTAssertEqual(
      TextTable.render([["a", "bb"], ["ccc", ""]], rightAligned: [1], indent: 2),
      "  a    bb\n  ccc")
    XCTAssertEqual(
      TextTable.render(
        [["method", "f1", "us"], ["thresholds", "0.91", "1.25"]], minimumWidths: [12, 6],
        separator: ""),
      "method      f1    us\nthresholds  0.91  1.25")
    XCTAssertEqual(
      TextTable.render([["a-long-name", "1"], ["b", "2"]], minimumWidths: [4], separator: ""),
      "a-long-name1\nb          2")
  }

  func testJSONEncoder_SortedKeysSlashesAsTheyAreAndNonFiniteAsText() throws {
    struct Value: Encodable {
      var path = "data/walk.csv"
      var nan = Double.nan
      var a = 1
    }
    let packed = try JSONEncoder.sortedKeys(prettyPrinted: false).encode(Value())
    XCTAssertEqual(
      String(decoding: packed, as: UTF8.self), #"{"a":1,"nan":"nan","path":"data/walk.csv"}"#)
    let pretty = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(Value())
    XCTAssertEqual(
      String(decoding: pretty, as: UTF8.self),
      "{\n  \"a\" : 1,\n  \"nan\" : \"nan\",\n  \"path\" : \"data/walk.csv\"\n}")
  }

  func testCSVField_QuotesCRLFAndQuotesHiddenInOneCharacter() {
    XCTAssertEqual(CSVText.field("walk\r\nx"), "\"walk\r\nx\"")
    XCTAssertEqual(CSVText.field("a\"\u{301}b"), "\"a\"\"\u{301}b\"")
    XCTAssertEqual(CSVText.field("walk\u{1B}[2J"), "walk\u{1B}[2J")
    XCTAssertEqual(CSVText.field("a,b"), "\"a,b\"")
  }
}
