// Aligned plain-text tables for terminal output, the one renderer of `motus`'s text reports.
// Every cell goes through `Excerpt.printable`, so a label, session, subject or folder name that
// holds an escape sequence (`\e[2J`, `\e]0;title\a`) is shown, never obeyed by the terminal,
// and its columns stay aligned.

import MotusData

/// Plain-text tables with padded columns.
public enum TextTable {
  /// Rows with columns padded to their widest cell (or `minimumWidths[i]`, when wider),
  /// `separator` apart, each line after `indent` spaces with trailing spaces trimmed, one line
  /// each (no final line feed); `rightAligned` columns (numbers) pad on the left. Cells are
  /// escaped by `Excerpt.printable`.
  public static func render(
    _ rows: [[String]], rightAligned: Set<Int> = [], minimumWidths: [Int] = [],
    separator: String = "  ", indent: Int = 0
  ) -> String {
    let cells = rows.map { $0.map(Excerpt.printable) }
    let columnCount = max(cells.map(\.count).max() ?? 0, minimumWidths.count)
    var widths = minimumWidths + [Int](repeating: 0, count: columnCount - minimumWidths.count)
    for row in cells {
      for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
    }
    let margin = String(repeating: " ", count: indent)
    return cells.map { row in
      var line =
        margin
        + row.enumerated().map { i, cell in
          let pad = String(repeating: " ", count: widths[i] - cell.count)
          return rightAligned.contains(i) ? pad + cell : cell + pad
        }.joined(separator: separator)
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }
}
