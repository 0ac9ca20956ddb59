// phyphox (RWTH Aachen): `"Time (s)"` CSVs in m/s² and rad/s, Android's sign on both
// platforms (+9.81 on the axis pointing up), so accelerations are negated and divided by g.
// A "multi-sensor" export is a folder with one file per sensor (`Accelerometer.csv` with
// `"X (m/s^2)"`); the "Acceleration with/without g" and gyroscope experiments write one file
// whose columns name the sensor (`"Acceleration x (m/s^2)"`).

import Foundation
import MotusData
import MotusGzip
import MotusOutput

enum PhyphoxReader {
  static func recognises(header: [String]) -> Bool { header.first == "Time (s)" }

  /// The sensor a file holds: (group, column names x/y/z, scale, conversion), or nil.
  static func sensor(file: String, header: [String]) -> (String, [String], Double, String)? {
    let toG = (-1 / standardGravity, "m/s² -> g, Android sign negated")
    let named: [(String, String, (Double, String))] = [
      ("Linear Acceleration", "userAcceleration", toG), ("Acceleration", "acceleration", toG),
      ("Gyroscope", "rotationRate", (1, "rad/s as is")),
    ]
    for (prefix, group, (scale, conversion)) in named {
      let unit = group == "rotationRate" ? "(rad/s)" : "(m/s^2)"
      let columns = ["x", "y", "z"].map { "\(prefix) \($0) \(unit)" }
      if columns.allSatisfy(header.contains) { return (group, columns, scale, conversion) }
    }
    // Multi-sensor files: the file name says which sensor `"X (unit)"` is.
    let base = (InputFile.textName(PathName.last(file)) as NSString).deletingPathExtension
      .lowercased()
    let byFile: [(String, String, String, (Double, String))] = [
      ("linear accelerometer", "userAcceleration", "m/s^2", toG),
      ("linear acceleration", "userAcceleration", "m/s^2", toG),
      ("accelerometer", "acceleration", "m/s^2", toG),
      ("gyroscope", "rotationRate", "rad/s", (1, "rad/s as is")),
    ]
    for (name, group, unit, (scale, conversion)) in byFile where base == name {
      let columns = ["X", "Y", "Z"].map { "\($0) (\(unit))" }
      if columns.allSatisfy(header.contains) { return (group, columns, scale, conversion) }
    }
    return nil
  }

  /// Reads the phyphox CSVs `paths` (a folder's files, or one file) as one recording.
  static func read(_ paths: [String], limit: Double) throws -> AppRecordingParts {
    var parts = AppRecordingParts(layout: .phyphox)
    for path in paths {
      let name = PathName.last(path)
      guard InputFile.textSizeHint(path) > 0 else {
        parts.ignored.append("\(name) (empty)")
        continue
      }
      var table = try AppTable.read(path)
      guard recognises(header: table.header), let time = table.column("Time (s)") else {
        parts.ignored.append("\(name) (not a phyphox \"Time (s)\" file)")
        continue
      }
      guard let (group, names, scale, conversion) = sensor(file: path, header: table.header) else {
        let reason =
          name.lowercased().hasPrefix("location") ? "GPS, never read" : "not a motion sensor"
        parts.ignored.append("\(name) (\(reason))")
        continue
      }
      if parts.streams.contains(where: { $0.channels.first?.hasPrefix(group + ".") == true }) {
        parts.ignored.append("\(name) (a second \(group) file)")
        continue
      }
      let columns = names.compactMap { table.column($0) }
      var parsed = try table.columns(
        [AppTable.Request(column: time, isTime: true)]
          + columns.map { AppTable.Request(column: $0, scale: scale, limit: limit) })
      table.releaseText()
      let times = parsed.removeFirst()
      if let stream = try AppStream.make(
        times: times, values: parsed, group: group, conversion: conversion,
        source: table.source(columns), line: { table.line(ofRow: $0) })
      {
        parts.streams.append(stream)
      }
    }
    return parts
  }

  /// Platform and app version from `meta/device.csv` (or `.csv.gz`), when the folder has one.
  static func device(folder: String) -> String? {
    let meta = (folder as NSString).appendingPathComponent("meta")
    let name = (try? AppExport.csvFiles(in: meta))?.first {
      InputFile.textName($0).lowercased() == "device.csv"
    }
    guard let name, let table = try? AppTable.read((meta as NSString).appendingPathComponent(name)),
      let p = table.column("property"),
      let v = table.column("value")
    else { return nil }
    var values: [String: String] = [:]
    for (property, value) in zip(table.strings(p), table.strings(v)) {
      values[property] = value
    }
    let parts = [
      values["deviceModel"], values["deviceRelease"].map { "OS \($0)" },
      values["version"].map { "phyphox \($0)" },
    ].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }
}
