// One self-contained HTML page (inline CSS and SVG, no script, no network) drawn from an
// EvaluationResult: metric summary, confusion heat map, reliability diagram, per-class bars,
// a timeline of predicted versus true labels for one session, and per-subject/session tables.
// The markup is well-formed XML (void elements self-closed, only XML entities), so it can be
// checked with an XML parser. Coordinates are SVG user units (pixels).

import Foundation
import MotusStreaming

/// Renders an evaluation as a standalone HTML page.
public enum HTMLReport {
  /// Class colours, in class order (repeating after ten).
  package static let palette = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#bab0ac",
  ]

  /// The page.
  ///
  /// - Parameters:
  ///   - result: The evaluation to draw.
  ///   - timelineSession: Session for the timeline; nil picks the first (natural order).
  ///   - title: Shown as the page title and heading.
  /// - Throws: `EvaluationError.unknownSession` when `timelineSession` was not evaluated.
  public static func render(
    result: EvaluationResult, timelineSession: String? = nil, title: String = "Motus evaluation"
  ) throws -> String {
    let sessions = Array(Set(result.sessions)).sorted(by: naturalOrderOfNames)
    let session = timelineSession ?? sessions.first ?? ""
    guard sessions.contains(session) else {
      throw EvaluationError.unknownSession(session, available: sessions)
    }
    var page = head(title: title)
    page += summary(result)
    page += "<div class=\"row\">\n<div>\n<h2>Confusion matrix</h2>\n"
    page += "<p class=\"note\">Rows: true class; columns: predicted. Colour: share of the row; "
      + "numbers: window counts.</p>\n"
    page += confusionSVG(result) + "</div>\n<div>\n<h2>Reliability</h2>\n"
    page += "<p class=\"note\">Accuracy per confidence bin (bars) against the diagonal of "
      + "perfect calibration; the number above each bar is its window count.</p>\n"
    page += reliabilitySVG(result) + "</div>\n</div>\n"
    page += "<h2>Precision, recall and F1 by class</h2>\n" + classBarsSVG(result)
    page += "<h2>Timeline: \(escape(session))</h2>\n"
    page += "<p class=\"note\">Each window drawn over its hop; top band: true label, middle: "
      + "predicted, bottom: red where they differ.</p>\n"
    page += timelineSVG(result, session: session)
    page += groups(result)
    page += "</body>\n</html>\n"
    return page
  }

  /// The document head with its style sheet, and the title.
  package static func head(title: String) -> String {
    """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>\(escape(title))</title>
      <style>
      body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px;
        color: #222; background: #fff; max-width: 1100px; }
      h1 { font-size: 22px; margin-bottom: 4px; }
      h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
      p.note { color: #555; font-size: 13px; margin-top: 2px; }
      .cards { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 12px; }
      .card { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 110px; }
      .card .v { font-size: 22px; font-weight: 600; }
      .card .k { font-size: 12px; color: #666; }
      .row { display: flex; flex-wrap: wrap; gap: 32px; align-items: flex-start; }
      table { border-collapse: collapse; font-size: 13px; }
      th, td { padding: 3px 10px; border-bottom: 1px solid #eee; text-align: right; }
      th:first-child, td:first-child { text-align: left; }
      svg text { font-family: inherit; }
      </style>
      </head>
      <body>
      <h1>\(escape(title))</h1>

      """
  }

  /// What was scored, and the headline metrics as cards.
  private static func summary(_ result: EvaluationResult) -> String {
    var page = ""
    page += "<p class=\"note\">\(result.windowCount) windows of \(result.windowLength) samples "
      + "(\(format(result.windowSeconds, 2)) s at \(format(result.sampleRateHz, 3)) Hz), hop "
      + "\(result.hopLength); \(counted(result.perSubject.count, "subject")), "
      + "\(counted(result.perSession.count, "session")); "
      + "\(counted(result.skippedRecordings.count, "recording")) "
      + "skipped (shorter than one window).</p>\n"
    if result.smoothing != .none {
      page += "<p class=\"note\">Probabilities smoothed over each recording as the stream "
        + "smooths them (\(escape(result.smoothingDescription))).</p>\n"
    }
    page += negativeAnswers(result)
    page += "<div class=\"cards\">\n"
    for (name, value) in [
      ("accuracy", result.accuracy), ("macro-F1", result.macroF1),
      ("balanced accuracy", result.balancedAccuracy), ("log loss", result.logLoss),
      ("ECE (\(result.reliability.count) bins)", result.expectedCalibrationError),
    ] {
      page += "<div class=\"card\"><div class=\"v\">\(format(value, 3))</div>"
        + "<div class=\"k\">\(escape(name))</div></div>\n"
    }
    page += "</div>\n"
    return page
  }

  /// How the windows of negative labels (none of the classes) were answered: unknown is right,
  /// any class a false alarm.
  private static func negativeAnswers(_ result: EvaluationResult) -> String {
    guard let negatives = result.negatives, negatives.windows > 0 else { return "" }
    var cells = ["unknown \(format(100 * negatives.unknownShare)) %"]
    for c in result.classes {
      guard let share = negatives.share(answered: c) else { continue }
      cells.append("\(escape(c)) \(format(100 * share)) %")
    }
    return "<p class=\"note\">\(negatives.windows) windows of activities that are none of the "
      + "classes (\(escape(negatives.labels.joined(separator: ", ")))), answered: "
      + cells.joined(separator: ", ") + " (a class answered there is a false alarm).</p>\n"
  }

  /// Sources, subjects and sessions worst first, and the skipped recordings.
  private static func groups(_ result: EvaluationResult) -> String {
    var page = "<div class=\"row\">\n<div>\n"
    if result.perSource.count > 1 {
      page += "<h2>Sources (worst first)</h2>\n"
        + groupTable(result.perSource, nameHeader: "source", limit: nil)
    }
    page += "<h2>Subjects (worst first)</h2>\n"
    page += groupTable(result.perSubject, nameHeader: "subject", limit: nil)
    page += "</div>\n<div>\n<h2>Sessions (worst first)</h2>\n"
    page += groupTable(result.perSession, nameHeader: "session", limit: 15)
    page += "</div>\n</div>\n"
    if !result.skippedRecordings.isEmpty {
      page += "<h2>Skipped recordings</h2>\n<table>\n<tr><th>session</th><th>subject</th>"
        + "<th>samples</th><th>reason</th></tr>\n"
      for s in result.skippedRecordings.prefix(50) {
        page += "<tr><td>\(escape(s.session))</td><td>\(escape(s.subject))</td>"
          + "<td>\(s.sampleCount)</td><td>\(escape(s.reason))</td></tr>\n"
      }
      page += "</table>\n"
    }
    return page
  }

  // MARK: - Charts

  /// K×K cells coloured by row share (white -> blue), counts written in each cell.
  static func confusionSVG(_ result: EvaluationResult) -> String {
    let k = result.classes.count
    let cell = 46.0
    let left = 12.0 + 7.0 * Double(result.classes.map(\.count).max() ?? 4)
    let top = left
    let width = left + cell * Double(k) + 10
    let height = top + cell * Double(k) + 10
    var svg = svgOpen(width: width, height: height, label: "confusion matrix heat map")
    for (c, name) in result.classes.enumerated() {
      let x = left + cell * (Double(c) + 0.5)
      svg += "<text x=\"\(format(x))\" y=\"\(format(top - 6))\" font-size=\"12\" "
        + "transform=\"rotate(-45 \(format(x)) \(format(top - 6)))\">\(escape(name))</text>\n"
      let y = top + cell * (Double(c) + 0.5) + 4
      svg += "<text x=\"\(format(left - 6))\" y=\"\(format(y))\" font-size=\"12\" "
        + "text-anchor=\"end\">\(escape(name))</text>\n"
    }
    for t in 0..<k {
      let support = result.confusion.support(t)
      for p in 0..<k {
        let n = result.confusion.counts[t][p]
        let share = support == 0 ? 0 : Double(n) / Double(support)
        let x = left + cell * Double(p)
        let y = top + cell * Double(t)
        svg += "<rect x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(cell))\" "
          + "height=\"\(format(cell))\" fill=\"\(blue(share))\" stroke=\"#fff\">"
          + "<title>\(escape(result.classes[t])) as \(escape(result.classes[p])): \(n)"
          + " (\(format(share * 100, 1)) %)</title></rect>\n"
        svg += "<text x=\"\(format(x + cell / 2))\" y=\"\(format(y + cell / 2 + 4))\" "
          + "font-size=\"12\" text-anchor=\"middle\" fill=\"\(share > 0.55 ? "#fff" : "#222")\">"
          + "\(n)</text>\n"
      }
    }
    return svg + "</svg>\n"
  }

  /// Bars of accuracy per confidence bin, the diagonal, and counts.
  static func reliabilitySVG(_ result: EvaluationResult) -> String {
    let size = 300.0
    let left = 46.0, top = 20.0, bottom = 40.0
    var svg = svgOpen(
      width: left + size + 20, height: top + size + bottom, label: "reliability diagram")
    svg += axes(left: left, top: top, width: size, height: size)
    for tick in stride(from: 0.0, through: 1.0, by: 0.2) {
      let x = left + tick * size
      let y = top + size - tick * size
      svg += "<text x=\"\(format(x))\" y=\"\(format(top + size + 16))\" font-size=\"11\" "
        + "text-anchor=\"middle\">\(format(tick, 1))</text>\n"
      svg += "<text x=\"\(format(left - 6))\" y=\"\(format(y + 4))\" font-size=\"11\" "
        + "text-anchor=\"end\">\(format(tick, 1))</text>\n"
    }
    svg += "<text x=\"\(format(left + size / 2))\" y=\"\(format(top + size + 34))\" "
      + "font-size=\"12\" text-anchor=\"middle\">confidence (top-class probability)</text>\n"
    svg += "<text x=\"12\" y=\"\(format(top + size / 2))\" font-size=\"12\" "
      + "text-anchor=\"middle\" transform=\"rotate(-90 12 \(format(top + size / 2)))\">"
      + "accuracy</text>\n"
    for bin in result.reliability where bin.count > 0 {
      let x = left + bin.lower * size
      let w = (bin.upper - bin.lower) * size
      let h = bin.accuracy * size
      svg += "<rect x=\"\(format(x + 1))\" y=\"\(format(top + size - h))\" "
        + "width=\"\(format(w - 2))\" height=\"\(format(h))\" fill=\"#4e79a7\" "
        + "fill-opacity=\"0.85\"><title>confidence \(format(bin.lower, 2))-"
        + "\(format(bin.upper, 2)): accuracy \(format(bin.accuracy, 3)), mean confidence "
        + "\(format(bin.meanConfidence, 3)), \(bin.count) windows</title></rect>\n"
      svg += "<text x=\"\(format(x + w / 2))\" y=\"\(format(top + size - h - 3))\" "
        + "font-size=\"9\" text-anchor=\"middle\">\(bin.count)</text>\n"
    }
    svg += "<line x1=\"\(format(left))\" y1=\"\(format(top + size))\" "
      + "x2=\"\(format(left + size))\" y2=\"\(format(top))\" stroke=\"#e15759\" "
      + "stroke-dasharray=\"5 4\" stroke-width=\"1.5\"/>\n"
    return svg + "</svg>\n"
  }

  /// Three horizontal bars per class: precision, recall, F1.
  static func classBarsSVG(_ result: EvaluationResult) -> String {
    // Room for "label (n=support)" at about 7 px per character of 12 px text.
    let longest = result.perClass.map { $0.label.count + "\($0.support)".count + 5 }.max() ?? 8
    let left = 16.0 + 7.0 * Double(max(8, longest))
    let barWidth = 360.0, barHeight = 9.0, gap = 10.0
    let groupHeight = 3 * barHeight + gap
    let top = 26.0
    let height = top + groupHeight * Double(result.classes.count) + 24
    var svg = svgOpen(
      width: left + barWidth + 150, height: height, label: "per-class precision, recall and F1")
    let series = [("precision", "#4e79a7"), ("recall", "#f28e2b"), ("F1", "#59a14f")]
    for (i, (name, color)) in series.enumerated() {
      let x = left + Double(i) * 90
      svg += "<rect x=\"\(format(x))\" y=\"6\" width=\"10\" height=\"10\" fill=\"\(color)\"/>"
        + "<text x=\"\(format(x + 14))\" y=\"15\" font-size=\"12\">\(name)</text>\n"
    }
    for (c, metrics) in result.perClass.enumerated() {
      let y0 = top + groupHeight * Double(c)
      svg += "<text x=\"\(format(left - 8))\" y=\"\(format(y0 + 1.5 * barHeight + 4))\" "
        + "font-size=\"12\" text-anchor=\"end\">\(escape(metrics.label)) "
        + "(n=\(metrics.support))</text>\n"
      for (i, value) in [metrics.precision, metrics.recall, metrics.f1].enumerated() {
        let y = y0 + Double(i) * barHeight
        svg += "<rect x=\"\(format(left))\" y=\"\(format(y))\" "
          + "width=\"\(format(max(0, value) * barWidth))\" height=\"\(format(barHeight - 1))\" "
          + "fill=\"\(series[i].1)\"><title>\(escape(metrics.label)) \(series[i].0): "
          + "\(format(value, 3))</title></rect>\n"
        svg += "<text x=\"\(format(left + max(0, value) * barWidth + 4))\" "
          + "y=\"\(format(y + barHeight - 1.5))\" font-size=\"9\">\(format(value, 2))</text>\n"
      }
    }
    let axisY = top + groupHeight * Double(result.classes.count)
    svg += "<line x1=\"\(format(left))\" y1=\"\(format(axisY))\" "
      + "x2=\"\(format(left + barWidth))\" y2=\"\(format(axisY))\" stroke=\"#999\"/>\n"
    for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
      let x = left + tick * barWidth
      svg += "<text x=\"\(format(x))\" y=\"\(format(axisY + 14))\" font-size=\"10\" "
        + "text-anchor=\"middle\">\(format(tick, 2))</text>\n"
    }
    return svg + "</svg>\n"
  }

  /// Truth, prediction and disagreement bands along the session's time axis, with a legend.
  static func timelineSVG(_ result: EvaluationResult, session: String) -> String {
    let rows = result.sessions.indices.filter { result.sessions[$0] == session }
      .sorted { result.startTimes[$0] < result.startTimes[$1] }
    let (hopSeconds, windowSeconds) = (result.hopSeconds, result.windowSeconds)
    let start = rows.first.map { result.startTimes[$0] } ?? 0
    let end = rows.last.map { result.startTimes[$0] + windowSeconds } ?? 1
    let span = max(end - start, 1e-9)
    let left = 80.0, width = 900.0, band = 26.0, top = 10.0
    let legendY = top + 3 * band + 44
    let height = legendY + 20
    var svg = svgOpen(width: left + width + 20, height: height, label: "timeline of \(session)")
    // Adjacent windows meet exactly; crisp edges keep anti-aliasing from drawing seams.
    svg += "<g shape-rendering=\"crispEdges\">\n"
    for (i, name) in ["truth", "predicted", "error"].enumerated() {
      let y = top + band * Double(i) + band / 2 + 4
      svg += "<text x=\"\(format(left - 8))\" y=\"\(format(y))\" "
        + "font-size=\"12\" text-anchor=\"end\">\(name)</text>\n"
    }
    func x(_ t: Double) -> Double { left + (t - start) / span * width }
    for (n, row) in rows.enumerated() {
      let t0 = result.startTimes[row]
      // Each window covers up to the next window's start (its hop), the last one its length.
      let t1 =
        n + 1 < rows.count
        ? min(result.startTimes[rows[n + 1]], t0 + hopSeconds * 1.5)
        : t0 + windowSeconds
      let x0 = x(t0), w = max(0.5, x(t1) - x0)
      let truth = result.truth[row], predicted = result.predicted[row]
      svg += "<rect x=\"\(format(x0))\" y=\"\(format(top))\" width=\"\(format(w))\" "
        + "height=\"\(format(band - 4))\" fill=\"\(color(truth))\"/>"
      svg += "<rect x=\"\(format(x0))\" y=\"\(format(top + band))\" width=\"\(format(w))\" "
        + "height=\"\(format(band - 4))\" fill=\"\(color(predicted))\"><title>"
        + "\(format(t0 - start, 1)) s: \(escape(result.classes[predicted])) "
        + "(p=\(format(Double(result.probabilities[row, predicted]), 2))), truth "
        + "\(escape(result.classes[truth]))</title></rect>"
      if truth != predicted {
        svg += "<rect x=\"\(format(x0))\" y=\"\(format(top + 2 * band))\" "
          + "width=\"\(format(w))\" height=\"\(format(band - 4))\" fill=\"#d62728\"/>"
      }
      svg += "\n"
    }
    svg += "</g>\n"
    let axisY = top + 3 * band
    svg += "<line x1=\"\(format(left))\" y1=\"\(format(axisY))\" x2=\"\(format(left + width))\" "
      + "y2=\"\(format(axisY))\" stroke=\"#999\"/>\n"
    for i in 0...5 {
      let t = span * Double(i) / 5
      svg += "<text x=\"\(format(left + width * Double(i) / 5))\" y=\"\(format(axisY + 14))\" "
        + "font-size=\"10\" text-anchor=\"middle\">\(format(t, 0)) s</text>\n"
    }
    var legendX = left
    for (c, name) in result.classes.enumerated() {
      svg += "<rect x=\"\(format(legendX))\" y=\"\(format(legendY - 10))\" width=\"10\" "
        + "height=\"10\" fill=\"\(color(c))\"/><text x=\"\(format(legendX + 14))\" "
        + "y=\"\(format(legendY - 1))\" font-size=\"12\">\(escape(name))</text>\n"
      legendX += 24 + 7 * Double(name.count)
    }
    return svg + "</svg>\n"
  }

  static func groupTable(
    _ groups: [EvaluationResult.GroupMetrics], nameHeader: String, limit: Int?
  ) -> String {
    var html = "<table>\n<tr><th>\(nameHeader)</th><th>windows</th><th>accuracy</th>"
      + "<th>macro-F1</th></tr>\n"
    for g in groups.prefix(limit ?? groups.count) {
      html += "<tr><td>\(escape(g.name))</td><td>\(g.windows)</td>"
        + "<td>\(format(g.accuracy, 3))</td><td>\(format(g.macroF1, 3))</td></tr>\n"
    }
    if let limit, groups.count > limit {
      html += "<tr><td>... \(groups.count - limit) more</td><td></td><td></td><td></td></tr>\n"
    }
    return html + "</table>\n"
  }

  // MARK: - Helpers

  package static func svgOpen(width: Double, height: Double, label: String) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(format(width))\" "
      + "height=\"\(format(height))\" viewBox=\"0 0 \(format(width)) \(format(height))\" "
      + "role=\"img\" aria-label=\"\(escape(label))\">\n"
  }

  package static func axes(left: Double, top: Double, width: Double, height: Double) -> String {
    "<rect x=\"\(format(left))\" y=\"\(format(top))\" width=\"\(format(width))\" "
      + "height=\"\(format(height))\" fill=\"#fafafa\" stroke=\"#999\"/>\n"
  }

  /// White (0) to dark blue (1).
  static func blue(_ share: Double) -> String {
    let s = min(1, max(0, share))
    let r = Int((247 - s * (247 - 8)).rounded())
    let g = Int((251 - s * (251 - 48)).rounded())
    let b = Int((255 - s * (255 - 107)).rounded())
    return "rgb(\(r),\(g),\(b))"
  }

  package static func color(_ classIndex: Int) -> String { palette[classIndex % palette.count] }

  /// Fixed decimals; "nan" for NaN (never an empty attribute).
  package static func format(_ x: Double, _ digits: Int = 1) -> String {
    x.isFinite ? String(format: "%.\(digits)f", x) : "nan"
  }

  /// Escapes the five XML special characters.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.count)
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(c)
      }
    }
    return out
  }

  static func naturalOrderOfNames(_ a: String, _ b: String) -> Bool {
    a.compare(b, options: .numeric) == .orderedAscending
  }

  /// "1 subject", "4 subjects".
  private static func counted(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
  }
}
