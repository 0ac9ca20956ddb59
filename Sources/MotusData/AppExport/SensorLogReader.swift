// SensorLog (Bernd Thomas, iOS and watchOS): one wide CSV, one row per logging tick, units in
// the column names (G, rad/s, rad) and Core Motion's sign, so values are copied as they are.
// Each sensor has its own `…Timestamp_sinceReboot(s)`: the device-motion and accelerometer
// streams are read on their own clocks (a tick may repeat a sample) and put on the
// `loggingTime(txt)` clock, whose first row is time 0.

import Foundation

enum SensorLogReader {
  static func recognises(header: [String]) -> Bool {
    header.contains("loggingTime(txt)")
  }

  static func read(_ table: AppTable) throws -> AppRecordingParts {
    var parts = AppRecordingParts(layout: .sensorLog)
    let (clock, origin) = try loggingClock(table)
    parts.platform = table.column("loggingSample(N)") == nil ? "watchOS" : "iOS"
    let motionAxes: [(String, String, String)] = [
      ("userAcceleration", "motionUserAcceleration%@(G)", "G as is"),
      ("gravity", "motionGravity%@(G)", "G as is"),
      ("rotationRate", "motionRotationRate%@(rad/s)", "rad/s as is"),
    ]
    if let times = try sensorTimes(table, "motionTimestamp_sinceReboot(s)", clock: clock) {
      for (group, pattern, conversion) in motionAxes {
        let columns = ["X", "Y", "Z"].map { table.column(pattern.replacingOccurrences(of: "%@", with: $0)) }
        guard columns.allSatisfy({ $0 != nil }) else { continue }
        if let s = try AppStream.make(
          table: table, times: times, columns: columns.compactMap { $0 }, group: group, scale: 1,
          conversion: conversion + ", device-motion clock")
        {
          parts.streams.append(s)
        }
      }
      let angles = ["motionRoll(rad)", "motionPitch(rad)", "motionYaw(rad)"].map { table.column($0) }
      if angles.allSatisfy({ $0 != nil }),
        let s = try AppStream.make(
          table: table, times: times, columns: angles.compactMap { $0 }, group: "attitude",
          scale: 1, conversion: "rad as is", axes: ["roll", "pitch", "yaw"])
      {
        parts.streams.append(s)
      }
    } else {
      parts.notes.append("no device-motion columns: no userAcceleration, gravity or rotationRate")
    }
    let raw = ["X", "Y", "Z"].map { table.column("accelerometerAcceleration\($0)(G)") }
    let rawTimes = try sensorTimes(table, "accelerometerTimestamp_sinceReboot(s)", clock: clock) ?? clock
    if raw.allSatisfy({ $0 != nil }),
      let s = try AppStream.make(
        table: table, times: rawTimes, columns: raw.compactMap { $0 }, group: "acceleration",
        scale: 1, conversion: "G as is, accelerometer clock")
    {
      parts.streams.append(s)
    }
    parts.pedometer = try pedometer(table, clock: clock, origin: origin)
    parts.ignored.append("gyroRotation*, magnetometer*, altimeter*, battery* columns (not used)")
    if table.column("locationLatitude(WGS84)") != nil {
      parts.ignored.append("location* columns (GPS, never read)")
    }
    return parts
  }

  /// `loggingTime(txt)` in seconds since its first row, and that first time (s since 1970).
  static func loggingClock(_ table: AppTable) throws -> (clock: [Double], origin: Double) {
    guard let timeColumn = table.column("loggingTime(txt)") else {
      throw AppExportError(
        path: table.file, message: "no loggingTime(txt) column.",
        hint: "export with SensorLog's CSV format.")
    }
    var logging = [Double](repeating: .nan, count: table.rows.count)
    for (r, text) in table.strings(timeColumn).enumerated() {
      guard let t = ISO8601Time.seconds(text) else {
        throw AppExportError(
          path: "\(table.location(row: r, column: timeColumn))",
          message: "'\(Excerpt.text(String(text)))' is not an ISO 8601 time.",
          hint: "SensorLog writes times such as 2025-03-11T14:44:11.899-04:00.")
      }
      logging[r] = t
    }
    guard let origin = logging.first else { throw CSVError.noDataRows(file: table.file) }
    return (logging.map { $0 - origin }, origin)
  }

