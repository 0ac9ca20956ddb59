// `motus inspect`: what a set of CSV files holds, as the loader sees it.

import ArgumentParser
import Foundation
import Motus

struct Inspect: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Summarise labelled CSV files: sessions, subjects, labels, rates, channels.",
    discussion: """
      Reads the files with the same options as `motus train` (labels are optional here) \
      and prints aligned tables. Example:

        motus inspect motionsense.csv --map sitting=stationary,standing=stationary
      """)

  @OptionGroup var data: DataOptions

  func run() throws {
    let progress = ProgressLine()
    let result: LoadResult
    do {
      result = try data.load(requireLabels: false) { done, total in
        progress.update(done: done, total: total)
      }
    } catch let error as CSVError {
      progress.clear()
      throw ToolError(error.description)
    }
    progress.clear()
    print(Self.render(result), terminator: "")
  }

  /// The whole report as text (tables separated by blank lines).
  static func render(_ result: LoadResult) -> String {
    let dataset = result.dataset
    let report = result.report
    var out = ""
    out += "files: \(report.files.count), rows read: \(report.rowsRead), "
      + "recordings: \(dataset.recordings.count), samples: \(dataset.sampleCount)\n"
    if report.rowsDroppedByLabel > 0 {
      out += "rows dropped by label (empty or not kept): \(report.rowsDroppedByLabel)\n"
    }

    out += "\nchannels (\(dataset.channels.count)):\n"
    out += table(
      ["channel", "computed as"],
      result.recipes.map { [$0.name, describe($0)] }, rightAligned: [])

    out += "\nsessions (\(report.sessions.count)):\n"
    out += table(
      ["session", "subject", "rows", "rate Hz", "recordings"],
      report.sessions.map {
        [$0.name, $0.subject, "\($0.rowCount)", format($0.detectedRateHz, 2),
          "\($0.recordingCount)"]
      }, rightAligned: [2, 3, 4])

    var subjectSeconds: [String: Double] = [:]
    var subjectRecordings: [String: Int] = [:]
    for r in dataset.recordings {
      subjectSeconds[r.subject, default: 0] += Double(r.sampleCount) / r.sampleRateHz
      subjectRecordings[r.subject, default: 0] += 1
    }
    out += "\nsubjects (\(dataset.subjects.count)):\n"
    out += table(
      ["subject", "recordings", "duration"],
      dataset.subjects.map {
        [$0, "\(subjectRecordings[$0] ?? 0)", duration(subjectSeconds[$0] ?? 0)]
      }, rightAligned: [1, 2])

    let totalSeconds = report.labelDurationsSeconds.values.reduce(0, +)
    out += "\nlabels (\(dataset.labels.count)):\n"
    out += table(
      ["label", "samples", "duration", "share"],
      dataset.labels.map { label in
        let seconds = report.labelDurationsSeconds[label] ?? 0
        return [
          label, "\(report.labelSampleCounts[label] ?? 0)", duration(seconds),
          format(totalSeconds > 0 ? 100 * seconds / totalSeconds : 0, 1) + "%",
        ]
      }, rightAligned: [1, 2, 3])

    let rates = Dictionary(grouping: dataset.recordings, by: { format($0.sampleRateHz, 2) })
    out += "\nrecording rates:\n"
    out += table(
      ["rate Hz", "recordings"],
      rates.keys.sorted { (Double($0) ?? 0) < (Double($1) ?? 0) }.map {
        [$0, "\(rates[$0]?.count ?? 0)"]
      }, rightAligned: [0, 1])

    out += "\nmissing values (filled by interpolation):\n"
    if report.missingValues.isEmpty {
      out += "  none\n"
    } else {
      out += table(
        ["channel", "empty cells"],
        report.missingValues.keys.sorted().map { [$0, "\(report.missingValues[$0] ?? 0)"] },
        rightAligned: [1])
    }

    if !report.skipped.isEmpty {
      out += "\nskipped:\n"
      out += table(
        ["reason", "count"], report.skippedByReason.map { [$0.reason, "\($0.count)"] },
        rightAligned: [1])
    }
    for note in report.notes { out += "\nnote: \(note)\n" }
    return out
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

  /// Columns padded to their widest cell, two spaces apart, indented by two.
  static func table(_ header: [String], _ rows: [[String]], rightAligned: Set<Int>) -> String {
    var widths = header.map(\.count)
    for row in rows {
      for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
    }
    func line(_ cells: [String]) -> String {
      let padded = cells.enumerated().map { i, cell -> String in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        return rightAligned.contains(i) ? pad + cell : cell + pad
      }
      var text = "  " + padded.joined(separator: "  ")
      while text.last == " " { text.removeLast() }
      return text + "\n"
    }
    return ([line(header)] + rows.map(line)).joined()
  }
}

/// A single updating line on stderr, shown only when stderr is a terminal and the work has
/// already taken more than a second.
final class ProgressLine: @unchecked Sendable {
  private let start = Date()
  private let enabled = isatty(2) != 0  // 2 = standard error
  private var shown = false

  func update(done: Int, total: Int) {
    guard enabled, total > 0, Date().timeIntervalSince(start) > 1 else { return }
    let percent = 100 * Double(done) / Double(total)
    FileHandle.standardError.write(Data(String(format: "\rreading %3.0f%%", percent).utf8))
    shown = true
  }

  func clear() {
    guard shown else { return }
    FileHandle.standardError.write(Data("\r              \r".utf8))
    shown = false
  }
}
