// SensorLog (Bernd Thomas, iOS and watchOS): one wide CSV, one row per logging tick, units in
// the column names (G, rad/s, rad) and Core Motion's sign, so values are copied as they are.
// Each sensor has its own `…Timestamp_sinceReboot(s)`: the device-motion and accelerometer
// streams are read on their own clocks (a tick may repeat a sample) and put on the
// `loggingTime(txt)` clock, whose first row is time 0.

import Foundation
import MotusData
import MotusOutput

enum SensorLogReader {
  static func recognises(header: [String]) -> Bool {
    header.contains("loggingTime(txt)")
  }

  static func read(path: String, limit: Double) throws -> AppRecordingParts {
    var table = try AppTable.read(path)
    var parts = AppRecordingParts(layout: .sensorLog)
    guard let timeColumn = table.column("loggingTime(txt)") else {
      throw AppExportError(
        path: table.file, message: "no loggingTime(txt) column.",
        hint: "export with SensorLog's CSV format.")
    }
    parts.platform = table.column("loggingSample(N)") == nil ? "watchOS" : "iOS"
    let found = Columns(table)
    let requests = found.requests(time: timeColumn, limit: limit)
    let parsed = try table.columns(requests)
    table.releaseText()
    let byColumn = Dictionary(zip(requests.map(\.column), parsed), uniquingKeysWith: { a, _ in a })
    let (clock, origin) = try loggingClock(
      byColumn[timeColumn] ?? [], table: table, column: timeColumn)
    func stream(
      _ columns: [Int], _ times: [Double], _ group: String, _ conversion: String,
      axes: [String] = ["x", "y", "z"]
    ) throws -> AppStream? {
      try AppStream.make(
        times: times, values: columns.map { byColumn[$0] ?? [] }, group: group,
        conversion: conversion, source: table.source(columns), axes: axes,
        line: { table.line(ofRow: $0) })
    }
    if let times = found.motionTime.flatMap({ sensorTimes(byColumn[$0] ?? [], clock: clock) }) {
      for (group, columns, conversion) in found.motionGroups {
        if let s = try stream(columns, times, group, conversion) { parts.streams.append(s) }
      }
      if found.angles.count == 3,
        let s = try stream(
          found.angles, times, "attitude", "rad as is", axes: ["roll", "pitch", "yaw"])
      {
        parts.streams.append(s)
      }
    } else {
      parts.notes.append("no device-motion columns: no userAcceleration, gravity or rotationRate")
    }
    let rawTimes = found.rawTime.flatMap { sensorTimes(byColumn[$0] ?? [], clock: clock) } ?? clock
    if found.raw.count == 3,
      let s = try stream(found.raw, rawTimes, "acceleration", "G as is, accelerometer clock")
    {
      parts.streams.append(s)
    }
    if let steps = found.steps {
      parts.pedometer = pedometer(
        steps: byColumn[steps] ?? [], cadence: found.cadence.map { byColumn[$0] ?? [] },
        ends: found.ends.map { byColumn[$0] ?? [] }, clock: clock, origin: origin,
        source: PathName.last(table.file), line: { table.line(ofRow: $0) },
        warnings: &parts.warnings)
    }
    parts.ignored.append("gyroRotation*, magnetometer*, altimeter*, battery* columns (not used)")
    if table.column("locationLatitude(WGS84)") != nil {
      parts.ignored.append("location* columns (GPS, never read)")
    }
    return parts
  }

  static let isoExample = "2025-03-11T14:44:11.899-04:00 (ISO 8601, as SensorLog writes them)"

  /// The columns Motus reads from a SensorLog file, by header name (nil or fewer than three
  /// where the file has none).
  private struct Columns {
    /// Device-motion groups with all three axes: group, columns, conversion.
    var motionGroups: [(String, [Int], String)]
    var angles: [Int]
    var raw: [Int]
    var motionTime: Int?
    var rawTime: Int?
    var steps: Int?
    var cadence: Int?
    var ends: Int?

    init(_ table: AppTable) {
      let motionAxes: [(String, String, String)] = [
        ("userAcceleration", "motionUserAcceleration%@(G)", "G as is"),
        ("gravity", "motionGravity%@(G)", "G as is"),
        ("rotationRate", "motionRotationRate%@(rad/s)", "rad/s as is"),
      ]
      motionGroups = motionAxes.compactMap { group, pattern, conversion in
        let columns = ["X", "Y", "Z"].compactMap {
          table.column(pattern.replacingOccurrences(of: "%@", with: $0))
        }
        return columns.count == 3 ? (group, columns, conversion + ", device-motion clock") : nil
      }
      angles = ["motionRoll(rad)", "motionPitch(rad)", "motionYaw(rad)"].compactMap {
        table.column($0)
      }
      raw = ["X", "Y", "Z"].compactMap { table.column("accelerometerAcceleration\($0)(G)") }
      motionTime = table.column("motionTimestamp_sinceReboot(s)")
      rawTime = table.column("accelerometerTimestamp_sinceReboot(s)")
      steps = table.column("pedometerNumberofSteps(N)")
      cadence = table.column("pedometerCurrentCadence(steps/s)")
      ends = table.column("pedometerEndDate(txt)")
    }

