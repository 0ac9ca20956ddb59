// Replays a recording through `ActivityMonitor`, as Core Motion would deliver it in an app.
//
//     activity-monitor MODEL.motus RECORDING.csv
//
// The CSV has a header naming `timestamp` and Core Motion's fields (`userAcceleration.x`,
// `gravity.x`, `rotationRate.x`, `attitude.roll`, ...); a recording from a bare accelerometer
// (`acceleration.x/y/z` only, like `CMAccelerometerData`) is fed as gravity plus zero user
// acceleration, the same raw acceleration. A `label` column, when present, is printed beside
// each change. Time going backwards starts a new recording (files holding several sessions).
import ActivityMonitorKit
import Foundation

struct ReplayError: Error, CustomStringConvertible {
  let description: String
}

func column(_ names: [String], _ name: String) -> Int? { names.firstIndex(of: name) }

func vector(_ fields: [Substring], _ columns: [Int?]) -> DeviceMotion.Vector {
  func value(_ index: Int?) -> Double { index.flatMap { Double(fields[$0]) } ?? 0 }
  return .init(x: value(columns[0]), y: value(columns[1]), z: value(columns[2]))
}

/// The median step of the first timestamps: the rate the app would have asked for.
func sampleRate(of times: [Double]) throws -> Double {
  let steps = zip(times.dropFirst(), times).map { $0 - $1 }.filter { $0 > 0 }.sorted()
  guard !steps.isEmpty else { throw ReplayError(description: "fewer than two increasing timestamps") }
  return 1 / steps[steps.count / 2]
}

func describe(_ update: ActivityUpdate, label: String?) -> String {
  let said = label.map { "   (recording's label: \($0))" } ?? ""
  switch update {
  case .activityChanged(let activity, let confidence, let time):
    let time = String(format: "%8.2f s", time)
    return "\(time)  \(activity ?? "unknown") (\(confidence.rawValue) confidence)\(said)"
  case .pushUp(let count, let time):
    return "\(String(format: "%8.2f s", time))  push-up \(count)"
  case .pushUpsEnded(let count, let start, let end):
    return String(format: "%8.2f s  %d push-ups from %.2f s", end, count, start)
  }
}

func replay(modelPath: String, csvPath: String) throws {
  guard let text = try? String(contentsOfFile: csvPath, encoding: .utf8) else {
    throw ReplayError(description: "\(csvPath): cannot read the file as UTF-8 text")
  }
  var lines = text.split(whereSeparator: \.isNewline)
  guard !lines.isEmpty else { throw ReplayError(description: "\(csvPath): empty file") }
  let names = lines.removeFirst().split(separator: ",").map(String.init)
  guard let timeColumn = column(names, "timestamp") else {
    throw ReplayError(description: "\(csvPath): line 1: no `timestamp` column")
  }
  let axes = ["x", "y", "z"]
  let user = axes.map { column(names, "userAcceleration.\($0)") }
  let rawAcceleration = axes.map { column(names, "acceleration.\($0)") }
  let hasDeviceMotion = user.allSatisfy { $0 != nil }
  let gravity = hasDeviceMotion ? axes.map { column(names, "gravity.\($0)") } : rawAcceleration
  guard gravity.allSatisfy({ $0 != nil }) else {
    throw ReplayError(
      description: "\(csvPath): line 1: needs userAcceleration.* and gravity.*, or acceleration.*")
  }
  let rotation = axes.map { column(names, "rotationRate.\($0)") }
  let attitude = ["roll", "pitch", "yaw"].map { column(names, "attitude.\($0)") }
  let labelColumn = column(names, "label")

  let rows = lines.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
  for (index, fields) in rows.enumerated() where fields.count != names.count {
    throw ReplayError(
      description: "\(csvPath): line \(index + 2): \(fields.count) fields, the header has \(names.count)")
  }
  let times = rows.map { Double($0[timeColumn]) ?? .nan }
  let modelURL = URL(fileURLWithPath: modelPath)
  var start = 0
  while start < rows.count {
    // One recording: up to the first step back in time.
    var end = start + 1
    while end < rows.count, times[end] > times[end - 1] { end += 1 }
    let rate = try sampleRate(of: Array(times[start..<min(end, start + 64)]))
    let monitor = try ActivityMonitor(model: modelURL, sampleRateHz: rate)
    print("recording from line \(start + 2): \(end - start) samples at \(String(format: "%.1f", rate)) Hz")
    var label: String?
    for row in start..<end {
      let fields = rows[row]
      label = labelColumn.map { String(fields[$0]) }
      let a = attitude.map { $0.flatMap { Double(fields[$0]) } ?? 0 }
      let motion = DeviceMotion(
        timestamp: times[row],
        userAcceleration: hasDeviceMotion ? vector(fields, user) : .init(x: 0, y: 0, z: 0),
        gravity: vector(fields, gravity), rotationRate: vector(fields, rotation),
        attitude: .init(roll: a[0], pitch: a[1], yaw: a[2]))
      monitor.receive(motion) { print(describe($0, label: label)) }
    }
    monitor.finish { print(describe($0, label: label)) }
    start = end
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: activity-monitor MODEL.motus RECORDING.csv\n".utf8))
  exit(2)
}
do {
  try replay(modelPath: arguments[1], csvPath: arguments[2])
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
