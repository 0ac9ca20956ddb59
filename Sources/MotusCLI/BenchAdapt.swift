// `motus bench adapt`: k labelled minutes per class of a source or placement never seen,
// adapted on (ModelAdapter) against retrained on; recall, false alarms and ECE against k.

import ArgumentParser
import Foundation
import Motus

struct BenchAdapt: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "adapt",
    abstract: "Score adapting a model on k minutes per class of a group it never saw.",
    discussion: """
      Each held-out group of `motus bench transfer` (a source, or a placement) gets the \
      default recipe trained without it (seed 1). Its people are split in two: the first \
      half in natural order lends k minutes per class (the first windows of each class, \
      taken in turn from each person), the second half is scored window by window. For each \
      k the model is adapted on those minutes as `motus adapt` adapts it and, beside it, the \
      recipe is retrained from scratch with the same windows added (--no-retrain skips \
      that). Printed per group and k: recall / false alarms of each class, ECE, and, for the \
      classes the minutes do not show, their recall and false alarms on the training \
      sources' own windows before and after. Example:
        motus bench adapt --sources wear_pushup --groups wear_pushup --minutes 0,1,2
      """)


  @OptionGroup var source: BenchManifestOptions

  @Option(
    help: ArgumentHelp(
      "Sources to hold out, comma-separated (default: every source).", valueName: "list"))
  var sources: String?

  @Option(
    help: ArgumentHelp(
      "Groups to run, comma-separated, as the table names them; a source's name runs its "
        + "placements too (e.g. wear_pushup).",
      valueName: "list"))
  var groups: String?

  @Flag(help: "Skip the held-out placements.")
  var noPlacements = false

  @Option(
    help: ArgumentHelp("Minutes per class given to the model, comma-separated.", valueName: "list"))
  var minutes = "0,0.5,1,2,5"

  @Option(
    help: ArgumentHelp(
      "The adaptation's pulls towards the original weights, comma-separated; each gives its "
        + "own rows.", valueName: "list"))
  var penalties = String(ModelAdapter.Settings().penalty)

  @Option(
    help: ArgumentHelp(
      "The weights of the stand-ins that hold the classes the minutes do not show, "
        + "comma-separated (0: none); each gives its own rows.", valueName: "list"))
  var rehearsalWeights = String(ModelAdapter.Settings().rehearsalWeight)

  @Option(
    help: ArgumentHelp(
      "Also write a self-contained HTML page charting every class against k (atomically).",
      valueName: "file"))
  var report: String?

  @Flag(help: "Do not retrain from scratch beside each adaptation (one training per k saved).")
  var noRetrain = false

  @OptionGroup var reporting: BenchReportOptions

  @OptionGroup(title: "Windows and features") var windows: WindowOptions
  @OptionGroup(title: "Feature channels") var featureChannels: FeatureChannelOptions
  @OptionGroup(title: "Training") var training: TrainingFlags

  func minuteList() throws -> [Double] {
    let list = try DataOptions.list(minutes).map { item in
      guard let value = Double(item), value.isFinite, value >= 0, value <= 600 else {
        throw ValidationError(
          "'--minutes' item '\(item)' is not a number of minutes in 0...600. Example: 0,1,2")
      }
      return value
    }
    guard !list.isEmpty else { throw ValidationError("'--minutes' names no k. Example: 0,1,2") }
    return list
  }

  func penaltyList() throws -> [Double] {
    let list = try DataOptions.list(penalties).map { item in
      guard let value = Double(item), value.isFinite, value > 0 else {
        throw ValidationError("'--penalties' item '\(item)' is not a number above 0, e.g. 0.01.")
      }
      return value
    }
    guard !list.isEmpty else { throw ValidationError("'--penalties' names no penalty.") }
    return list
  }

  func rehearsalWeightList() throws -> [Double] {
    let list = try DataOptions.list(rehearsalWeights).map { item in
      guard let value = Double(item), value.isFinite, value >= 0 else {
        throw ValidationError(
          "'--rehearsal-weights' item '\(item)' is not a number of at least 0, e.g. 0.3.")
      }
      return value
    }
    guard !list.isEmpty else { throw ValidationError("'--rehearsal-weights' names no weight.") }
    return list
  }

  func validate() throws {
    _ = try minuteList()
    _ = try penaltyList()
    _ = try rehearsalWeightList()
  }

  func run() throws {
    let inputs = DataSource(manifest: source.manifest, dataRoot: source.dataRoot).inputFiles()
    let outputFile = try reporting.output.map {
      try OutputFile(path: $0, flag: "--output", inputs: inputs, otherOutputs: [self.report ?? ""])
    }
    let reportFile = try self.report.map {
      try OutputFile(
        path: $0, flag: "--report", inputs: inputs, otherOutputs: [reporting.output ?? ""])
    }
    let progress = ProgressLine()
    let data: WholeLoad
    do {
      defer { progress.clear() }
      data = try source.load(showing: progress)
    }
    var configuration = AdaptationBenchmark.Configuration()
    configuration.transfer.features = featureChannels.apply(to: try windows.featureChoice())
    configuration.transfer.training = try training.trainingOptions()
    configuration.transfer.seeds = [configuration.transfer.training.seed]
    configuration.transfer.validationGroup = training.validationGroup.trainerGroup
    configuration.transfer.placements = !noPlacements
    configuration.transfer.sources = sources.map(DataOptions.list)
    configuration.transfer.parallelism = reporting.parallelism
    configuration.groups = groups.map(DataOptions.list)
    configuration.minutes = try minuteList()
    configuration.penalties = try penaltyList()
    configuration.rehearsalWeights = try rehearsalWeightList()
    configuration.retrain = !noRetrain
    let report: AdaptationBenchmark.Report
    do {
      defer { progress.clear() }
      report = try AdaptationBenchmark.run(
        data: data, configuration: configuration, progress: { progress.show($0) })
    }
    let json = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(report)
    try outputFile?.write([UInt8](json) + Array("\n".utf8))
    try reportFile?.write(Array(AdaptationReportPage.render(report).utf8))
    try outputFile?.commit()
    try reportFile?.commit()
    switch reporting.format {
    case .json: try StandardOutput.print(String(decoding: json, as: UTF8.self))
    case .table: try StandardOutput.print(AdaptationTable.text(report))
    }
  }
}
