// Sensor Logger (tszheichoi): a folder with one CSV per sensor, `time` in Unix nanoseconds,
// axes written z,y,x (read by name). Units and signs differ by platform:
// - iOS: Accelerometer (user acceleration) and Gravity in m/s², Core Motion sign;
//   AccelerometerUncalibrated is Core Motion's raw accelerometer in g.
// - Android: Accelerometer (linear acceleration), Gravity and TotalAcceleration in m/s²,
//   Android sign (+9.81 on the axis pointing up), so they are negated.
// Gyroscope is rad/s on both. Missing and empty files are tolerated (with a note), and file
// names are matched whatever their case (`accelerometer.csv`), compressed or not
// (`Accelerometer.csv.gz`, by `InputFile.textName`).

import Foundation
import MotusData
import MotusGzip
import MotusOutput

enum SensorLoggerReader {
  /// Sensor files Motus uses; any other CSV in the folder is listed as ignored.
  static let motionFiles = [
    "Accelerometer.csv", "Gravity.csv", "Gyroscope.csv", "TotalAcceleration.csv",
    "AccelerometerUncalibrated.csv", "Orientation.csv",
  ]

  /// Whether `folder` looks like a Sensor Logger export: a motion file whose header starts
  /// `time,seconds_elapsed`.
  static func recognises(folder: String, files: [String]) throws -> Bool {
    let found = SensorLoggerFiles(folder: folder, files: files)
    for name in motionFiles + ["Metadata.csv"] where found.has(name) {
      let header = try AppExport.firstLine(of: found.path(name))
      if header.hasPrefix("time,seconds_elapsed") { return true }
      if name == "Metadata.csv" && header.contains("recording epoch time") { return true }
    }
    return false
  }

  static func read(folder: String, files: [String], limit: Double) throws -> AppRecordingParts {
    var parts = AppRecordingParts(layout: .sensorLogger)
    let found = SensorLoggerFiles(folder: folder, files: files)
    parts.notes += found.empty.map { "\($0) is empty: not read" }
    let metadata = found.has("Metadata.csv") ? try AppTable.read(found.path("Metadata.csv")) : nil
    let android = try platform(metadata, folder: folder, found: found, parts: &parts)
    let plan = conversions(android: android)
    // The clock: nanoseconds since the recording epoch (Metadata), else since the first sample.
    var epochNanos = try metadataValue(metadata, "recording epoch time").flatMap { text in
      try epochNanoseconds(text, metadata: metadata)
    }
    if epochNanos == nil {
      epochNanos = try plan.filter { found.has($0.0) }
        .compactMap { try firstNanos(AppTable.read(found.path($0.0))) }.min()
      parts.notes.append("no recording epoch time in Metadata.csv: time 0 is the first sample")
    }
    let origin = epochNanos ?? 0
    for (name, group, scale, conversion) in plan {
      guard found.has(name) else {
        parts.notes.append("\(name) absent: no \(group).* channels")
        continue
      }
      var table = try AppTable.read(found.path(name))
      let axes = ["x", "y", "z"].compactMap { table.column($0) }
      guard let time = table.column("time"), axes.count == 3 else {
        parts.ignored.append("\(name) (no time,x,y,z columns)")
        continue
      }
      if let stream = try stream(
        &table, time: time, columns: axes, origin: origin, scale: scale, limit: limit, group: group,
        conversion: conversion + ", columns z,y,x read by name")
      {
        parts.streams.append(stream)
      } else {
        parts.notes.append("\(name) has fewer than two whole samples: no \(group).* channels")
      }
    }
    if !android, found.has("Orientation.csv") {
      var table = try AppTable.read(found.path("Orientation.csv"))
      let angles = ["roll", "pitch", "yaw"].compactMap { table.column($0) }
      if let time = table.column("time"), angles.count == 3,
        let stream = try stream(
          &table, time: time, columns: angles, origin: origin, scale: 1, limit: limit,
          group: "attitude", conversion: "rad as is, read by name", axes: ["roll", "pitch", "yaw"])
      {
        parts.streams.append(stream)
      }
    }
    if found.has("Pedometer.csv") {
      parts.pedometer = try pedometer(
        AppTable.read(found.path("Pedometer.csv")), origin: origin, warnings: &parts.warnings)
    }
    parts.ignored += ignored(found, used: plan.map(\.0), android: android)
    return parts
  }

