// AndroSensor (Android): `sep=;` then a semicolon header with units, m/s² and rad/s in
// Android's sign, one row per logging interval; `Time since start in ms ` is the clock.

import Foundation
import MotusData

enum AndroSensorReader {
  static func recognises(header: [String]) -> Bool {
    header.contains { $0.hasPrefix("ACCELEROMETER X") || $0.hasPrefix("LINEAR ACCELERATION X") }
      && header.contains { $0.hasPrefix("Time since start in ms") }
  }

  static func read(path: String, limit: Double) throws -> AppRecordingParts {
    var table = try AppTable.read(path)
    var parts = AppRecordingParts(layout: .androSensor)
    guard let time = table.column(where: { $0.hasPrefix("Time since start in ms") }) else {
      throw CSVError.missingColumn(
        name: "Time since start in ms", option: "AndroSensor", file: table.file,
        available: table.header)
    }
    let toG = -1 / standardGravity
    let groups: [(String, String, Double, String)] = [
      ("ACCELEROMETER", "acceleration", toG, "m/s² -> g, Android sign negated"),
      ("GRAVITY", "gravity", toG, "m/s² -> g, Android sign negated"),
      ("LINEAR ACCELERATION", "userAcceleration", toG, "m/s² -> g, Android sign negated"),
      ("GYROSCOPE", "rotationRate", 1, "rad/s as is"),
    ]
    let found: [([Int], String, Double, String)] = groups.compactMap {
      prefix, group, scale, conversion in
      let columns = ["X", "Y", "Z"].compactMap { axis in
        table.column(where: { $0.hasPrefix("\(prefix) \(axis) (") })
      }
      return columns.count == 3 ? (columns, group, scale, conversion) : nil
    }
    var parsed = try table.columns(
      [AppTable.Request(column: time, limit: 1000 * Limits.timeMagnitude, isTime: true)]
        + found.flatMap { columns, _, scale, _ in
          columns.map { AppTable.Request(column: $0, scale: scale, limit: limit) }
        })
    table.releaseText()
    let times = parsed.removeFirst().map { $0 / 1000 }
    for (k, (columns, group, _, conversion)) in found.enumerated() {
      if let s = try AppStream.make(
        times: times, values: Array(parsed[(3 * k)..<(3 * k + 3)]), group: group,
        conversion: conversion, source: table.source(columns), line: { table.line(ofRow: $0) })
      {
        parts.streams.append(s)
      }
    }
    parts.ignored.append(
      "LIGHT, MAGNETIC FIELD, ORIENTATION, PROXIMITY, pressure and sound columns (not used)")
    if table.header.contains(where: { $0.hasPrefix("LOCATION") }) {
      parts.ignored.append("LOCATION columns (GPS, never read)")
    }
    return parts
  }
}
