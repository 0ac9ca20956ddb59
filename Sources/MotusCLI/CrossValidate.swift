// `motus cross-validate`: leave-groups-out estimates (whole subjects or sessions per fold).

import ArgumentParser
import Foundation
import Motus

struct CrossValidate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cross-validate",
    abstract: "Estimate accuracy on unseen subjects or sessions with group K-fold.",
    discussion: """
      Features are computed once; each fold trains on the other folds' groups (with the \
      training flags of `motus train`) and is scored on its own. Folds depend only on the \
      groups and --seed. Example:
        motus cross-validate ../shared/datasets/motionsense/motionsense.csv \\
          --group subject --folds 5 --model mlp --seed 1
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @OptionGroup var data: DataOptions
  @OptionGroup var windows: WindowOptions
  @OptionGroup var featureChannels: FeatureChannelOptions

  @Option(help: "What one fold holds out: whole subjects, sessions or a manifest's sources.")
  var group: TrainingFlags.GroupChoice = .subject

  @Option(
    parsing: .unconditional, help: "Number of folds (at least 2, at most the number of groups).")
  var folds: Int = 5

  @Option(help: "Report format.")
  var format: Format = .text

  @OptionGroup(title: "Training") var training: TrainingFlags

  func validate() throws {
    try data.requireData()
    guard folds >= 2 else {
      throw ValidationError("'--folds' must be >= 2, got \(folds).")
    }
    try training.refuseNegativeFlags(manifest: data.manifest)
  }

  func run() throws {
    let windowed = try ProgressLine.reading { progress in
      try data.source().windows(
        minimumPurity: windows.minimumPurity, progress: progress,
        chooseSpec: featureChannels.apply(to: windows.featureChoice()).cliSpecChoice)
    }
    let sourceWeights = windowed.sourceWeights
    training.warnIfNoNegatives(windowed.outline.negativeLabels)
    let (table, spec) = (windowed.table, windowed.spec)
    guard table.windowCount > 0 else {
      throw ToolError(
        "no windows: \(table.skippedRecordingCount) recordings shorter than one window, "
          + "\(table.droppedImpureCount) windows below --min-purity.",
        hint: "use a shorter --window, a lower --min-purity, or check the filters.")
    }
    let progress = ProgressLine()
    let results: [CrossValidation.FoldResult]
    do {
      defer { progress.clear() }
      results = try CrossValidation.run(
        table: table, spec: spec, group: group.trainerGroup, foldCount: folds,
        seed: training.seed, options: training.trainingOptions(),
        validationGroup: training.validationGroup.trainerGroup, sourceWeights: sourceWeights
      ) { k, count in progress.show("fold \(k + 1)/\(count)") }
    }
    switch format {
    case .text:
      try StandardOutput.print(
        "\(table.windowCount) windows, \(folds) folds by \(group.rawValue) (seed "
          + "\(training.seed))\n")
      try StandardOutput.print(CrossValidation.text(results, group: group.rawValue), terminator: "")
    case .json:
      try StandardOutput.write(
        [UInt8](try CrossValidation.jsonData(results, group: group.rawValue)))
    }
  }
}
