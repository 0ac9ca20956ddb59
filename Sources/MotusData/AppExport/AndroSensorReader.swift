// AndroSensor (Android): `sep=;` then a semicolon header with units, m/s² and rad/s in
// Android's sign, one row per logging interval; `Time since start in ms ` is the clock.

import Foundation

enum AndroSensorReader {
  static func recognises(header: [String]) -> Bool {
    header.contains { $0.hasPrefix("ACCELEROMETER X") || $0.hasPrefix("LINEAR ACCELERATION X") }
      && header.contains { $0.hasPrefix("Time since start in ms") }
  }

  static func read(_ table: AppTable) throws -> AppRecordingParts {
    var parts = AppRecordingParts(layout: .androSensor)
    guard let time = table.column(where: { $0.hasPrefix("Time since start in ms") }) else {
      throw CSVError.missingColumn(
        name: "Time since start in ms", option: "AndroSensor", file: table.file, available: table.header)
    }
    let times = try table.numbers(time).map { $0 / 1000 }
    let toG = -1 / standardGravity
    let groups: [(String, String, Double, String)] = [
      ("ACCELEROMETER", "acceleration", toG, "m/s² -> g, Android sign negated"),
      ("GRAVITY", "gravity", toG, "m/s² -> g, Android sign negated"),
      ("LINEAR ACCELERATION", "userAcceleration", toG, "m/s² -> g, Android sign negated"),
      ("GYROSCOPE", "rotationRate", 1, "rad/s as is"),
    ]
    for (prefix, group, scale, conversion) in groups {
      let columns = ["X", "Y", "Z"].map { axis in
        table.column(where: { $0.hasPrefix("\(prefix) \(axis) (") })
      }
      guard columns.allSatisfy({ $0 != nil }) else { continue }
      if let s = try AppStream.make(
        table: table, times: times, columns: columns.compactMap { $0 }, group: group,
        scale: scale, conversion: conversion)
      {
        parts.streams.append(s)
      }
    }
    parts.ignored.append("LIGHT, MAGNETIC FIELD, ORIENTATION, PROXIMITY, pressure and sound columns (not used)")
    if table.header.contains(where: { $0.hasPrefix("LOCATION") }) {
      parts.ignored.append("LOCATION columns (GPS, never read)")
    }
    return parts
  }
}
