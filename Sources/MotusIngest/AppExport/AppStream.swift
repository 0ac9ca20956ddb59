// One sensor of a phone-app recording, converted and on the recording's clock; standard gravity.

import Foundation
import MotusData
import MotusOutput

/// Standard gravity (m/s²): the factor apps use between g and m/s².
let standardGravity = 9.80665

/// One sensor of a recording, converted to Motus channels (g, rad/s, Core Motion sign), on the
/// recording's clock (seconds).
struct AppStream {
  /// The file (and columns) it came from.
  var source: String
  /// Toolkit channel names, e.g. `userAcceleration.x/y/z`.
  var channels: [String]
  /// Seconds, strictly ascending.
  var times: [Double]
  /// `columns[c][t]`, converted.
  var columns: [[Double]]
  /// What was converted, for the load report.
  var conversion: String
  /// What was skipped or dropped, for the load report.
  var notes: [String] = []
  /// What was repaired (the clock rule), for the load report and every command's warnings.
  var warnings: [String] = []
  /// `typicalTimeStep(times)`, when already known (it sorts every step).
  var typicalStep: Double? = nil
}

extension AppStream {
  /// A stream from `times` and converted `values` (`values[c][row]`): rows without a time or
  /// with a missing value are skipped, the times repaired by the clock rule (`AppClock`); nil
  /// with fewer than two samples.
  ///
  /// - Parameters:
  ///   - source: The file and columns, for the load report.
  ///   - line: The file line of a row, for notes and errors.
  /// - Throws: `AppExportError` when the times are not those of one clock.
  static func make(
    times: [Double], values: [[Double]], group: String, conversion: String, source: String,
    axes: [String] = ["x", "y", "z"], line: (Int) -> Int
  ) throws -> AppStream? {
    var times = times
    var values = values
    var rows: [Int]? = nil
    var skipped = 0
    if let firstBad = times.indices.first(where: { r in
      !times[r].isFinite || values.contains { !$0[r].isFinite }
    }) {
      let kept =
        Array(0..<firstBad)
        + (firstBad..<times.count).filter { r in
          times[r].isFinite && values.allSatisfy { $0[r].isFinite }
        }
      skipped = times.count - kept.count
      times = kept.map { times[$0] }
      values = values.map { column in kept.map { column[$0] } }
      rows = kept
    }
    guard times.count >= 2 else { return nil }
    let clock = try AppClock(times, source: source) { line(rows?[$0] ?? $0) }
    // Repeats dropped may leave one time (every sample logged at the same instant).
    guard clock.times.count >= 2 else { return nil }
    if let kept = clock.kept {
      values = values.map { column in kept.map { column[$0] } }
    }
    var notes = clock.notes
    if skipped > 0 {
      notes.insert(
        "\(source): \(skipped) row(s) without a time or with an empty value skipped", at: 0)
    }
    return AppStream(
      source: source, channels: axes.map { "\(group).\($0)" }, times: clock.times, columns: values,
      conversion: conversion, notes: notes, warnings: clock.warnings,
      typicalStep: clock.warnings.isEmpty ? clock.step : nil)
  }
}

extension AppTable {
  /// `"File.csv (x,y,z)"`: a stream's source in the load report.
  func source(_ columns: [Int]) -> String {
    "\(PathName.last(file)) (\(columns.map { header[$0] }.joined(separator: ",")))"
  }
}