  /// The time and three value columns of `table`, in one pass, as a stream.
  static func stream(
    _ table: inout AppTable, time: Int, columns: [Int], origin: Int64, scale: Double, limit: Double,
    group: String, conversion: String, axes: [String] = ["x", "y", "z"]
  ) throws -> AppStream? {
    var parsed = try table.columns(
      [timeRequest(time, origin: origin)]
        + columns.map { AppTable.Request(column: $0, scale: scale, limit: limit) })
    table.releaseText()
    let times = parsed.removeFirst()
    return try AppStream.make(
      times: times, values: parsed, group: group, conversion: conversion,
      source: table.source(columns), axes: axes, line: { table.line(ofRow: $0) })
  }

  /// The `time` column (Unix ns) as seconds since `origin` (ns).
  static func timeRequest(_ column: Int, origin: Int64) -> AppTable.Request {
    AppTable.Request(column: column, cell: .nanoseconds(origin: origin), isTime: true)
  }

  /// `recording epoch time` (Unix ms) in nanoseconds.
  ///
  /// - Throws: `AppExportError` naming the cell when it does not fit 64-bit nanoseconds.
  static func epochNanoseconds(_ text: String, metadata: AppTable?) throws -> Int64? {
    guard let ms = Int64(text.trimmingCharacters(in: .whitespaces)) else { return nil }
    let (ns, overflow) = ms.multipliedReportingOverflow(by: 1_000_000)
    guard !overflow else {
      let at = metadata.map {
        "\($0.location(row: 0, column: $0.column("recording epoch time") ?? 0))"
      }
      throw AppExportError(
        path: at ?? "Metadata.csv",
        message: "recording epoch time '\(Excerpt.text(text))' ms is beyond what 64-bit "
          + "nanoseconds hold (±9.2e12 ms, the year 2262).",
        hint: "it is Unix time in milliseconds; check Metadata.csv.")
    }
    return ns
  }

  /// Whether the recording is Android's (else iOS'), from `Metadata.csv` or the files; sets
  /// the platform text. Throws for standardised exports, whose axes and signs are unverified.
  static func platform(
    _ metadata: AppTable?, folder: String, found: SensorLoggerFiles, parts: inout AppRecordingParts
  ) throws -> Bool {
    let android: Bool
    switch metadataValue(metadata, "platform")?.lowercased() {
    case "android": android = true
    case "ios": android = false
    default:
      android = found.has("TotalAcceleration.csv")
      parts.notes.append(
        "no platform in Metadata.csv: read as "
          + (android ? "Android (TotalAcceleration.csv present)" : "iOS (no TotalAcceleration.csv)")
      )
    }
    if metadataValue(metadata, "standardisation")?.lowercased() == "true" {
      throw AppExportError(
        path: folder,
        message: "Sensor Logger's standardisation is on; its axes and signs are not verified here.",
        hint: "export the recording again with standardisation off (Settings > Recording).")
    }
    let version = metadataValue(metadata, "appVersion").map { " \($0)" } ?? ""
    let device = metadataValue(metadata, "device name").map { ", \($0)" } ?? ""
    parts.platform = (android ? "Android" : "iOS") + device + ", app" + version
    return android
  }

  /// (file, channel group, scale, conversion) in the platform's units and sign.
  static func conversions(android: Bool) -> [(String, String, Double, String)] {
    SensorLoggerConversion.all(android: android).map { ($0.file, $0.group, $0.scale, $0.text) }
  }