    /// Every column in one pass over the rows, `loggingTime(txt)` first.
    func requests(time timeColumn: Int, limit: Double) -> [AppTable.Request] {
      var requests = [
        AppTable.Request(
          column: timeColumn, cell: .text(expected: isoExample, parse: ISO8601Time.seconds),
          isTime: true)
      ]
      for c in motionGroups.flatMap(\.1) + (angles.count == 3 ? angles : [])
        + (raw.count == 3 ? raw : [])
      {
        requests.append(AppTable.Request(column: c, limit: limit))
      }
      for c in [motionTime, rawTime].compactMap({ $0 }) {
        requests.append(AppTable.Request(column: c, isTime: true))
      }
      for c in [steps, cadence].compactMap({ $0 }) {
        requests.append(AppTable.Request(column: c, strict: false))
      }
      if let ends {
        requests.append(
          AppTable.Request(
            column: ends, cell: .text(expected: isoExample) { ISO8601Time.seconds($0) ?? .nan }))
      }
      return requests
    }
  }

  /// `loggingTime(txt)` (s since 1970) as seconds since its first row, and that first time.
  static func loggingClock(_ logging: [Double], table: AppTable, column: Int) throws
    -> (clock: [Double], origin: Double)
  {
    if let r = logging.firstIndex(where: { $0.isNaN }) {
      throw CSVError.emptyCell(at: table.location(row: r, column: column))
    }
    guard let origin = logging.first else { throw CSVError.noDataRows(file: table.file) }
    return (logging.map { $0 - origin }, origin)
  }

  /// A sensor's own timestamps moved onto the logging clock (the median offset between the
  /// two), or nil when the column is never set (SensorLog writes 0 or -1 then).
  static func sensorTimes(_ own: [Double], clock: [Double]) -> [Double]? {
    var offsets = own.indices.filter { own[$0].isFinite && own[$0] > 0 }.map { clock[$0] - own[$0] }
    guard offsets.count >= 2 else { return nil }
    offsets.sort()
    let offset = offsets[offsets.count / 2]
    return own.map { $0.isFinite && $0 > 0 ? $0 + offset : .nan }
  }

  /// `pedometerNumberofSteps(N)` at `pedometerEndDate(txt)` (the time the count refers to;
  /// the logging time when it is absent), one point per change of the count. Negative counts
  /// are unset; an implausible series (`PedometerReference.problem`) is left out with a note.
  static func pedometer(
    steps: [Double], cadence: [Double]?, ends: [Double]?, clock: [Double], origin: Double,
    source: String, line: (Int) -> Int, warnings: inout [String]
  ) -> PedometerReference? {
    var times: [Double] = []
    var counts: [Double] = []
    var cadences: [Double] = []
    var rows: [Int] = []
    for r in steps.indices where !steps[r].isNaN && steps[r] >= 0 {
      let t = ends.map { $0[r] }.flatMap { $0.isFinite ? $0 - origin : nil } ?? clock[r]
      if let last = counts.last, steps[r] == last { continue }
      if let lastTime = times.last, t <= lastTime { continue }
      times.append(t)
      counts.append(steps[r])
      cadences.append(cadence?[r] ?? .nan)
      rows.append(r)
    }
    // A count that never moves from 0 means the pedometer was not logged.
    guard let last = counts.last, last > 0 || counts.count > 1 else { return nil }
    if let (i, reason) = PedometerReference.problem(
      times: times, counts: counts, cadences: cadences)
    {
      warnings.append(
        "\(source) line \(line(rows[i])): \(reason); the pedometer reference is not used")
      return nil
    }
    // Hold the last count to the end of the recording, where it is still the phone's count.
    if let end = clock.last, let lastTime = times.last, end > lastTime {
      times.append(end)
      counts.append(last)
      cadences.append(cadences.last ?? .nan)
    }
    return PedometerReference(
      times: times, cumulativeSteps: counts,
      cadenceStepsPerSecond: cadence == nil ? nil : cadences,
      source: "\(source) (pedometerNumberofSteps(N) at pedometerEndDate(txt))")
  }
}

/// ISO 8601 times as SensorLog writes them (`2025-03-11T14:44:11.899-04:00`), in seconds
/// since 1970 (UTC).
enum ISO8601Time {
  static func seconds(_ text: Substring) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer { seconds($0) }
  }

  static func seconds(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
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
