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
      `|rotationRate|:band_2-3Hz`. The file is written to a temporary name and renamed. \
      --statistics and --spectral choose the per-channel features. Examples:
        motus features ../shared/datasets/motionsense/motionsense.csv -o windows.csv
        motus features ../shared/datasets/motionsense/motionsense.csv -o logbands.csv \
          --statistics mean,std --spectral band,log_band --log-power-floor 1e-4
      """)

  @OptionGroup var data: DataOptions
  @OptionGroup var windows: WindowOptions
  @OptionGroup var featureChannels: FeatureChannelOptions

  @Option(name: [.short, .long], help: ArgumentHelp("Output CSV file.", valueName: "file"))
  var output: String

  func run() throws {
    let result = try data.loadWithProgress()
    let spec = try featureChannels.apply(to: windows.featureChoice()).cliSpec(for: result)
    let table = try windows.windowTable(for: result, spec: spec)
    try Self.write(table, to: output)
    print(
      "\(table.windowCount) windows x \(table.featureNames.count) features "
        + "(window \(spec.windowLength), hop \(spec.hopLength) samples at \(spec.sampleRateHz) Hz)"
        + " -> \(output)")
    if table.skippedRecordingCount > 0 {
      print("recordings shorter than one window (skipped): \(table.skippedRecordingCount)")
    }
    if table.droppedImpureCount > 0 {
      print(
        "windows below --min-purity \(windows.minPurity) (dropped): \(table.droppedImpureCount)")
    }
  }

  /// Writes `table` as CSV to a temporary file beside `path`, then renames it into place.
  static func write(_ table: WindowTable, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let pid = ProcessInfo.processInfo.processIdentifier
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(pid).tmp")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw ToolError(
        "cannot write \(path).", hint: "check that the folder exists and is writable.")
    }
    do {
      let handle = try FileHandle(forWritingTo: temporary)
      defer { try? handle.close() }
      var text =
        (["session", "subject", "label", "purity", "start_s"] + table.featureNames)
        .map(csvField).joined(separator: ",") + "\n"
      let columns = table.features.columnCount
      for row in 0..<table.windowCount {
        text +=
          csvField(table.session(at: row)) + "," + csvField(table.subject(at: row)) + ","
          + csvField(table.label(at: row)) + ",\(table.purity[row]),\(table.startTimes[row])"
        for j in 0..<columns { text += ",\(table.features.values[row * columns + j])" }
        text += "\n"
        if text.utf8.count > 1 << 20 {
          try handle.write(contentsOf: Data(text.utf8))
          text = ""
        }
      }
      try handle.write(contentsOf: Data(text.utf8))
      try handle.close()
      // rename(2) replaces the target in one step: readers see the old file or the new one.
      guard rename(temporary.path, url.path) == 0 else {
        throw ToolError("cannot rename \(temporary.path) to \(path) (errno \(errno)).")
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw ToolError("cannot write \(path): \(error).", hint: "check free space and permissions.")
    }
  }

  /// Quotes a field when it holds a comma, quote or newline.
  static func csvField(_ value: String) -> String {
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return value }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
