// `motus bench adapt --report FILE.html`: the adaptation report as one self-contained page
// (inline SVG, no script), drawn with MotusEvaluation's HTML helpers. Per held-out group, against
// the minutes per class k: the recall and the false alarms of every class on the held half, and
// the change of each unshown class's recall on the training sources' windows; then the numbers
// in a table. k = 0 is the trained model, the first point of every method's line.

import Foundation
import MotusEvaluation

/// Renders an `AdaptationBenchmark.Report` as a standalone HTML page.
public enum AdaptationReportPage {
  /// Dash patterns, one per method after the first (solid).
  static let dashes = ["", "6 3", "2 3", "8 3 2 3", "1 2"]

  /// One line of a chart: its values at each k (nil: not drawn there).
  struct Series {
    var label: String
    var color: String
    var dash: String
    var values: [Double?]
  }

  public static func render(
    _ report: AdaptationBenchmark.Report, title: String = "Motus: adapting to a placement never seen"
  ) -> String {
    var page = HTMLReport.head(title: title)
    let ks = Array(Set(report.rows.map(\.minutes))).sorted()
    page += "<p class=\"note\">Each held-out group's model, trained without it, is adapted on k "
      + "minutes per class of some of its people (k = 0: as trained) and scored window by window "
      + "on the others (the held half); the classes the minutes do not show are also scored on "
      + "the training sources' windows. Line colour: class; line style: method (legend under "
      + "each chart).</p>\n"
    for group in groupNames(report) {
      page += section(report, group: group, ks: ks)
    }
    return page + "</body>\n</html>\n"
  }

  static func groupNames(_ report: AdaptationBenchmark.Report) -> [String] {
    report.rows.map(\.group).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
  }

  /// One group: its three charts and its table.
  static func section(_ report: AdaptationBenchmark.Report, group: String, ks: [Double]) -> String {
    let rows = report.rows.filter { $0.group == group }
    guard let base = rows.first(where: { $0.method == "trained" }) else { return "" }
    let methods = rows.map(\.method).filter { $0 != "trained" }
      .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let present = report.classes.indices.filter { base.held.truth[$0] > 0 }
    func row(_ method: String, _ k: Double) -> AdaptationBenchmark.Row? {
      k == 0 ? base : rows.first { $0.method == method && $0.minutes == k }
    }
    func series(
      classes: [Int], _ measure: (AdaptationBenchmark.Row, Int) -> Double?
    ) -> [Series] {
      methods.enumerated().flatMap { m, method in
        classes.map { c in
          Series(
            label: "\(report.classes[c]), \(method)", color: HTMLReport.color(c),
            dash: dashes[m % dashes.count], values: ks.map { k in row(method, k).flatMap { measure($0, c) } })
        }
      }
    }
    let unshown = report.classes.indices.filter { c in
      base.reference.truth[c] > 0
        && rows.contains { $0.method != "trained" && report.unshown(in: $0).contains(c) }
    }
    var html = "<h2>\(HTMLReport.escape(group)) held out</h2>\n"
    html += "<p class=\"note\">\(base.held.windowCount) windows scored on the held half; "
      + "\(base.reference.windowCount) windows of the training sources.</p>\n<div class=\"row\">\n"
    html += chart(
      "Recall on the held half", ks: ks, series: series(classes: present) { $0.held.recall($1) },
      range: (0, 1))
    html += chart(
      "False alarms on the held half (share of other windows)", ks: ks,
      series: series(classes: present) { $0.held.falseAlarms($1) }, range: (0, 1))
    html += chart(
      "Classes the minutes do not show: change of recall on the training sources' windows "
        + "(band: the 0.02 allowed)", ks: ks,
      series: series(classes: unshown) { row, c in
        guard report.unshown(in: row).contains(c) else { return nil }  // shown at this k
        return row.change({ $0.recall($1) }, of: c, on: \.reference, from: base)
      }, range: (-1, 0.1), ticks: [-1, -0.75, -0.5, -0.25, 0], band: (-0.02, 0))
    html += "</div>\n" + legend(methods: methods, classes: present + unshown, names: report.classes)
    return html + table(report, rows: [base] + rows.filter { $0.method != "trained" }, present: present)
  }

