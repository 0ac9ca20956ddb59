// The phone-app export layouts Motus reads: the names every message about a path's layout lists.

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
