// Aligned plain-text tables for terminal output, the one renderer of `motus`'s text reports.
// Every cell goes through `Excerpt.printable`, so a label, session, subject or folder name that
// holds an escape sequence (`\e[2J`, `\e]0;title\a`) is shown, never obeyed by the terminal,
// and its columns stay aligned.

import MotusData

/// Plain-text tables with padded columns.
public enum TextTable {
  /// Rows with columns padded to their widest cell, two spaces apart and trailing spaces
  /// trimmed, one line each (no final line feed); `rightAligned` columns (numbers) pad on the
  /// left. Cells are escaped by `Excerpt.printable`.
  public static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
    let cells = rows.map { $0.map(Excerpt.printable) }
    let columnCount = cells.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columnCount)
    for row in cells {
      for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
    }
    return cells.map { row in
      var line = row.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        return rightAligned.contains(i) ? pad + cell : cell + pad
      }.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      return line
    }.joined(separator: "\n")
  }
}
