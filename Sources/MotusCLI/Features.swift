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
      --statistics and --spectral choose the per-channel features. Examples:
        motus features ../shared/datasets/motionsense/motionsense.csv -o windows.csv
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

  func validate() throws { try data.requireData() }

  func run() throws {
    // Before the data is read: a bad output fails at once, and never overwrites an input.
    let file = try OutputFile(path: output, flag: "--output", inputs: data.inputFiles())
    var result = try data.loadWithProgress().result
    let spec = try featureChannels.apply(to: windows.featureChoice()).cliSpec(for: result)
    result.warnRecordingsWithoutWindow(spec: spec)
    let table = try windows.windowTable(for: result, spec: spec)
    try Self.write(table, to: file)
    // The summary goes to standard error when the table itself is on standard output.
    var summary = FileHandle.standardOutput
    if output == InputFile.standardInputPath { summary = FileHandle.standardError }
    func print(_ text: String) { summary.write(Data((text + "\n").utf8)) }
    print(
      "\(table.windowCount) windows x \(table.featureNames.count) features "
        + "(window \(spec.windowLength), hop \(spec.hopLength) samples at \(spec.sampleRateHz) Hz)"
        + " -> \(output)")
    if table.skippedRecordingCount > 0 {
      print("recordings shorter than one window (skipped): \(table.skippedRecordingCount)")
    }
    if table.droppedImpureCount > 0 {
      print(
        "windows below --min-purity \(windows.minimumPurity) (dropped): \(table.droppedImpureCount)"
      )
    }
  }

  /// Writes `table` as CSV to `file` and commits it (a temporary file renamed into place).
  ///
  /// Rows are formatted in blocks on every core, then written in order: the same bytes as
  /// `"\(value)"` row by row, without a String per number.
  static func write(_ table: WindowTable, to file: OutputFile) throws {
    do {
      let header =
        (["session", "subject", "label", "purity", "start_s"] + table.featureNames)
        .map(csvField).joined(separator: ",") + "\n"
      try file.write(header)
      let rowsPerBlock = 512
      let blocksPerBatch = 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
      var first = 0
      while first < table.windowCount {
        let count = min(table.windowCount - first, rowsPerBlock * blocksPerBatch)
        let blocks = (count + rowsPerBlock - 1) / rowsPerBlock
        let texts = BlockTexts(count: blocks)
        let batchStart = first
        DispatchQueue.concurrentPerform(iterations: blocks) { block in
          let lower = batchStart + block * rowsPerBlock
          let upper = min(lower + rowsPerBlock, batchStart + count)
          texts.set(block, rows(lower..<upper, of: table))
        }
        for text in texts.values { try file.write(text) }
        first += count
      }
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
  }

  /// CSV text of `range`'s rows.
  static func rows(_ range: Range<Int>, of table: WindowTable) -> [UInt8] {
    let columns = table.features.columnCount
    var text = TextBuffer(capacity: range.count * (columns * 12 + 64))
    table.features.values.withUnsafeBufferPointer { values in
      for row in range {
        text.append(csvField(table.session(at: row)))
        text.append(UInt8(ascii: ","))
        text.append(csvField(table.subject(at: row)))
        text.append(UInt8(ascii: ","))
        text.append(csvField(table.label(at: row)))
        text.append(UInt8(ascii: ","))
        text.append(table.purity[row])
        text.append(UInt8(ascii: ","))
        text.append(table.startTimes[row])
        for value in values[(row * columns)..<((row + 1) * columns)] {
          text.append(UInt8(ascii: ","))
          text.append(value)
        }
        text.append(UInt8(ascii: "\n"))
      }
    }
    return text.bytes
  }

  /// Quotes a field when it holds a comma, quote or newline.
  static func csvField(_ value: String) -> String {
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return value }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

/// One formatted block per slot, filled concurrently.
private final class BlockTexts: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var values: [[UInt8]]

  init(count: Int) { values = [[UInt8]](repeating: [], count: count) }

  func set(_ index: Int, _ text: [UInt8]) {
    lock.lock()
    values[index] = text
    lock.unlock()
  }
}
