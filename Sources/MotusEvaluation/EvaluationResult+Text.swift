// Human-readable and CSV renderings of an evaluation: aligned tables with four decimals.

import Foundation
import MotusData
import MotusIngest
import MotusModels
import MotusOutput
import MotusStreaming

extension EvaluationResult {
  /// Sessions listed in the text report (the worst ones); the JSON has all of them.
  public static let textSessionLimit = 10

  /// The report `motus evaluate` prints by default.
  ///
  /// - Parameter normalize: Show the confusion matrix row-normalised (each truth row sums to 1)
  ///   instead of as counts.
  public func text(normalize: Bool = false) -> String {
    func f(_ x: Double) -> String { Self.decimal(x) }
    var out: [String] = []
    out.append(
      "\(windowCount) windows of \(windowLength) samples (\(Self.decimal(windowSeconds, 2)) s at "
        + "\(Self.decimal(sampleRateHz, 3)) Hz), hop \(hopLength)")
    if smoothing != .none {
      out.append(
        "Probabilities smoothed over each recording as the stream smooths them (\(smoothingDescription)): "
          + "these are the stream's answers, not single windows'.")
    }
    out.append("")
    out += Self.table(
      header: ["metric", "value"],
      rows: [
        ["accuracy", f(accuracy)], ["macro-F1", f(macroF1)],
        ["balanced accuracy", f(balancedAccuracy)], ["log loss", f(logLoss)],
        ["ECE (\(reliability.count) bins)", f(expectedCalibrationError)],
      ] + unknownRows(f))
    out.append("")
    out += confusionText(normalize: normalize)
    out.append("")
    out += Self.table(
      header: ["class", "precision", "recall", "F1", "support"],
      rows: perClass.map {
        [$0.label, f($0.precision), f($0.recall), f($0.f1), String($0.support)]
      })
    out.append("")
    out += breakdownText(f)
    out += skippedText()
    return out.joined(separator: "\n") + "\n"
  }

  /// The confusion matrix, counts or (`normalize`) each row divided by its support.
  private func confusionText(normalize: Bool) -> [String] {
    var out = [
      "Confusion matrix (rows = truth, columns = predicted"
        + (normalize ? ", each row divided by its support):" : ", window counts):")
    ]
    let confusionRows = classes.indices.map { t -> [String] in
      let support = confusion.support(t)
      return [classes[t]]
        + classes.indices.map { p in
          let n = confusion.counts[t][p]
          guard normalize else { return String(n) }
          return support == 0 ? "-" : Self.decimal(Double(n) / Double(support), 3)
        }
    }
    out += Self.table(header: ["truth \\ predicted"] + classes, rows: confusionRows)
    return out
  }

  /// Per source (when several), per subject and per session, worst first.
  private func breakdownText(_ f: (Double) -> String) -> [String] {
    var out: [String] = []
    if perSource.count > 1 {
      out.append("Per source (worst first):")
      out += Self.table(
        header: ["source", "windows", "accuracy", "macro-F1"],
        rows: perSource.map { [$0.name, String($0.windows), f($0.accuracy), f($0.macroF1)] })
      out.append("")
    }
    out.append("Per subject (worst first):")
    out += Self.table(
      header: ["subject", "windows", "accuracy", "macro-F1"],
      rows: perSubject.map { [$0.name, String($0.windows), f($0.accuracy), f($0.macroF1)] })
    out.append("")
    let shown = perSession.prefix(Self.textSessionLimit)
    out.append(
      perSession.count > shown.count
        ? "Per session (worst \(shown.count) of \(perSession.count); all in --format json):"
        : "Per session (worst first):")
    out += Self.table(
      header: ["session", "windows", "accuracy", "macro-F1"],
      rows: shown.map { [$0.name, String($0.windows), f($0.accuracy), f($0.macroF1)] })
    return out
  }

  /// Windows dropped for purity and recordings that gave no window.
  private func skippedText() -> [String] {
    var out: [String] = []
    if droppedImpureCount > 0 {
      out.append("")
      out.append("\(droppedImpureCount) windows below --min-purity were not scored.")
    }
    if !skippedRecordings.isEmpty {
      out.append("")
      out.append("Skipped recordings (no window scored): \(skippedRecordings.count)")
      out += Self.table(
        header: ["session", "subject", "samples", "reason"],
        rows: skippedRecordings.prefix(Self.textSessionLimit).map {
          [$0.session, $0.subject, String($0.sampleCount), $0.reason]
        }, leftAligned: [0, 3])
      if skippedRecordings.count > Self.textSessionLimit {
        let more = skippedRecordings.count - Self.textSessionLimit
        out.append("... and \(more) more (see --format json)")
      }
    }
    return out
  }