  /// A sensor's own timestamps moved onto the logging clock (the median offset between the
  /// two), or nil when the column is absent or never set (SensorLog writes 0 or -1 then).
  static func sensorTimes(_ table: AppTable, _ name: String, clock: [Double]) throws -> [Double]? {
    guard let c = table.column(name) else { return nil }
    let own = try table.numbers(c)
    var offsets = own.indices.filter { own[$0].isFinite && own[$0] > 0 }.map { clock[$0] - own[$0] }
    guard offsets.count >= 2 else { return nil }
    offsets.sort()
    let offset = offsets[offsets.count / 2]
    return own.map { $0.isFinite && $0 > 0 ? $0 + offset : .nan }
  }

  /// `pedometerNumberofSteps(N)` at `pedometerEndDate(txt)` (the time the count refers to;
  /// the logging time when it is absent), one point per change of the count.
  static func pedometer(_ table: AppTable, clock: [Double], origin: Double) throws -> PedometerReference? {
    guard let c = table.column("pedometerNumberofSteps(N)") else { return nil }
    let steps = try table.numbers(c)
    let cadence = try table.column("pedometerCurrentCadence(steps/s)").map { try table.numbers($0) }
    let ends = table.column("pedometerEndDate(txt)").map { table.strings($0) }
    var times: [Double] = []
    var counts: [Double] = []
    var cadences: [Double] = []
    for r in steps.indices where steps[r].isFinite && steps[r] >= 0 {
      let t = ends.flatMap { ISO8601Time.seconds($0[r]) }.map { $0 - origin } ?? clock[r]
      if let last = counts.last, steps[r] == last { continue }
      if let lastTime = times.last, t <= lastTime { continue }
      times.append(t)
      counts.append(steps[r])
      cadences.append(cadence?[r] ?? .nan)
    }
    // A count that never moves from 0 means the pedometer was not logged.
    guard let last = counts.last, last > 0 || counts.count > 1 else { return nil }
    // Hold the last count to the end of the recording, where it is still the phone's count.
    if let end = clock.last, let lastTime = times.last, end > lastTime {
      times.append(end)
      counts.append(last)
      cadences.append(cadences.last ?? .nan)
    }
    return PedometerReference(
      times: times, cumulativeSteps: counts,
      cadenceStepsPerSecond: cadence == nil ? nil : cadences,
      source: "\(PathName.last(table.file)) (pedometerNumberofSteps(N) at pedometerEndDate(txt))")
  }
}

/// ISO 8601 times as SensorLog writes them (`2025-03-11T14:44:11.899-04:00`), in seconds
/// since 1970 (UTC).
enum ISO8601Time {
  static func seconds(_ text: Substring) -> Double? {
    let s = Array(text.utf8)
    func int(_ a: Int, _ n: Int) -> Int? {
      guard a + n <= s.count else { return nil }
      var v = 0
      for i in a..<(a + n) {
        guard s[i] >= 48 && s[i] <= 57 else { return nil }
        v = v * 10 + Int(s[i] - 48)
      }
      return v
    }
    guard s.count >= 19, s[4] == 45, s[7] == 45, s[10] == 84 || s[10] == 32,
      let year = int(0, 4), let month = int(5, 2), let day = int(8, 2),
      let hour = int(11, 2), let minute = int(14, 2), let second = int(17, 2)
    else { return nil }
    var i = 19
    var fraction = 0.0
    if i < s.count && (s[i] == 46 || s[i] == 44) {
      var scale = 0.1
      i += 1
      while i < s.count && s[i] >= 48 && s[i] <= 57 {
        fraction += Double(s[i] - 48) * scale
        scale /= 10
        i += 1
      }
    }
    var offset = 0
    if i < s.count {
      if s[i] == 90 {  // Z
        offset = 0
      } else if s[i] == 43 || s[i] == 45, let h = int(i + 1, 2) {
        let m = int(i + 4, 2) ?? int(i + 3, 2) ?? 0
        offset = (h * 3600 + m * 60) * (s[i] == 45 ? -1 : 1)
      } else {
        return nil
      }
    }
    let days = daysFromCivil(year: year, month: month, day: day)
    return Double(days * 86400 + hour * 3600 + minute * 60 + second - offset) + fraction
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }
}
