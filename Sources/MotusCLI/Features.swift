// `motus features`: one CSV row of features per window of labelled CSV data.

import ArgumentParser
import Foundation
import Motus

struct Features: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Compute per-window features and write them as CSV.",
    discussion: """
      One row per window: session, subject, label (the window's majority), purity, \
      start_s (seconds), then every feature named like `userAcceleration.x:std` or \
      `|rotationRate|:band_2-3Hz`. The file is written to a temporary name and renamed \
      (`-o -` writes standard output; an input file is never overwritten). \
      --statistics and --spectral choose the per-channel features. --spec-output writes \
      the table's spec (rate, window, hop, channel recipes, features) as JSON, which \
      `motus train --windows TABLE --spec FILE` needs to train on the table. Examples:
        motus features ../shared/datasets/motionsense/motionsense.csv -o windows.csv
        motus features DATA -o windows.csv --spec-output windows.json
        motus features ../shared/datasets/motionsense/motionsense.csv -o logbands.csv \
          --statistics mean,std --spectral band,log_band --log-power-floor 1e-4
      """)

  @OptionGroup var data: DataOptions
  @OptionGroup var windows: WindowOptions
  @OptionGroup var featureChannels: FeatureChannelOptions

  @Option(
    name: [.short, .long],
    help: ArgumentHelp(
      "Output CSV file (- for standard output).",
      valueName: "file"))
  var output: String

  @Option(
    help: ArgumentHelp(
      "Also write the table's spec (JSON): what `motus train --windows` needs to train on it.",
      valueName: "file"))
  var specOutput: String?

  func validate() throws {
    try data.requireData()
    if specOutput != nil, data.manifest != nil {
      throw ValidationError(
        "'--spec-output' does not combine with --manifest: a table carries neither the "
          + "manifest's source weights nor its negative labels, so training on it would not be "
          + "the manifest's training. Give CSV paths or app recordings.")
    }
  }

  func run() throws {
    // Before the data is read: a bad output fails at once, and never overwrites an input.
    let inputs = try data.inputFiles()
    let file = try OutputFile(
      path: output, flag: "--output", inputs: inputs, otherOutputs: specOutput.map { [$0] } ?? [])
    let specFile = try specOutput.map {
      try OutputFile(path: $0, flag: "--spec-output", inputs: inputs, otherOutputs: [output])
    }
    var windowed = try ProgressLine.reading { progress in
      try data.source().windows(
        minimumPurity: windows.minimumPurity, progress: progress,
        chooseSpec: featureChannels.apply(to: windows.featureChoice()).cliSpecChoice)
    }
    windowed.warnAboutData()
    let (table, spec) = (windowed.table, windowed.spec)
    // The spec waits in its temporary file until the table is in place.
    try specFile?.write(
      WindowTableSpec(
        featureSpec: spec, minimumPurity: windows.minimumPurity, windowCount: table.windowCount
      ).encoded())
    try Self.write(table, to: file)
    try specFile?.commit()
    func printLine(_ text: String) throws {
      try StandardOutput.printSummary(text, besideOutput: output)
    }
    try printLine(
      "\(table.windowCount) windows x \(table.featureNames.count) features "
        + "(window \(spec.windowLength), hop \(spec.hopLength) samples at \(spec.sampleRateHz) Hz)"
        + " -> \(output)")
    if let specOutput { try printLine("spec -> \(specOutput)") }
    if table.skippedRecordingCount > 0 {
      try printLine("recordings shorter than one window (skipped): \(table.skippedRecordingCount)")
    }
    if table.droppedImpureCount > 0 {
      try printLine(
        "windows below --min-purity \(windows.minimumPurity) (dropped): \(table.droppedImpureCount)"
      )
    }
  }

  /// Writes `table` as CSV to `file` and commits it (a temporary file renamed into place).
  static func write(_ table: WindowTable, to file: OutputFile) throws {
    do {
      try table.writeCSV { try file.write($0) }
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
  }
}
