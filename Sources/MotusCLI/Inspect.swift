// `motus inspect`: what a set of CSV files holds, as the loader sees it.

import ArgumentParser
import Foundation
import Motus

struct Inspect: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Summarise labelled CSV files: sessions, subjects, labels, rates, channels.",
    discussion: """
      Reads the files with the same options as `motus train` (labels are optional here) \
      and prints aligned tables, or one JSON object with --format json. Examples:

        motus inspect motionsense.csv --map sitting=stationary,standing=stationary
        motus inspect motionsense.csv --format json | jq '.labels'
        motus inspect SensorLogger-2025-04-28_22-04-35/    # a phone-app export

      A phone-app export (Sensor Logger or phyphox folder; SensorLog, phyphox, Physics Toolbox \
      or AndroSensor CSV) is recognised by its header or folder; the notes say which layout, \
      units, sign, axis order and clock were converted, which files were joined and which \
      ignored. The line `windows of the default \(FeatureChoice.defaultWindowSeconds) s` counts \
      the windows `train` would cut.

      JSON keys (durations in seconds, rates in Hz): files, rowsRead, rowsDroppedByLabel, \
      recordings, samples; channels [{name, operation (copy|sum|magnitude), inputs, scale}]; \
      sessions [{name, subject, file, rows, rateHz, recordings}]; subjects [{name, \
      recordings, durationSeconds}]; labels [{name, samples, durationSeconds, sharePercent, \
      isNegative}]; \
      recordingRates [{rateHz, recordings}]; missingValues {column: empty cells}; skipped \
      [{session, file, rows, reason}]; notes [text].
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

  @OptionGroup var data: DataOptions

  @Option(
    help: ArgumentHelp(
      "Output format: aligned text tables, or one JSON object (keys listed above).",
      discussion: "Example: `motus inspect data.csv --format json`.", valueName: "text|json"))
  var format: Format = .text

  func validate() throws { try data.requireData() }

  func run() throws {
    let progress = ProgressLine()
    var result: LoadOutline
    do {
      defer { progress.clear() }
      // No features are computed here, so values need only be finite: inspect shows a file
      // whatever its units, and the other commands then name any value out of range.
      result = try data.source(requireLabels: false, checkValueRange: false).outline {
        done, total in progress.update(done: done, total: total)
      }
    }
    if let message = result.noteRecordingsWithoutWindow(windowSeconds: Self.defaultWindowSeconds) {
      Warnings.write("warning: \(message) (the default window; see --window in train).\n")
    }
    switch format {
    case .text: try StandardOutput.print(Self.render(result), terminator: "")
    case .json: try StandardOutput.print(try Self.json(DatasetSummary(result)))
    }
  }

  /// The summary as pretty-printed JSON with sorted keys.
  static func json(_ summary: DatasetSummary) throws -> String {
    let json = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(summary)
    return String(decoding: json, as: UTF8.self)
  }

  /// The whole report as text (tables separated by blank lines).
  static func render(_ result: LoadOutline) -> String {
    let summary = DatasetSummary(result)
    var out = ""
    out +=
      "files: \(summary.files.count), rows read: \(summary.rowsRead), "
      + "recordings: \(summary.recordings), samples: \(summary.samples)\n"
    out +=
      "windows of the default \(defaultWindowSeconds) s (hop a third): "
      + "\(defaultWindowCount(result.recordings))\n"
    if summary.rowsDroppedByLabel > 0 {
      out += "rows dropped by label (empty or not kept): \(summary.rowsDroppedByLabel)\n"
    }

    out += "\nchannels (\(summary.channels.count)):\n"
    out += TextTable.indented(
      ["channel", "computed as"],
      result.recipes.map { [$0.name, describe($0)] }, rightAligned: [])

    out += "\nsessions (\(summary.sessions.count)):\n"
    out += TextTable.indented(
      ["session", "subject", "rows", "rate Hz", "recordings"],
      summary.sessions.map {
        [$0.name, $0.subject, "\($0.rows)", format($0.rateHz, 2), "\($0.recordings)"]
      }, rightAligned: [2, 3, 4])

    out += groupTables(summary)
    out += dataTables(summary)
    for note in summary.notes { out += "\nnote: \(Excerpt.printable(note))\n" }
    return out
  }

  /// Subjects and labels with their durations.
  private static func groupTables(_ summary: DatasetSummary) -> String {
    var out = "\nsubjects (\(summary.subjects.count)):\n"
    out += TextTable.indented(
      ["subject", "recordings", "duration"],
      summary.subjects.map { [$0.name, "\($0.recordings)", duration($0.durationSeconds)] },
      rightAligned: [1, 2])

    out += "\nlabels (\(summary.labels.count)):\n"
    out += TextTable.indented(
      ["label", "samples", "duration", "share"],
      summary.labels.map {
        [
          $0.name + ($0.isNegative ? " (negative)" : ""), "\($0.samples)",
          duration($0.durationSeconds), format($0.sharePercent, 1) + "%",
        ]
      }, rightAligned: [1, 2, 3])
    return out
  }

  /// Recording rates, missing values and what was skipped.
  private static func dataTables(_ summary: DatasetSummary) -> String {
    var out = "\nrecording rates:\n"
    out += TextTable.indented(
      ["rate Hz", "recordings"],
      summary.recordingRates.map { [format($0.rateHz, 2), "\($0.recordings)"] },
      rightAligned: [0, 1])

    out += "\nmissing values (filled by interpolation):\n"
    if summary.missingValues.isEmpty {
      out += "  none\n"
    } else {
      out += TextTable.indented(
        ["channel", "empty cells"],
        summary.missingValues.keys.sorted().map { [$0, "\(summary.missingValues[$0] ?? 0)"] },
        rightAligned: [1])
    }

    if !summary.skipped.isEmpty {
      out += "\nskipped:\n"
      out += TextTable.indented(
        ["reason", "count"], summary.skippedByReason.map { [$0.reason, "\($0.count)"] },
        rightAligned: [1])
    }
    return out
  }

  /// The window `train` cuts unless told (`FeatureChoice()`), in seconds.
  static let defaultWindowSeconds = FeatureChoice.defaultWindowSeconds

  /// Windows of the default recipe the recordings hold, each at its own rate.
  static func defaultWindowCount(_ recordings: [RecordingOutline]) -> Int {
    let choice = FeatureChoice()
    return recordings.reduce(0) { total, recording in
      total + choice.windowCount(sampleCount: recording.sampleCount, rateHz: recording.sampleRateHz)
    }
  }

  static func describe(_ recipe: ChannelRecipe) -> String {
    let body: String
    switch recipe.operation {
    case .copy: body = recipe.inputs.first ?? ""
    case .sum: body = recipe.inputs.joined(separator: " + ")
    case .magnitude: body = "|" + recipe.inputs.joined(separator: ", ") + "|"
    }
    return recipe.scale == 1 ? body : "\(format(Double(recipe.scale), 3)) * \(body)"
  }

  static func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
  }

  static func duration(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return String(format: "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)
  }
}