  /// A line chart over the k values, y from `range.0` to `range.1`, with an optional shaded band.
  static func chart(
    _ title: String, ks: [Double], series: [Series], range: (Double, Double),
    ticks: [Double] = [0, 0.25, 0.5, 0.75, 1], band: (Double, Double)? = nil
  ) -> String {
    let (left, top, width, height) = (46.0, 10.0, 250.0, 170.0)
    func x(_ i: Int) -> Double { left + (ks.count > 1 ? Double(i) / Double(ks.count - 1) : 0.5) * width }
    func y(_ v: Double) -> Double {
      top + (1 - (min(max(v, range.0), range.1) - range.0) / (range.1 - range.0)) * height
    }
    let f = HTMLReport.format
    var svg = HTMLReport.svgOpen(width: left + width + 16, height: top + height + 40, label: title)
    svg += HTMLReport.axes(left: left, top: top, width: width, height: height)
    if let band {
      svg += "<rect x=\"\(f(left, 1))\" y=\"\(f(y(band.1), 1))\" width=\"\(f(width, 1))\" "
        + "height=\"\(f(y(band.0) - y(band.1), 1))\" fill=\"#31a354\" opacity=\"0.15\"/>\n"
    }
    for v in ticks {
      svg += "<text x=\"\(f(left - 4, 1))\" y=\"\(f(y(v) + 4, 1))\" font-size=\"10\" "
        + "text-anchor=\"end\">\(f(v, 2))</text>\n"
    }
    for (i, k) in ks.enumerated() {
      let label = k == 0 ? "0 (trained)" : minutes(k)
      svg += "<text x=\"\(f(x(i), 1))\" y=\"\(f(top + height + 14, 1))\" font-size=\"10\" "
        + "text-anchor=\"middle\">\(label)</text>\n"
    }
    svg += "<text x=\"\(f(left + width / 2, 1))\" y=\"\(f(top + height + 32, 1))\" "
      + "font-size=\"11\" text-anchor=\"middle\">minutes per class given (k)</text>\n"
    for line in series {
      let points = line.values.enumerated().compactMap { i, v in v.map { "\(f(x(i), 1)),\(f(y($0), 1))" } }
      guard !points.isEmpty else { continue }
      svg += "<polyline fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"1.6\""
        + (line.dash.isEmpty ? "" : " stroke-dasharray=\"\(line.dash)\"")
        + " points=\"\(points.joined(separator: " "))\"><title>\(HTMLReport.escape(line.label))</title></polyline>\n"
    }
    return "<div style=\"max-width: \(f(left + width + 16, 0))px\">\n"
      + "<p class=\"note\"><b>\(HTMLReport.escape(title))</b></p>\n" + svg
      + "</svg>\n</div>\n"
  }

  /// "2", "0.5".
  static func minutes(_ k: Double) -> String { k == k.rounded() ? String(Int(k)) : String(k) }

  /// Which colour is which class, and which line style which method.
  static func legend(methods: [String], classes: [Int], names: [String]) -> String {
    var html = "<p class=\"note\">"
    var seen = Set<Int>()
    for c in classes where seen.insert(c).inserted {
      html += "<span style=\"color:\(HTMLReport.color(c))\">&#9632; \(HTMLReport.escape(names[c]))</span> &#160; "
    }
    html += "<br/>"
    for (m, method) in methods.enumerated() {
      let style = ["solid", "dashed", "dotted", "dash-dot", "fine dots"][m % dashes.count]
      html += "\(style): \(HTMLReport.escape(method)) &#160; "
    }
    return html + "</p>\n"
  }

  /// Per method and k: each present class's recall / false alarms on the held half, and ECE.
  static func table(
    _ report: AdaptationBenchmark.Report, rows: [AdaptationBenchmark.Row], present: [Int]
  ) -> String {
    var html = "<table>\n<tr><th>method</th><th>k</th><th>windows given</th>"
    html += present.map { "<th>\(HTMLReport.escape(report.classes[$0]))</th>" }.joined()
    html += "<th>ECE</th></tr>\n"
    for row in rows {
      html += "<tr><td>\(HTMLReport.escape(row.method))</td><td>\(minutes(row.minutes))</td>"
        + "<td>\(row.windowsPerClass.values.reduce(0, +))</td>"
      for c in present {
        html += "<td>\(HTMLReport.format(row.held.recall(c) ?? .nan, 2)) / "
          + "\(HTMLReport.format(100 * (row.held.falseAlarms(c) ?? .nan), 1)) %</td>"
      }
      html += "<td>\(HTMLReport.format(row.held.expectedCalibrationError, 3))</td></tr>\n"
    }
    return html + "</table>\n<p class=\"note\">Cells: recall / false alarms on the held half.</p>\n"
  }
}
