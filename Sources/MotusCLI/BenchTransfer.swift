// `motus bench transfer`: the learned engine and the tuned threshold rules on sources and body
// placements that training never saw; prints a table (or JSON).

import ArgumentParser
import Foundation
import Motus

struct BenchTransfer: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transfer",
    abstract: "Judge transfer: leave each source, and each body placement, out of training.",
    discussion: """
      For every source of the manifest in turn, trains the learned model on the other sources \
      and tests it on this one; for every placement of a source that declares placements \
      (dsads: chest T, wrist RA, knee LL), trains on its other placements and tests on this \
      one, with the source's people split into folds so that nobody is on both sides. The \
      threshold rules are tuned on the same training recordings. Each test subject's \
      recordings are joined end to end and streamed sample by sample (as `motus bench \
      accuracy` does); scores are per sample over the classes the group has, and the share \
      of negative-label samples (activities that are none of the classes) answered unknown; \
      per class, precision and false alarms (the class answered where the truth is another \
      class or a negative), in minutes per hour and as a share of the other labels' samples. \
      The learned model is trained once per seed and the table gives the median and range. \
      Training flags are `motus train`'s, with the same defaults, so a variant of the recipe \
      is judged by adding its flags. Example:
        motus bench transfer --manifest datasets/six-class.json --seeds 1,2,3
      """)


  @OptionGroup var source: BenchManifestOptions

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Seeds of the learned model, comma-separated.", valueName: "list"))
  var seeds = "1,2,3"

  @Option(
    help: ArgumentHelp(
      "Sources to hold out, comma-separated (default: every source).", valueName: "list"))
  var sources: String?

  @Flag(help: "Skip the held-out placements.")
  var noPlacements = false

  @Option(
    parsing: .unconditional, help: "Subject folds per held-out placement (at least 2).")
  var placementFolds = 2

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Folds of the push-up runs held out within their source (0, the default, skips them).",
      discussion: "Push-up sets of known repetition count (gains_pushup's joined clips) are "
        + "always counted where their source is held out. With folds, that source's runs are "
        + "also split into this many folds; each fold's sets are streamed as recorded and "
        + "under a random sensor rotation by a model trained on everything else, its own "
        + "source's other runs included. As many folds as runs leaves one run out at a time."))
  var pushUpFolds = 0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Class-switch probability of the stream's smoothing for the streamed rows, in (0, 1).",
      valueName: "p"))
  var switchProbability: Float = StreamConfiguration.defaultSwitchProbability

  @OptionGroup(title: "Structure of the motion (the learned engine's streams)")
  var structure: StructureOptions

  @OptionGroup(title: "Trips (the learned engine's streamed rows)")
  var tripOptions: TripOptions

  @OptionGroup(title: "Class evidence (the learned engine's streamed rows)")
  var evidenceOptions: EvidenceOptions

  @Option(
    help: ArgumentHelp(
      "Add a streamed row for each of these class evidence settings, separated by ';', from "
        + "the same models: FACTORS as --evidence-factors takes them, or FACTORS/ENTRY-FACTORS.",
      discussion: "Each row is 'learned, streamed, evidence FACTORS[, entry ENTRY-FACTORS]' with "
        + "the other flags as given, so one training compares settings. Example: "
        + "`--compare-evidence 'none;push-up=0.5;none/push-up=0.2'`.",
      valueName: "lists"))
  var compareEvidence: String?

  @Flag(
    help: ArgumentHelp(
      "Add streamed rows with each structure rule on its own, from the same models.",
      discussion: "Rows 'learned, streamed, push-up gate', '... push-up gate, unknown' (the "
        + "fallback unknown) and '... no trips' (or '... trips' with --no-trips), each rule "
        + "with its defaults, or with the settings of --gate-* and --trip-* when given; the "
        + "'learned, streamed' row stays as the other flags make it, so one training judges "
        + "each rule with and without."))
  var compareStructure = false

  @OptionGroup var reporting: BenchReportOptions

  @Option(
    help: ArgumentHelp(
      "Also write every held-out window's probabilities and novelty score as CSV.",
      discussion: "One row per window of each group, fold and seed: the learned model's "
        + "calibrated probabilities before smoothing, so that smoothing, calibration and "
        + "unknown rules can be studied on the table's own held-out windows without training.",
      valueName: "file"))
  var windowsCSV: String?

  @OptionGroup(title: "Windows and features") var windows: WindowOptions
  @OptionGroup(title: "Feature channels") var featureChannels: FeatureChannelOptions
  @OptionGroup(title: "Training") var training: TrainingFlags

  func validate() throws {
    let list = try seedList()
    guard !list.isEmpty else { throw ValidationError("'--seeds' names no seed. Example: 1,2,3") }
    guard (0...256).contains(pushUpFolds) && pushUpFolds != 1 else {
      throw ValidationError("'--push-up-folds' must be 0 or in 2...256, got \(pushUpFolds).")
    }
    guard placementFolds >= 2 && placementFolds <= 64 else {
      throw ValidationError("'--placement-folds' must be in 2...64, got \(placementFolds).")
    }
    guard switchProbability > 0 && switchProbability < 1 else {
      throw ValidationError("'--switch-probability' must be in (0, 1), got \(switchProbability).")
    }
    _ = try evidenceVariants()
  }

  func seedList() throws -> [UInt64] {
    try DataOptions.list(seeds).map { item in
      guard let seed = UInt64(item) else {
        throw ValidationError("'--seeds' item '\(item)' is not a whole number. Example: 1,2,3")
      }
      return seed
    }
  }

  func run() throws {
    // Before minutes of work: a bad path fails at once, and no input is ever overwritten.
    let inputs = source.dataSource.inputFiles()
    let outputFile = try reporting.output.map {
      try OutputFile(
        path: $0, flag: "--output", inputs: inputs, otherOutputs: windowsCSV.map { [$0] } ?? [])
    }
    let windowsFile = try windowsCSV.map {
      try OutputFile(
        path: $0, flag: "--windows-csv", inputs: inputs,
        otherOutputs: reporting.output.map { [$0] } ?? [])
    }
    let progress = ProgressLine()
    let data: WholeLoad
    do {
      defer { progress.clear() }
      data = try source.load(showing: progress)
    }
    training.warnIfNoNegatives(data.result.dataset.negativeLabels)
    try checkEvidenceNames(classes: data.result.dataset.labels)
    let configuration = try benchmarkConfiguration()
    let clock = ContinuousClock()
    let started = clock.now
    let report: TransferReport
    do {
      defer { progress.clear() }
      report = try TransferBenchmark.run(
        data: data, configuration: configuration, progress: { progress.show($0) })
    }
    if let windowsFile, let rows = report.windows {
      try windowsFile.write(Self.windowsCSV(rows))
      try windowsFile.commit()
    }
    var summary = report
    summary.windows = nil
    let json = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(summary)
    try outputFile?.write([UInt8](json) + Array("\n".utf8))
    try outputFile?.commit()
    switch reporting.format {
    case .json: try StandardOutput.print(String(decoding: json, as: UTF8.self))
    case .table:
      try StandardOutput.print(Self.table(report))
      let (seconds, attoseconds) = (clock.now - started).components
      try StandardOutput.print(
        String(format: "elapsed %.0f s", Double(seconds) + Double(attoseconds) * 1e-18))
    }
  }

  /// The benchmark's settings, as the flags give them.
  func benchmarkConfiguration() throws -> TransferBenchmark.Configuration {
    var configuration = TransferBenchmark.Configuration()
    configuration.seeds = try seedList()
    configuration.features = featureChannels.apply(to: try windows.featureChoice())
    configuration.training = try training.trainingOptions()
    configuration.validationGroup = training.validationGroup.trainerGroup
    configuration.streamed = .hiddenMarkov(switchProbability: switchProbability)
    configuration.pushUpGate = structure.gate
    configuration.trips = tripOptions.rule
    configuration.evidence = try evidenceOptions.evidence
    if compareStructure { configuration.variants = try structureVariants() }
    configuration.variants += try evidenceVariants()
    configuration.placementFolds = placementFolds
    configuration.pushUpFolds = pushUpFolds
    configuration.placements = !noPlacements
    configuration.sources = sources.map(DataOptions.list)
    configuration.parallelism = reporting.parallelism
    configuration.keepWindows = windowsCSV != nil
    return configuration
  }

  /// `--compare-structure`'s rows: each rule on its own, the other as the flags set it.
  func structureVariants() throws -> [TransferBenchmark.Configuration.Variant] {
    let gate = structure.gate ?? PushUpGate()
    var unknownGate = gate
    unknownGate.fallback = .unknown
    let trips = tripOptions.rule
    let evidence = try evidenceOptions.evidence
    return [
      .init(name: "push-up gate", pushUpGate: gate, trips: trips, evidence: evidence),
      .init(
        name: "push-up gate, unknown", pushUpGate: unknownGate, trips: trips, evidence: evidence),
      trips == nil
        ? .init(name: "trips", pushUpGate: structure.gate, trips: TripRule(), evidence: evidence)
        : .init(name: "no trips", pushUpGate: structure.gate, trips: nil, evidence: evidence),
    ]
  }

  /// Refuses a class the manifest does not have in any evidence flag, `--compare-evidence`'s
  /// too: the models are trained on the manifest's labels, so a misspelt name would change
  /// nothing, silently.
  func checkEvidenceNames(classes: [String]) throws {
    try evidenceOptions.check(classes: classes, of: .manifest)
    // A row's entry factors are the base's unless it gives its own (FACTORS/ENTRY-FACTORS).
    let base = try evidenceOptions.evidence
    for variant in try evidenceVariants() {
      var given = variant.evidence.factors.keys.map { $0 }
      if variant.evidence.entryFactors != base.entryFactors {
        given += variant.evidence.entryFactors.keys
      }
      try EvidenceOptions.check(
        names: given, flag: "--compare-evidence", classes: classes, of: .manifest)
    }
  }

  /// `--compare-evidence`'s rows: the streamed row's settings with other class evidence.
  func evidenceVariants() throws -> [TransferBenchmark.Configuration.Variant] {
    guard let compareEvidence else { return [] }
    let base = try evidenceOptions.evidence
    return try compareEvidence.split(separator: ";").map { item in
      let lists = item.split(separator: "/", omittingEmptySubsequences: false)
      guard lists.count <= 2 else {
        throw ValidationError(
          "'--compare-evidence' takes FACTORS or FACTORS/ENTRY-FACTORS per row, got '\(item)'.")
      }
      var evidence = base
      evidence.factors = try EvidenceOptions.parse(String(lists[0]), flag: "--compare-evidence")
      var name = "evidence \(EvidenceOptions.text(evidence.factors))"
      if lists.count == 2 {
        evidence.entryFactors = try EvidenceOptions.parse(
          String(lists[1]), flag: "--compare-evidence")
        name += ", entry \(EvidenceOptions.text(evidence.entryFactors))"
      }
      return .init(
        name: name, pushUpGate: structure.gate, trips: tripOptions.rule, evidence: evidence)
    }
  }

  /// `group,fold,seed,session,start,label,p:<class>...,novelty,novelty_threshold`.
  static func windowsCSV(_ rows: [TransferReport.HeldOutWindow]) -> String {
    var classes: [String] = []
    for row in rows { for c in row.classes where !classes.contains(c) { classes.append(c) } }
    func quoted(_ s: String) -> String {
      s.contains(",") || s.contains("\"")
        ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }
    var lines = [
      (["group", "fold", "seed", "session", "start", "label"] + classes.map { "p:\($0)" }
        + ["novelty", "novelty_threshold"]).map(quoted).joined(separator: ",")
    ]
    for row in rows {
      let p = classes.map { c in
        row.classes.firstIndex(of: c).map { "\(row.probabilities[$0])" } ?? "0"
      }
      let cells =
        [
          quoted(row.group), "\(row.fold)", "\(row.seed)", quoted(row.session), "\(row.start)",
          quoted(row.label),
        ] + p + [
          row.noveltyScore.map { "\($0)" } ?? "", row.noveltyThreshold.map { "\($0)" } ?? "",
        ]
      lines.append(cells.joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func f(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "-" }

  /// `median (min-max)` over seeds, or the value when they agree.
  private static func range(_ s: SeedSummary?) -> String {
    guard let s else { return "-" }
    return s.min == s.max ? f(s.median) : "\(f(s.median)) (\(f(s.min))-\(f(s.max)))"
  }

  static func table(_ r: TransferReport) -> String {
    // Names come from the manifest and its data: these lines are escaped as table cells are.
    let header = [
      "manifest \(r.manifest): classes \(r.classes.joined(separator: ", "))"
        + (r.negativeLabels.isEmpty
          ? "" : "; negatives \(r.negativeLabels.joined(separator: ", "))")
        + " at \(Int(r.sampleRateHz.rounded())) Hz",
      "learned model: \(r.featureSpec); \(r.training); streamed with \(r.streamed); seeds "
        + r.seeds.map(String.init).joined(separator: ","),
    ]
    var lines = header.map(Excerpt.printable)
    lines += ["scores are per sample over each group's classes: median (min-max) over seeds", ""]
    var rows: [[String]] = [
      [
        "held out", "method", "macro-F1", "accuracy", "ECE", "high: share, right",
        "medium: share, right", "lost to unknown", "negatives unknown",
      ]
    ]
    func level(_ m: TransferReport.MethodResult, _ level: ConfidenceLevel) -> String {
      guard let l = m.level(level) else { return "-" }
      return String(format: "%.2f, ", l.share) + f(l.accuracy)
    }
    for group in r.groups {
      for (i, m) in group.methods.enumerated() {
        rows.append([
          i == 0 ? "\(group.name) (\(group.kind.rawValue))" : "", m.method,
          group.classes.count >= 2 ? range(m.macroF1) : "-", range(m.accuracy),
          range(m.expectedCalibrationError), level(m, .high), level(m, .medium),
          range(m.lostToUnknown), range(m.negativesUnknown),
        ])
      }
    }
    lines.append(TextTable.render(rows))
    lines.append("")
    var recall: [[String]] = [["held out", "classes", "margin"] + ["learned recall, streamed"]]
    for group in r.groups {
      let streamed = group.methods.first { $0.method == "learned, streamed" }
      let text = zip(group.classes, streamed?.recall ?? []).map { "\($0) \(f($1))" }
        .joined(separator: ", ")
      recall.append([
        group.name, "\(group.classes.count)", f(group.streamedMargin), text,
      ])
    }
    lines.append(TextTable.render(recall))
    lines.append("")
    lines += falseAlarmLines(r)
    let counted = r.groups.filter { $0.pushUps != nil }
    if !counted.isEmpty {
      lines.append(
        "push-up sets of known count among the held-out recordings, each streamed from a fresh "
          + "engine as recorded and under a random rotation of the sensor")
      var rows: [[String]] = [
        ["held out", "method", "sensor", "push-up recall", "counted / known", "MAE/set"]
      ]
      for group in counted {
        for (i, m) in (group.pushUps ?? []).enumerated() {
          rows.append([i == 0 ? group.name : ""] + pushUpRow(m))
        }
      }
      lines.append(TextTable.render(rows))
      lines.append("")
    }
    if let p = r.pushUps { lines += pushUpLines(p) }
    let twoOrMore = r.groups.filter { $0.classes.count >= 2 }
    let margins = twoOrMore.compactMap(\.streamedMargin)
    lines.append(
      "margin = learned streamed macro-F1 minus the better threshold variant, median over "
        + "seeds; smallest over the \(twoOrMore.count) groups with two or more classes: "
        + f(margins.min()) + "; median streamed accuracy over them: "
        + f(r.medianStreamedAccuracy))
    return lines.joined(separator: "\n")
  }

  /// Per group, a line per class: each method's recall, precision, false alarms in minutes
  /// per hour and false-alarm rate, medians over seeds; then each class's worst group.
  static func falseAlarmLines(_ r: TransferReport) -> [String] {
    guard let methods = r.groups.first?.methods.map(\.method) else { return [] }
    var lines = [
      "false alarms per class (answered the class where the truth is another class or a "
        + "negative): recall / precision / false-alarm minutes per hour / false-alarm % of "
        + "the other labels' samples (of all samples where the class is absent), median over "
        + "seeds"
    ]
    var rows: [[String]] = [["held out", "class"] + methods]
    for group in r.groups {
      for (c, name) in r.classes.enumerated() {
        let present = group.classes.firstIndex(of: name)
        rows.append(
          [c == 0 ? group.name : "", name]
            + group.methods.map { m in
              let recall = m.recall
              return [
                present.flatMap { $0 < recall.count ? f(recall[$0]) : nil } ?? "-",
                f(m.precision[safe: c] ?? nil),
                String(format: "%.1f", m.falseAlarmMinutesPerHour[safe: c] ?? 0),
                String(format: "%.1f%%", 100 * (m.falseAlarmRate[safe: c] ?? 0)),
              ].joined(separator: " ")
            })
      }
    }
    lines.append(TextTable.render(rows))
    lines.append("")
    for method in methods {
      let worst = r.classes.indices.map { c -> String in
        let rates = r.groups.compactMap { g in
          g.methods.first { $0.method == method }.map { (g.name, $0.falseAlarmRate[safe: c] ?? 0) }
        }
        guard let top = rates.max(by: { $0.1 < $1.1 }) else { return "\(r.classes[c]) -" }
        return "\(r.classes[c]) " + String(format: "%.1f%%", 100 * top.1) + " (\(top.0))"
      }
      lines.append(
        Excerpt.printable(
          "largest false-alarm % over groups, \(method): " + worst.joined(separator: ", ")))
    }
    lines.append("")
    return lines
  }

  /// One push-up method's row: method, sensor, recall, counted of known, error per set.
  private static func pushUpRow(_ m: TransferBenchmark.PushUpResult) -> [String] {
    let counted = m.seeds.map(\.repetitionsCounted).sorted()
    let known = m.seeds.first?.repetitionsKnown ?? 0
    return [
      m.method, m.rotated ? "rotated" : "as recorded", range(m.recall),
      "\(counted[counted.count / 2]) / \(known)", range(m.meanAbsoluteError),
    ]
  }

  /// The held-out push-up runs: recall, counts and error per method and sensor orientation.
  private static func pushUpLines(_ p: TransferBenchmark.PushUpReport) -> [String] {
    var lines: [String] = []
    lines.append(
      "push-up runs of \(Excerpt.printable(p.source)): \(p.sets) sets in \(p.runs) runs, "
        + "\(p.folds) folds of runs held out; each set streamed from a fresh engine, as recorded "
        + "and under a random rotation of the sensor")
    var rows: [[String]] = [["method", "sensor", "push-up recall", "counted / known", "MAE/set"]]
    for m in p.results { rows.append(pushUpRow(m)) }
    lines.append(TextTable.render(rows))
    lines.append("")
    return lines
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