  /// Long-format CSV `section,name,metric,value`: overall metrics, per class, per subject,
  /// per session, confusion counts (`confusion,<truth>,<predicted>,<count>`) and skipped
  /// recordings (`skipped,<session>,samples,<n>`).
  public func csv() -> String {
    var lines = ["section,name,metric,value"]
    func add(_ section: String, _ name: String, _ metric: String, _ value: String) {
      lines.append([section, name, metric, value].map(CSVText.field).joined(separator: ","))
    }
    func d(_ x: Double) -> String { String(x) }
    add("overall", "", "accuracy", d(accuracy))
    add("overall", "", "macro_f1", d(macroF1))
    add("overall", "", "balanced_accuracy", d(balancedAccuracy))
    add("overall", "", "log_loss", d(logLoss))
    add("overall", "", "ece", d(expectedCalibrationError))
    add("overall", "", "windows", String(windowCount))
    add("overall", "", "smoothing", smoothingDescription)
    for c in perClass {
      add("class", c.label, "precision", d(c.precision))
      add("class", c.label, "recall", d(c.recall))
      add("class", c.label, "f1", d(c.f1))
      add("class", c.label, "support", String(c.support))
    }
    for (section, groups) in [
      ("source", perSource), ("subject", perSubject), ("session", perSession),
    ] {
      for g in groups {
        add(section, g.name, "accuracy", d(g.accuracy))
        add(section, g.name, "macro_f1", d(g.macroF1))
        add(section, g.name, "windows", String(g.windows))
      }
    }
    for t in classes.indices {
      for p in classes.indices {
        add("confusion", classes[t], classes[p], String(confusion.counts[t][p]))
      }
    }
    for s in skippedRecordings { add("skipped", s.session, "samples", String(s.sampleCount)) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `x` with `digits` decimals ("nan" for NaN).
  static func decimal(_ x: Double, _ digits: Int = 4) -> String {
    x.isNaN ? "nan" : String(format: "%.\(digits)f", x)
  }

  /// Columns padded to their widest cell: `leftAligned` columns (default: the first) on the
  /// left, the others on the right; names escaped for the terminal (`TextTable`).
  static func table(
    header: [String], rows: [[String]], leftAligned: Set<Int> = [0]
  ) -> [String] {
    let right = Set(header.indices).subtracting(leftAligned)
    return TextTable.render([header] + rows, rightAligned: right).components(separatedBy: "\n")
  }
}

extension EvaluationResult {
  /// When the model can answer unknown: how many windows get a class, how accurate those
  /// are, and why the others do not; and how many negative-label windows it answers unknown.
  /// The other rows score every window by its top class.
  func unknownRows(_ f: (Double) -> String) -> [[String]] {
    let reasons = unknownByReason
    guard unknownThreshold > 0 || !reasons.isEmpty || negatives != nil else { return [] }
    let named = self.named
    var rows: [[String]] = []
    if unknownThreshold > 0 { rows.append(["unknown below", f(Double(unknownThreshold))]) }
    rows += [
      ["coverage (named a class)", f(named.coverage)],
      ["accuracy when named", named.accuracy.isNaN ? "-" : f(named.accuracy)],
    ]
    for reason in UnknownReason.allCases {
      guard let count = reasons[reason.rawValue] else { continue }
      rows.append(["unknown: \(reason.rawValue)", f(Double(count) / Double(max(windowCount, 1)))])
    }
    if let negatives {
      rows.append([
        "negatives answered unknown (\(negatives.windows) windows of "
          + "\(negatives.labels.joined(separator: ", ")))", f(negatives.unknownShare),
      ])
      // Answered a class instead: false alarms, in the model's class order.
      for c in classes {
        guard let share = negatives.share(answered: c) else { continue }
        rows.append(["negatives answered \(c) (false alarms)", f(share)])
      }
    }
    return rows
  }
}
