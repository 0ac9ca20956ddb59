// `motus train`: labelled CSV data -> windows -> features -> fitted, calibrated model file.

import ArgumentParser
import Foundation
import Motus

struct Train: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Fit a classifier to labelled data and write a model file.",
    discussion: """
      Windows the recordings, computes features, holds out whole subjects (or sessions) for \
      validation, fits the model, calibrates it on the held-out part and writes it atomically. \
      The same data, flags and seed give a byte-identical file. While it fits, the raw feature \
      table waits in an unlinked temporary file in TMPDIR (4 bytes per window and feature; kept \
      in memory when it cannot be written), so memory holds one copy of the table. When no \
      subject or session can be held out (one recording per activity: each class would lose \
      its only recording), train stops, as calibration needs held-out windows; with \
      --no-calibration it trains on every window and gives no validation figures. \
      --windows trains on a window table `motus features` wrote instead of recordings, with \
      the spec written beside it; it gives the file `motus train DATA --augment 0` gives \
      (a table holds no samples to perturb). Examples:
        motus train ../shared/datasets/motionsense/motionsense.csv \\
          -o motionsense.motus --model mlp --hidden 64,32 --seed 1
        motus features DATA -o windows.csv --spec-output windows.json
        motus train --windows windows.csv --spec windows.json --seed 1 -o model.motus
      """)

  @OptionGroup var data: DataOptions
  @OptionGroup var windows: WindowOptions
  @OptionGroup var featureChannels: FeatureChannelOptions
  @OptionGroup(title: "Window table") var table: WindowTableOptions
  @OptionGroup(title: "Training") var training: TrainingFlags

  @Option(name: [.short, .long], help: ArgumentHelp("Model file to write.", valueName: "file"))
  var output: String

  func validate() throws {
    if table.windows != nil {
      try table.refuseDataFlags(
        data: data, windowOptions: windows, featureChannels: featureChannels, training: training)
    } else {
      try data.requireData()
    }
    try training.refuseNegativeFlags(manifest: data.manifest)
  }

  func run() throws {
    let clock = ContinuousClock()
    let started = clock.now
    if let windowsPath = table.windows, let specPath = table.spec {
      return try runFromTable(windowsPath, spec: specPath, clock: clock, started: started)
    }
    // Fail before minutes of training, not after; an input is never overwritten.
    let file = try OutputFile(path: output, flag: "--output", inputs: data.inputFiles())
    let options = try training.trainingOptions()
    try Trainer.checkAugmentation(options)
    // The data's windows and its perturbed copies', a session at a time as the files are read.
    var windowed = try ProgressLine.reading { progress in
      try data.source().windows(
        minimumPurity: windows.minimumPurity,
        copies: options.augmentation?.windowCopies(seed: options.seed), progress: progress,
        chooseSpec: featureChannels.apply(to: windows.featureChoice()).cliSpecChoice)
    }
    windowed.warnAboutData()
    training.warnIfNoNegatives(windowed.outline.negativeLabels)

    let progress = ProgressLine()
    let trained: (model: TrainedModel, report: TrainingReport, table: WindowTable)
    let (negativeLabels, spec, sourceWeights) = (
      windowed.outline.negativeLabels, windowed.spec, windowed.sourceWeights
    )
    // The table's only copy goes to the trainer, which keeps its features on disk during the fit.
    let table = (consume windowed).table
    do {
      defer { progress.clear() }
      trained = try Trainer.train(
        windows: consume table, negativeLabels: negativeLabels, spec: spec,
        validationGroup: training.validationGroup.trainerGroup, options: options,
        sourceWeights: sourceWeights, progress: progress.update)
    }
    try finish(trained, file: file, clock: clock, started: started)
  }

  /// `run` on a window table and its spec (`--windows`, `--spec`).
  private func runFromTable(
    _ windowsPath: String, spec specPath: String, clock: ContinuousClock,
    started: ContinuousClock.Instant
  ) throws {
    let file = try OutputFile(path: output, flag: "--output", inputs: [windowsPath, specPath])
    var options = try training.trainingOptions()
    // The recipe's default copies need samples; `validate` refused asking for them.
    options.augmentation = nil
    let spec = try WindowTableSpec.read(specPath)
    let table = try WindowTable.read(
      windowsPath, spec: spec, specFile: InputFile.displayName(specPath))
    let progress = ProgressLine()
    let trained: (model: TrainedModel, report: TrainingReport, table: WindowTable)
    do {
      defer { progress.clear() }
      trained = try Trainer.train(
        windows: consume table, negativeLabels: [], spec: spec.featureSpec,
        validationGroup: training.validationGroup.trainerGroup, options: options,
        progress: progress.update)
    }
    try finish(trained, file: file, clock: clock, started: started)
  }

  /// Writes the model and prints the summary and timing.
  private func finish(
    _ trained: (model: TrainedModel, report: TrainingReport, table: WindowTable),
    file: OutputFile, clock: ContinuousClock, started: ContinuousClock.Instant
  ) throws {
    let trainedAt = clock.now
    try file.write([UInt8](ModelFile.encode(trained.model)))
    try file.commit()
    func printLine(_ text: String) throws {
      try StandardOutput.printSummary(text, besideOutput: output)
    }
    try printLine(
      Self.summary(
        trained.report, classNames: trained.model.classes, windowCount: trained.table.windowCount,
        output: output))
    let fit = trained.report.fitSeconds
    let calibration = trained.report.calibrationSeconds
    let total = Self.seconds(clock.now - started)
    let other = Self.seconds(trainedAt - started) - fit - calibration
    try printLine(
      String(
        format: "timing: fit %.3f s (thread CPU %.3f s), calibration %.3f s, loading + features "
          + "+ other %.3f s, total %.3f s", fit, trained.report.fitCPUSeconds, calibration, other,
        total))
  }

  static func seconds(_ duration: Duration) -> Double {
    let (s, attoseconds) = duration.components
    return Double(s) + Double(attoseconds) * 1e-18
  }

  static func summary(
    _ report: TrainingReport, classNames: [String], windowCount: Int, output: String
  )
    -> String
  {
    func f(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }
    guard report.validationRowCount > 0 else {
      // --no-calibration where no group could be held out: no figures to give, none invented.
      return [
        "\(windowCount) windows, all for training: no subject or session could be held out for "
          + "validation, so there are no validation figures",
        "\(report.epochs.count) epochs in \(f(report.epochs.last?.elapsedSeconds ?? 0, 1)) s; "
          + "not calibrated (temperature 1); confidence never above low",
        "model -> \(output)",
      ].joined(separator: "\n")
    }
    let groups = report.validationGroups.map(Excerpt.printable)
    let heldOut =
      groups.prefix(6).joined(separator: ", ")
      + (groups.count > 6 ? " and \(groups.count - 6) more" : "")
    var lines = [
      "\(windowCount) windows: \(report.trainingRowCount) training, \(report.validationRowCount) "
        + "validation (held out: \(heldOut))",
      "\(report.epochs.count) epochs in \(f(report.epochs.last?.elapsedSeconds ?? 0, 1)) s; "
        + "validation accuracy \(f(report.accuracy)), macro-F1 "
        + "\(f(report.macroF1)), balanced accuracy \(f(report.balancedAccuracy))",
      "calibration: temperature \(f(Double(report.temperature))), log loss "
        + "\(f(report.validationLogLossBefore)) -> \(f(report.validationLogLossAfter)), ECE "
        + "\(f(report.eceBefore)) -> \(f(report.eceAfter))",
    ]
    if let refitEpochs = report.refitEpochs {
      lines.append(
        "final model refit on all \(report.trainingRowCount + report.validationRowCount) "
          + "windows for \(refitEpochs) epochs")
    }
    let perClass = classNames.indices.map { c in
      "\(Excerpt.printable(classNames[c])) \(f(report.confusion.f1(c), 2)) "
        + "(n=\(report.confusion.support(c)))"
    }
    lines.append("F1 by class: " + perClass.joined(separator: ", "))
    lines.append("model -> \(output)")
    return lines.joined(separator: "\n")
  }
}
