// Physics Toolbox Sensor Suite (Vieyra Software): the g-Force Meter writes `time,gFx,gFy,gFz,TgF`
// in g with Android's sign (+1 on the axis pointing up), the Linear Accelerometer
// `time,ax (m/s^2),ay (m/s^2),az (m/s^2),aT (m/s^2)`. A French locale writes `;` and decimal
// commas; `time` is seconds since the start or the wall clock `HH:MM:SS:ffff`.

import Foundation

enum PhysicsToolboxReader {
  static func recognises(header: [String]) -> Bool {
    header.first?.lowercased() == "time"
      && (["gFx", "gFy", "gFz"].allSatisfy(header.contains)
        || ["ax (m/s^2)", "ay (m/s^2)", "az (m/s^2)"].allSatisfy(header.contains))
  }

  static func read(_ table: AppTable) throws -> AppRecordingParts {
    var parts = AppRecordingParts(layout: .physicsToolbox)
    let times = try seconds(table)
    let locale = table.decimalComma ? "; separator, decimal commas" : "comma separator"
    let gForce = ["gFx", "gFy", "gFz"].compactMap { table.column($0) }
    if gForce.count == 3, let s = try AppStream.make(
      table: table, times: times, columns: gForce, group: "acceleration", scale: -1,
      conversion: "g, Android sign negated (\(locale))")
    {
      parts.streams.append(s)
    }
    let linear = ["ax (m/s^2)", "ay (m/s^2)", "az (m/s^2)"].compactMap { table.column($0) }
    if linear.count == 3, let s = try AppStream.make(
      table: table, times: times, columns: linear, group: "userAcceleration",
      scale: -1 / standardGravity, conversion: "m/s² -> g, Android sign negated (\(locale))")
    {
      parts.streams.append(s)
    }
    parts.ignored.append("TgF / aT (magnitudes; |acceleration| is computed when asked)")
    return parts
  }

  /// The `time` column in seconds: numbers as they are, wall-clock times `HH:MM:SS:ffff`
  /// (fraction digits after the last colon) as seconds since midnight, from the first row.
  static func seconds(_ table: AppTable) throws -> [Double] {
    let c = 0
    var out: [Double] = []
    out.reserveCapacity(table.rows.count)
    for (r, field) in table.strings(c).enumerated() {
      let text = table.decimalComma ? field.replacingOccurrences(of: ",", with: ".") : String(field)
      if let v = Double(text) {
        out.append(v)
        continue
      }
      let pieces = text.split(separator: ":")
      guard pieces.count == 4, let h = Double(pieces[0]), let m = Double(pieces[1]),
        let s = Double(pieces[2]), let f = Double("0." + pieces[3])
      else {
        throw CSVError.nonNumeric(text: String(field), at: table.location(row: r, column: c))
      }
      // A recording past midnight continues on the next day.
      var t = h * 3600 + m * 60 + s + f
      if let last = out.last, t < last - 43200 { t += 86400 }
      out.append(t)
    }
    guard let first = out.first else { throw CSVError.noDataRows(file: table.file) }
    return out.map { $0 - first }
  }
}
