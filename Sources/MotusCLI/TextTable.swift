// The command line's table layouts, rendered by MotusData's `TextTable` (every cell escaped
// for the terminal).

import Motus

extension TextTable {
  /// Header and rows as `render` lays them out, each line indented by two spaces and ending in
  /// a line feed (the tables of `inspect` and `model-info`).
  static func indented(_ header: [String], _ rows: [[String]], rightAligned: Set<Int>) -> String {
    render([header] + rows, rightAligned: rightAligned, indent: 2) + "\n"
  }

  /// A confusion matrix with truth in rows, predictions in columns, and recall per row, each
  /// line after `indent` spaces.
  static func confusion(_ matrix: ConfusionMatrix, labels: [String], indent: Int = 0) -> String {
    var rows = [["truth \\ predicted"] + labels + ["recall"]]
    for (i, label) in labels.enumerated() {
      rows.append(
        [label] + matrix.counts[i].map(String.init)
          + [matrix.support(i) > 0 ? String(format: "%.2f", matrix.recall(i)) : "-"])
    }
    return render(rows, rightAligned: Set(1...(labels.count + 1)), indent: indent)
  }
}