  /// The folder's files not read, and why.
  static func ignored(_ found: SensorLoggerFiles, used: [String], android: Bool) -> [String] {
    var out: [String] = []
    if android && found.has("Orientation.csv") {
      out.append("Orientation.csv (Android angles are not Core Motion's attitude)")
    }
    if android && found.has("AccelerometerUncalibrated.csv") {
      out.append("AccelerometerUncalibrated.csv (TotalAcceleration.csv gives acceleration.*)")
    }
    let read = Set(
      used + ["Orientation.csv", "Pedometer.csv", "Metadata.csv", "AccelerometerUncalibrated.csv"])
    for name in found.names where !read.contains(name) && !found.empty.contains(name) {
      out.append(
        name == "Location.csv" ? "Location.csv (GPS, never read)" : "\(name) (not a motion sensor)")
    }
    return out
  }

  /// A `Metadata.csv` value by column name.
  static func metadataValue(_ metadata: AppTable?, _ key: String) -> String? {
    guard let m = metadata, let c = m.column(key) else { return nil }
    return m.firstCell(c)
  }

  /// The first sample's `time` (Unix ns), when it is one.
  static func firstNanos(_ table: AppTable) throws -> Int64? {
    guard let c = table.column("time"), let first = table.firstCell(c) else { return nil }
    return Int64(first)
  }

  /// Sensor Logger counts steps from the recording start: the series begins at 0 steps, time 0.
  /// An implausible series (`PedometerReference.problem`) is left out with a note.
  static func pedometer(_ table: AppTable, origin: Int64, warnings: inout [String]) throws
    -> PedometerReference?
  {
    guard let c = table.column("steps"), let time = table.column("time") else { return nil }
    let parsed = try table.columns([
      timeRequest(time, origin: origin), AppTable.Request(column: c, strict: false),
    ])
    let keep = parsed[0].indices.filter { !parsed[1][$0].isNaN }
    var times = keep.map { parsed[0][$0] }
    var steps = keep.map { parsed[1][$0] }
    guard !times.isEmpty else { return nil }
    if let (i, reason) = PedometerReference.problem(times: times, counts: steps, cadences: nil) {
      warnings.append(
        "\(PathName.last(table.file)) line \(table.line(ofRow: keep[i])): "
          + "\(reason); the pedometer reference is not used")
      return nil
    }
    if times[0] > 0 {
      times.insert(0, at: 0)
      steps.insert(0, at: 0)
    }
    return PedometerReference(
      times: times, cumulativeSteps: steps,
      source: "\(table.file) (steps since the recording start)")
  }
}

/// A Sensor Logger folder's CSV files by the names the app gives them, whatever their case on
/// disk, gzip-compressed (`.csv.gz`) or not; empty files (Sensor Logger leaves `Annotation.csv` empty) are set apart.
struct SensorLoggerFiles {
  let folder: String
  /// Each file's name as Sensor Logger writes it (as on disk when it is not one Motus knows).
  let names: [String]
  /// Those of them that are empty.
  let empty: Set<String>
  private let onDisk: [String: String]

  init(folder: String, files: [String]) {
    let known = SensorLoggerReader.motionFiles + ["Metadata.csv", "Pedometer.csv", "Location.csv"]
    var onDisk: [String: String] = [:]
    var empty: Set<String> = []
    var names: [String] = []
    for file in files {
      let text = InputFile.textName(file).lowercased()
      let name = known.first { $0.lowercased() == text } ?? file
      guard onDisk[name] == nil else { continue }
      onDisk[name] = file
      names.append(name)
      if InputFile.textSizeHint((folder as NSString).appendingPathComponent(file)) == 0 {
        empty.insert(name)
      }
    }
    (self.folder, self.names, self.empty, self.onDisk) = (folder, names, empty, onDisk)
  }

  /// Whether the folder holds `name` (any case), not empty.
  func has(_ name: String) -> Bool { onDisk[name] != nil && !empty.contains(name) }

  func path(_ name: String) -> String {
    (folder as NSString).appendingPathComponent(onDisk[name] ?? name)
  }
}
