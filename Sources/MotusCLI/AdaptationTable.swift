// `motus bench adapt`'s table: per group, one line per method and k.

import Foundation
import Motus

enum AdaptationTable {
  static func text(_ report: AdaptationBenchmark.Report) -> String {
    var out =
      "Adapting on k minutes per class of the lending half of each held-out group, scored on "
      + "the other half, window by window. Cells: recall / false "
      + "alarms (share of other windows answered the class); 'unshown' is the worst change, "
      + "against k = 0, of the classes the minutes do not show: recall on the training "
      + "sources' windows (argmax: counting unknown answers by their most probable class), false alarms there and on the held-out half.\n"
    let groups = report.rows.map(\.group).reduce(into: [String]()) {
      if !$0.contains($1) { $0.append($1) }
    }
    for group in groups {
      let rows = report.rows.filter { $0.group == group }
      guard let base = rows.first(where: { $0.method == "trained" }) ?? rows.first
      else { continue }
      let present = report.classes.indices.filter { base.held.truth[$0] > 0 }
      var lines: [[String]] = [
        ["method", "k min", "windows"] + present.map { report.classes[$0] }
          + ["ECE", "unshown: recall", "argmax", "FA train", "FA held", "seconds"]
      ]
      for row in rows {
        let unshown = report.unshown(in: row)
        func worst(_ values: [Double?], _ pick: ([Double]) -> Double?) -> String {
          pick(values.compactMap { $0 }).map { String(format: "%+.3f", $0) } ?? "-"
        }
        let recallChange = unshown.map {
          row.change({ $0.recall($1) }, of: $0, on: \.reference, from: base)
        }
        let argmaxChange = unshown.map {
          row.change({ $0.mostProbableRecall($1) }, of: $0, on: \.reference, from: base)
        }
        let alarmChange = unshown.map {
          row.change({ $0.falseAlarms($1) }, of: $0, on: \.reference, from: base)
        }
        let heldAlarmChange = unshown.map {
          row.change({ $0.falseAlarms($1) }, of: $0, on: \.held, from: base)
        }
        lines.append(
          [row.method, format(row.minutes), String(row.windowsPerClass.values.reduce(0, +))]
            + present.map { c in
              String(format: "%.2f / %.1f%%", row.held.recall(c) ?? 0, 100 * (row.held.falseAlarms(c) ?? 0))
            }
            + [
              String(format: "%.3f", row.held.expectedCalibrationError),
              row.method == "trained" ? "-" : worst(recallChange) { $0.min() },
              row.method == "trained" ? "-" : worst(argmaxChange) { $0.min() },
              row.method == "trained" ? "-" : worst(alarmChange) { $0.max() },
              row.method == "trained" ? "-" : worst(heldAlarmChange) { $0.max() },
              String(format: "%.2f", row.seconds),
            ])
      }
      out += "\n\(group) (\(base.held.windowCount) scored windows)\n"
      out += TextTable.render(lines, rightAligned: Set(1..<lines[0].count), indent: 2) + "\n"
    }
    return out
  }

  private static func format(_ minutes: Double) -> String {
    minutes == minutes.rounded() ? String(Int(minutes)) : String(minutes)
  }
}
