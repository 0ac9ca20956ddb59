// The phone-app export layouts Motus reads, and what one read recording holds.

import Foundation

/// An app's export format, as recognised from a file's header or a folder's files.
public enum AppExportLayout: String, Sendable, CaseIterable {
  /// Sensor Logger (Android, iOS): a folder of per-sensor CSVs, nanosecond `time`, z,y,x.
  case sensorLogger = "Sensor Logger"
  /// SensorLog (iOS, watchOS): one wide CSV, `loggingTime(txt)`, units in the names (G, rad/s).
  case sensorLog = "SensorLog"
  /// phyphox (Android, iOS): `"Time (s)"` CSVs, one per sensor in a folder, or one file.
  case phyphox = "phyphox"
  /// Physics Toolbox Sensor Suite: `time,gFx,gFy,gFz,TgF` (g) or linear acceleration (m/s²),
  /// comma or semicolon separated, decimal point or comma.
  case physicsToolbox = "Physics Toolbox"
  /// AndroSensor: `sep=;` then a semicolon header with units (m/s², rad/s).
  case androSensor = "AndroSensor"

  /// Every layout a path can be in, for messages: the long CSV layout, then the app layouts.
  public static var knownLayouts: String {
    "the long layout (timestamp,session,subject,label,<channels>), "
      + allCases.map(\.summary).joined(separator: ", ")
  }

  /// The same, names only (for messages that list much else).
  public static var knownLayoutNames: String {
    "the long layout or a " + allCases.map(\.rawValue).dropLast().joined(separator: ", ")
      + " or \(allCases.last?.rawValue ?? "") export"
  }

  /// How to recognise it, in a few words.
  public var summary: String {
    switch self {
    case .sensorLogger:
      return
        "a Sensor Logger folder (Accelerometer.csv, Gravity.csv... with time,seconds_elapsed,z,y,x)"
    case .sensorLog: return "a SensorLog CSV (loggingTime(txt),...)"
    case .phyphox: return "a phyphox folder or CSV (\"Time (s)\",...)"
    case .physicsToolbox: return "a Physics Toolbox CSV (time,gFx,gFy,gFz or time,ax (m/s^2),...)"
    case .androSensor: return "an AndroSensor CSV (sep=; then ACCELEROMETER X (m/s²);...)"
    }
  }
}

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

/// A phone-app recording read into streams, before they are joined on one clock.
struct AppRecordingParts {
  var layout: AppExportLayout
  /// Platform or device, when the export says (`iOS`, `Android`, `iPhone 13`).
  var platform: String?
  var streams: [AppStream] = []
  var pedometer: PedometerReference?
  /// Files or sensors read but not used, and why.
  var ignored: [String] = []
  var notes: [String] = []
  /// Notes about data changed or left out (a pedometer), which every command prints.
  var warnings: [String] = []
}

/// Errors specific to phone-app exports. Cell-level problems are `CSVError`s with a location.
public struct AppExportError: Error, Equatable, CustomStringConvertible {
  public var path: String
  public var message: String
  public var hint: String

  public init(path: String, message: String, hint: String) {
    self.path = path
    self.message = message
    self.hint = hint
  }

  public var description: String { "\(path): \(message) HINT: \(hint)" }
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
