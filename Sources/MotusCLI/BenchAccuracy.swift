// `motus bench accuracy`: the learned engine against the threshold baselines; prints a table.

import ArgumentParser
import Foundation
import Motus

struct BenchAccuracy: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accuracy",
    abstract:
      "Compare the learned engine with hand-tuned threshold baselines on held-out subjects.",
    discussion: """
      Loads a manifest, holds out whole subjects (default: motionsense:17-20, qrowd:3, \
      gains_pushup:Eric), trains the learned model on the rest (or loads --model), tunes the \
      threshold classifier's cut-offs on the same training subjects, then streams every \
      held-out subject's recordings, joined end to end, through each method sample by sample. \
      The learned model is trained with `motus train`'s defaults; its flags change them. \
      Scores are per sample (the latest label holds until the next); latency is the time from \
      a true activity change to the start of the first correct label that holds for 3 s (or \
      to the segment's end); flicker is predicted label changes per minute. Repetition counts \
      run each joined push-up set (known count = clips) through a fresh engine or counter. \
      Example:
        swift run -c release motus bench accuracy --manifest datasets/six-class.json
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

  @OptionGroup var source: BenchManifestOptions

  // Not `--model`: that is the model family the training flags choose.
  @Option(
    name: .customLong("model-file"),
    help: ArgumentHelp(
      "A trained model file to use instead of training.",
      discussion: "It must not have seen the test subjects, or the figures are not held out.",
      valueName: "file"))
  var model: String?

  @Option(
    help: ArgumentHelp(
      "Held-out subjects, comma-separated: source:subject names and source:17-20 ranges.",
      discussion: "Default: motionsense:17-20,qrowd:3,gains_pushup:Eric.", valueName: "list"))
  var testSubjects: String?

  @OptionGroup(title: "Trips (the learned engine's hidden Markov row)")
  var tripOptions: TripOptions

  @OptionGroup(title: "Class evidence (the learned engine's hidden Markov row)")
  var evidenceOptions: EvidenceOptions

  @Option(help: "Output format.")
  var format: Format = .table

  @OptionGroup(title: "Windows and features (learned model)") var windows: WindowOptions
  @OptionGroup(title: "Feature channels (learned model)") var featureChannels: FeatureChannelOptions
  @OptionGroup(title: "Training (learned model; motus train's flags and defaults)")
  var training: TrainingFlags

  func run() throws {
    let progress = ProgressLine()
    let report: AccuracyReport
    do {
      defer { progress.clear() }
      let data = try source.load(showing: progress)
      training.warnIfNoNegatives(data.result.dataset.negativeLabels)
      let loadedModel = try model.map { try ModelFile.read(path: $0) }
      if let loadedModel {
        try evidenceOptions.check(classes: loadedModel.classes)
      } else {
        try evidenceOptions.check(classes: data.result.dataset.labels, of: .manifest)
      }
      var configuration = AccuracyBenchmark.Configuration()
      configuration.features = featureChannels.apply(to: try windows.featureChoice())
      configuration.training = try training.trainingOptions()
      configuration.validationGroup = training.validationGroup.trainerGroup
      configuration.trips = tripOptions.rule
      configuration.evidence = try evidenceOptions.evidence
      if let testSubjects {
        configuration.testSubjects = try SubjectFilter(parsing: testSubjects, flag: "--test-subjects")
      }
      report = try AccuracyBenchmark.run(
        data: data, model: loadedModel, configuration: configuration, progress: progress.show)
    }
    switch format {
    case .json:
      let json = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(report)
      try StandardOutput.print(String(decoding: json, as: UTF8.self))
    case .table:
      try StandardOutput.print(Self.table(report))
    }
  }

  /// Per method and class: precision, false alarms in minutes per hour and false-alarm rate.
  static func falseAlarmLines(_ r: AccuracyReport) -> [String] {
    let shown = r.classes.indices.filter { !r.negativeLabels.contains(r.classes[$0]) }
    let scored = r.methods.filter { $0.falseAlarmRate != nil }
    guard !scored.isEmpty else { return [] }
    var rows = [["method"] + shown.map { r.classes[$0] }]
    for m in scored {
      rows.append(
        [m.method]
          + shown.map { c in
            let precision = m.precision.flatMap { c < $0.count ? $0[c] : nil }
            return [
              precision.map { String(format: "%.3f", $0) } ?? "-",
              String(format: "%.1f", m.falseAlarmMinutesPerHour?[c] ?? 0),
              String(format: "%.1f%%", 100 * (m.falseAlarmRate?[c] ?? 0)),
            ].joined(separator: " ")
          })
    }
    return [
      "false alarms per class (answered the class where the truth is another class or a "
        + "negative): precision / false-alarm minutes per hour / false-alarm % of the other "
        + "labels' samples",
      TextTable.render(rows), "",
    ]
  }

  /// Per held-out source and method: macro-F1, accuracy, negatives answered unknown and each
  /// class's false-alarm rate, so that one source's false alarms are not averaged away.
  static func sourceLines(_ r: AccuracyReport) -> [String] {
    let shown = r.classes.indices.filter { !r.negativeLabels.contains(r.classes[$0]) }
    let scored = r.methods.filter { $0.bySource != nil }
    guard let sources = scored.first?.bySource?.map(\.method), sources.count > 1 else { return [] }
    func f(_ x: Double?, _ d: Int) -> String { x.map { String(format: "%.\(d)f", $0) } ?? "-" }
    var rows = [
      ["source", "method", "macroF1", "acc", "neg unknown"]
        + shown.map { "\(r.classes[$0].prefix(6)) FA%" }
    ]
    for (i, source) in sources.enumerated() {
      for (j, m) in scored.enumerated() {
        guard let s = m.bySource?[i] else { continue }
        rows.append(
          [j == 0 ? Excerpt.printable(source) : "", m.method, f(s.macroF1, 3), f(s.accuracy, 3),
           f(s.negativesUnknown, 2)]
            + shown.map { c in f(s.falseAlarmRate.map { 100 * $0[c] }, 1) })
      }
    }
    return [
      "per held-out source (macro-F1 over the classes the source has; false-alarm % of the "
        + "source's samples of other labels):",
      TextTable.render(rows), "",
    ]
  }

  static func table(_ r: AccuracyReport) -> String {
    func f(_ x: Double?, _ d: Int = 3) -> String { x.map { String(format: "%.\(d)f", $0) } ?? "-" }
    // Names come from the data: every line is escaped for the terminal as table cells are.
    func names(_ list: [String]) -> String { list.map(Excerpt.printable).joined(separator: ", ") }
    var lines = [
      "classes: \(names(r.classes)) at \(f(r.sampleRateHz, 0)) Hz",
      "test subjects: \(names(r.testSubjects)) (\(r.testSamples) samples); "
        + "training: \(r.trainingSubjects.count) other subjects",
      "learned model: \(Excerpt.printable(r.learnedModel))",
      "truth changes per minute: \(f(r.truthChangesPerMinute, 2)); stable = "
        + "\(f(r.stableSeconds, 1)) s",
      "",
    ]
    // Columns of fixed widths, each holding its separation (a longer cell widens its column).
    let shown = r.classes.indices.filter { !r.negativeLabels.contains(r.classes[$0]) }
    let widths = [30] + shown.map { _ in 8 } + [9, 7, 7, 7, 8, 9, 9, 6, 7]
    var rows = [
      ["method"] + shown.map { String(r.classes[$0].prefix(6)) }
        + ["macroF1", "acc", "cover", "lat s", "missed", "flick/m", "reps", "MAE", "err%"]
        + ["us/sample"]
    ]
    for m in r.methods {
      rows.append(
        [m.method] + shown.map { f(m.f1?[$0], 2) }
          + [
            f(m.macroF1), f(m.accuracy), f(m.coverage, 2), f(m.medianLatencySeconds, 1),
            m.changes.map { "\(m.missedChanges ?? 0)/\($0)" } ?? "-", f(m.flickerPerMinute, 2),
            m.repetitionsKnown.map { "\(m.repetitionsCounted ?? 0)/\($0)" } ?? "-",
            f(m.repetitionMeanAbsoluteError, 1), f(m.repetitionPercentError, 1),
            String(format: "%.2f", m.cpuSecondsPerSample * 1e6),
          ])
    }
    lines.append(TextTable.render(rows, minimumWidths: widths, separator: ""))
    lines.append("")
    if !r.negativeLabels.isEmpty, r.methods.contains(where: { $0.negativesUnknown != nil }) {
      lines.append(
        "negative labels (\(names(r.negativeLabels))) have no right class: the share "
          + "answered unknown (a class answered counts as a false alarm below): "
          + r.methods.compactMap { m in m.negativesUnknown.map { "\(m.method) \(f($0, 2))" } }
          .joined(separator: "; "))
    }
    lines += falseAlarmLines(r)
    lines += sourceLines(r)
    lines.append(
      "shake detections per minute by true class: "
        + r.classes.compactMap { c in
          r.shakesPerMinute[c].map { "\(Excerpt.printable(c)) \(f($0, 2))" }
        }
        .joined(separator: ", "))
    func cut(_ d: [String: Float]) -> String {
      d.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.3g", $0.value))" }
        .joined(separator: ", ")
    }
    lines.append("typical cut-offs: \(cut(r.typicalCutoffs))")
    lines.append(
      "tuned cut-offs (training macro-F1 \(f(r.tunedTrainingMacroF1))): \(cut(r.tunedCutoffs))")
    return lines.joined(separator: "\n")
  }
}
