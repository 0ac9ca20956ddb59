// Aligned plain-text tables for terminal output.

import Motus

enum TextTable {
  /// Columns padded to their widest cell; `rightAligned` columns (numbers) pad on the left.
  static func render(_ rows: [[String]], rightAligned: Set<Int> = []) -> String {
    let columnCount = rows.map(\.count).max() ?? 0
    var widths = [Int](repeating: 0, count: columnCount)
    for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    return rows.map { row in
      row.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        return rightAligned.contains(i) ? pad + cell : cell + pad
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }.joined(separator: "\n")
  }

  /// A confusion matrix with truth in rows, predictions in columns, and recall per row.
  static func confusion(_ matrix: ConfusionMatrix, labels: [String]) -> String {
    var rows = [["truth \\ predicted"] + labels + ["recall"]]
    for (i, label) in labels.enumerated() {
      rows.append(
        [label] + matrix.counts[i].map(String.init)
          + [matrix.support(i) > 0 ? String(format: "%.2f", matrix.recall(i)) : "-"])
    }
    return render(rows, rightAligned: Set(1...(labels.count + 1)))
  }
}

extension String {
  func indented(_ spaces: Int) -> String {
    let pad = String(repeating: " ", count: spaces)
    return split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }.joined(
      separator: "\n")
  }

  func trimmingTrailingSpaces() -> String {
    var s = self
    while s.last == " " { s.removeLast() }
    return s
  }
}
