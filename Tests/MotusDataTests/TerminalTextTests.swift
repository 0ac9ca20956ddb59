// The one escaping rule for names shown on a terminal (`Excerpt.printable`, applied to every
// cell by `TextTable`), and the one CSV quoting rule (`CSVText.field`) for names written as
// CSV: each keeps ordinary names as they are.

@testable import MotusIngest
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

  func testCSVField_QuotesCRLFAndQuotesHiddenInOneCharacter() {
    XCTAssertEqual(CSVText.field("walk\r\nx"), "\"walk\r\nx\"")
    XCTAssertEqual(CSVText.field("a\"\u{301}b"), "\"a\"\"\u{301}b\"")
    XCTAssertEqual(CSVText.field("walk\u{1B}[2J"), "walk\u{1B}[2J")
    XCTAssertEqual(CSVText.field("a,b"), "\"a,b\"")
  }
}
