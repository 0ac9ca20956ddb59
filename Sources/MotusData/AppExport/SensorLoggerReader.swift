// Sensor Logger (tszheichoi): a folder with one CSV per sensor, `time` in Unix nanoseconds,
// axes written z,y,x (read by name). Units and signs differ by platform:
// - iOS: Accelerometer (user acceleration) and Gravity in m/s², Core Motion sign;
//   AccelerometerUncalibrated is Core Motion's raw accelerometer in g.
// - Android: Accelerometer (linear acceleration), Gravity and TotalAcceleration in m/s²,
//   Android sign (+9.81 on the axis pointing up), so they are negated.
// Gyroscope is rad/s on both. Missing files are tolerated.

import Foundation

enum SensorLoggerReader {
  /// Sensor files Motus uses; any other CSV in the folder is listed as ignored.
  static let motionFiles = [
    "Accelerometer.csv", "Gravity.csv", "Gyroscope.csv", "TotalAcceleration.csv",
    "AccelerometerUncalibrated.csv", "Orientation.csv",
  ]

  /// Whether `folder` looks like a Sensor Logger export: a motion file whose header starts
  /// `time,seconds_elapsed`.
  static func recognises(folder: String, files: [String]) -> Bool {
    for name in motionFiles + ["Metadata.csv"] where files.contains(name) {
      let header = AppExport.firstLine(of: (folder as NSString).appendingPathComponent(name))
      if header.hasPrefix("time,seconds_elapsed") { return true }
      if name == "Metadata.csv" && header.contains("recording epoch time") { return true }
    }
    return false
  }

