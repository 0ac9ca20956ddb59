// Physics Toolbox Sensor Suite (Vieyra Software): the g-Force Meter writes `time,gFx,gFy,gFz,TgF`
// in g with Android's sign (+1 on the axis pointing up), the Linear Accelerometer
// `time,ax (m/s^2),ay (m/s^2),az (m/s^2),aT (m/s^2)`. A French locale writes `;` and decimal
// commas; `time` is seconds since the start or the wall clock `HH:MM:SS:ffff`.

import Foundation
import MotusData

enum PhysicsToolboxReader {
  static func recognises(header: [String]) -> Bool {
    header.first?.lowercased() == "time"
      && (["gFx", "gFy", "gFz"].allSatisfy(header.contains)
        || ["ax (m/s^2)", "ay (m/s^2)", "az (m/s^2)"].allSatisfy(header.contains))
  }

  static func read(path: String, limit: Double) throws -> AppRecordingParts {
    var table = try AppTable.read(path)
    var parts = AppRecordingParts(layout: .physicsToolbox)
    let locale = table.decimalComma ? "; separator, decimal commas" : "comma separator"
    let gForce = ["gFx", "gFy", "gFz"].compactMap { table.column($0) }
    let linear = ["ax (m/s^2)", "ay (m/s^2)", "az (m/s^2)"].compactMap { table.column($0) }
    let groups: [([Int], String, Double, String)] = [
      (gForce, "acceleration", -1, "g, Android sign negated (\(locale))"),
      (
        linear, "userAcceleration", -1 / standardGravity,
        "m/s² -> g, Android sign negated (\(locale))"
      ),
    ].filter { $0.0.count == 3 }
    var requests = [timeRequest(table)]
    for (columns, _, scale, _) in groups {
      requests += columns.map { AppTable.Request(column: $0, scale: scale, limit: limit) }
    }
    var parsed = try table.columns(requests)
    table.releaseText()
    let times = try seconds(parsed.removeFirst(), table: table)
    for (k, (columns, group, _, conversion)) in groups.enumerated() {
      if let s = try AppStream.make(
        times: times, values: Array(parsed[(3 * k)..<(3 * k + 3)]), group: group,
        conversion: conversion, source: table.source(columns), line: { table.line(ofRow: $0) })
      {
        parts.streams.append(s)
      }
    }
    parts.ignored.append("TgF / aT (magnitudes; |acceleration| is computed when asked)")
    return parts
  }

  /// The `time` column: seconds as numbers, or the wall clock `HH:MM:SS:ffff` (fraction
  /// digits after the last colon) as seconds since midnight, as the first row writes it.
  static func timeRequest(_ table: AppTable) -> AppTable.Request {
    guard table.firstCell(0)?.contains(":") == true else {
      return AppTable.Request(column: 0, isTime: true)
    }
    return AppTable.Request(
      column: 0,
      cell: .text(expected: "11:41:59:3050 (HH:MM:SS:ffff) or seconds", parse: wallClock),
      isTime: true)
  }

  /// `HH:MM:SS:ffff` in seconds since midnight.
  static func wallClock(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
    var fields: [Double] = []
    var value = 0.0
    var digits = 0
    var fraction = 0.0
    var scale = 0.1
    for b in s {
      if b == UInt8(ascii: ":") {
        guard digits > 0, fields.count < 3 else { return nil }
        fields.append(value)
        value = 0
        digits = 0
        continue
      }
      guard b >= 48 && b <= 57 else { return nil }
      digits += 1
      if fields.count == 3 {
        fraction += Double(b - 48) * scale
        scale /= 10
      } else {
        value = value * 10 + Double(b - 48)
      }
    }
    guard fields.count == 3, digits > 0 else { return nil }
    return fields[0] * 3600 + fields[1] * 60 + fields[2] + fraction
  }

  /// Times from the first row; a wall clock past midnight continues on the next day.
  static func seconds(_ raw: [Double], table: AppTable) throws -> [Double] {
    guard let first = raw.first else { throw CSVError.noDataRows(file: table.file) }
    if let r = raw.firstIndex(where: { $0.isNaN }) {
      throw CSVError.emptyCell(at: table.location(row: r, column: 0))
    }
    var out = raw
    var day = 0.0
    for i in out.indices.dropFirst() {
      if raw[i] + day < out[i - 1] - 43200 { day += 86400 }
      out[i] = raw[i] + day
    }
    return out.map { $0 - first }
  }
}
