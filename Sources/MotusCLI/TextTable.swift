// The command line's tables: MotusData's `TextTable` (every cell escaped for the terminal) and
// the layouts the commands share.

import Motus

extension TextTable {
  /// Header and rows as `render` lays them out, each line indented by two spaces and ending in
  /// a line feed (the tables of `inspect` and `model-info`).
  static func indented(_ header: [String], _ rows: [[String]], rightAligned: Set<Int>) -> String {
    render([header] + rows, rightAligned: rightAligned).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map { ("  " + $0).trimmingTrailingSpaces() + "\n" }.joined()
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