  static func read(folder: String, files: [String]) throws -> AppRecordingParts {
    var parts = AppRecordingParts(layout: .sensorLogger)
    func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
    let metadata = files.contains("Metadata.csv") ? try AppTable.read(path("Metadata.csv")) : nil
    func meta(_ key: String) -> String? {
      guard let m = metadata, let c = m.column(key), let row = m.rows.first, c < row.count
      else { return nil }
      return String(row[c])
    }
    // The clock: nanoseconds since the recording epoch (Metadata), else since the first sample.
    var epochNanos: Int64? = meta("recording epoch time").flatMap { Int64($0) }.map { $0 * 1_000_000 }
    let android: Bool
    switch meta("platform")?.lowercased() {
    case "android": android = true
    case "ios": android = false
    default:
      android = files.contains("TotalAcceleration.csv")
      parts.notes.append(
        "no platform in Metadata.csv: read as \(android ? "Android (TotalAcceleration.csv present)" : "iOS (no TotalAcceleration.csv)")")
    }
    if meta("standardisation")?.lowercased() == "true" {
      throw AppExportError(
        path: folder, message: "Sensor Logger's standardisation is on; its axes and signs are not verified here.",
        hint: "export the recording again with standardisation off (Settings > Recording).")
    }
    let version = meta("appVersion").map { " \($0)" } ?? ""
    let device = meta("device name").map { ", \($0)" } ?? ""
    parts.platform = (android ? "Android" : "iOS") + device + ", app" + version

    let g = standardGravity
    // (file, group, scale, conversion), in the platform's units and sign.
    var plan: [(String, String, Double, String)] = [
      ("Accelerometer.csv", "userAcceleration", android ? -1 / g : 1 / g,
       android ? "m/s² -> g, Android sign negated" : "m/s² -> g"),
      ("Gravity.csv", "gravity", android ? -1 / g : 1 / g,
       android ? "m/s² -> g, Android sign negated" : "m/s² -> g"),
      ("Gyroscope.csv", "rotationRate", 1, "rad/s as is"),
    ]
    if android {
      plan.append(("TotalAcceleration.csv", "acceleration", -1 / g, "m/s² -> g, Android sign negated"))
    } else {
      plan.append(("AccelerometerUncalibrated.csv", "acceleration", 1, "g as is"))
    }
    var tables: [String: AppTable] = [:]
    for (name, _, _, _) in plan where files.contains(name) { tables[name] = try AppTable.read(path(name)) }
    if epochNanos == nil {
      epochNanos = try tables.values.compactMap { try firstNanos($0) }.min()
      parts.notes.append("no recording epoch time in Metadata.csv: time 0 is the first sample")
    }
    let origin = epochNanos ?? 0
    for (name, group, scale, conversion) in plan {
      guard let table = tables[name] else {
        parts.notes.append("\(name) absent: no \(group).* channels")
        continue
      }
      let axes = ["x", "y", "z"].map { table.column($0) }
      guard let times = try seconds(table, origin: origin), axes.allSatisfy({ $0 != nil }) else {
        parts.ignored.append("\(name) (no time,x,y,z columns)")
        continue
      }
      if let stream = try AppStream.make(
        table: table, times: times, columns: axes.compactMap { $0 }, group: group, scale: scale,
        conversion: conversion + ", columns z,y,x read by name")
      {
        parts.streams.append(stream)
      }
    }
    if !android, files.contains("Orientation.csv") {
      let table = try AppTable.read(path("Orientation.csv"))
      let angles = ["roll", "pitch", "yaw"].map { table.column($0) }
      if let times = try seconds(table, origin: origin), angles.allSatisfy({ $0 != nil }),
        let stream = try AppStream.make(
          table: table, times: times, columns: angles.compactMap { $0 }, group: "attitude",
          scale: 1, conversion: "rad as is, read by name", axes: ["roll", "pitch", "yaw"])
      {
        parts.streams.append(stream)
      }
    } else if files.contains("Orientation.csv") {
      parts.ignored.append("Orientation.csv (Android angles are not Core Motion's attitude)")
    }
    if android && files.contains("AccelerometerUncalibrated.csv") {
      parts.ignored.append("AccelerometerUncalibrated.csv (TotalAcceleration.csv gives acceleration.*)")
    }
    if files.contains("Pedometer.csv") {
      parts.pedometer = try pedometer(AppTable.read(path("Pedometer.csv")), origin: origin)
    }
    let used = Set(plan.map(\.0) + ["Orientation.csv", "Pedometer.csv", "Metadata.csv", "AccelerometerUncalibrated.csv"])
    for name in files where !used.contains(name) {
      parts.ignored.append(name == "Location.csv" ? "Location.csv (GPS, never read)" : "\(name) (not a motion sensor)")
    }
    return parts
  }

  /// Seconds of the `time` column (Unix ns) since `origin` (ns); nil without the column.
  static func seconds(_ table: AppTable, origin: Int64) throws -> [Double]? {
    guard let c = table.column("time") else { return nil }
    return try table.strings(c).enumerated().map { r, field in
      guard let ns = Int64(field) else {
        throw CSVError.nonNumeric(text: String(field), at: table.location(row: r, column: c))
      }
      return Double(ns - origin) / 1e9
    }
  }

  static func firstNanos(_ table: AppTable) throws -> Int64? {
    guard let c = table.column("time"), let first = table.rows.first, c < first.count else { return nil }
    return Int64(first[c])
  }

  /// Sensor Logger counts steps from the recording start: the series begins at 0 steps, time 0.
  static func pedometer(_ table: AppTable, origin: Int64) throws -> PedometerReference? {
    guard let c = table.column("steps"), var times = try seconds(table, origin: origin) else {
      return nil
    }
    var steps = try table.numbers(c)
    let keep = times.indices.filter { steps[$0].isFinite }
    times = keep.map { times[$0] }
    steps = keep.map { steps[$0] }
    guard !times.isEmpty else { return nil }
    if times[0] > 0 {
      times.insert(0, at: 0)
      steps.insert(0, at: 0)
    }
    return PedometerReference(
      times: times, cumulativeSteps: steps, source: "\(table.file) (steps since the recording start)")
  }
}
