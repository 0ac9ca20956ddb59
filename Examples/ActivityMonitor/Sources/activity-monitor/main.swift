// Replays a recording through `ActivityMonitor`, as Core Motion would deliver it in an app.
//
//     activity-monitor MODEL.motus RECORDING.csv [LABELLED-MINUTES.csv]
//
// With labelled minutes (a `label` column naming the model's classes), the model is first
// adapted to them on the device (`Personalisation`), then the recording is replayed through it.
// The CSV has a header naming `timestamp` and Core Motion's fields (`userAcceleration.x`,
// `gravity.x`, `rotationRate.x`, `attitude.roll`, ...); a recording from a bare accelerometer
// (`acceleration.x/y/z` only, like `CMAccelerometerData`) is fed as gravity plus zero user
// acceleration, the same raw acceleration. A `label` column, when present, is printed beside
// each change. Time going backwards starts a new recording (files holding several sessions).
import ActivityMonitorKit
import Foundation
import MotusModels

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

/// A recording's samples as Core Motion would deliver them, each with its label (if any).
func samples(csvPath: String) throws -> [(motion: DeviceMotion, label: String?)] {
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
  return try lines.enumerated().map { index, line in
    let fields = line.split(separator: ",", omittingEmptySubsequences: false)
    guard fields.count == names.count else {
      throw ReplayError(
        description: "\(csvPath): line \(index + 2): \(fields.count) fields, the header has \(names.count)")
    }
    let a = attitude.map { $0.flatMap { Double(fields[$0]) } ?? 0 }
    let motion = DeviceMotion(
      timestamp: Double(fields[timeColumn]) ?? .nan,
      userAcceleration: hasDeviceMotion ? vector(fields, user) : .init(x: 0, y: 0, z: 0),
      gravity: vector(fields, gravity), rotationRate: vector(fields, rotation),
      attitude: .init(roll: a[0], pitch: a[1], yaw: a[2]))
    return (motion, labelColumn.map { String(fields[$0]) })
  }
}

/// The recordings in `rows`: each up to the first step back in time.
func recordings(_ rows: [(motion: DeviceMotion, label: String?)]) -> [Range<Int>] {
  var ranges: [Range<Int>] = []
  var start = 0
  while start < rows.count {
    var end = start + 1
    while end < rows.count, rows[end].motion.timestamp > rows[end - 1].motion.timestamp { end += 1 }
    ranges.append(start..<end)
    start = end
  }
  return ranges
}

/// The model adapted on the labelled minutes in `csvPath` (labels are the model's classes).
func personalised(modelPath: String, csvPath: String) throws -> TrainedModel {
  let rows = try samples(csvPath: csvPath)
  let model = try ModelFile.read(path: modelPath)
  let rate = try sampleRate(of: rows.prefix(64).map(\.motion.timestamp))
  var minutes = try Personalisation(model: model, sampleRateHz: rate)
  for row in rows {
    guard let label = row.label else {
      throw ReplayError(description: "\(csvPath): line 1: no `label` column to adapt on")
    }
    minutes.receive(row.motion, label: label)
  }
  let clock = ContinuousClock()
  let started = clock.now
  let adapted = try minutes.adaptedModel()
  let windows = adapted.metadata.adaptation?.windowsPerClass ?? [:]
  print(
    "adapted on \(windows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) "
      + "windows in \(String(format: "%.2f", (clock.now - started) / .seconds(1))) s")
  return adapted
}

func replay(model: TrainedModel, csvPath: String) throws {
  let rows = try samples(csvPath: csvPath)
  for range in recordings(rows) {
    let rate = try sampleRate(of: rows[range].prefix(64).map(\.motion.timestamp))
    let monitor = try ActivityMonitor(model: model, sampleRateHz: rate)
    print("recording from line \(range.lowerBound + 2): \(range.count) samples at \(String(format: "%.1f", rate)) Hz")
    var label: String?
    for row in rows[range] {
      label = row.label
      monitor.receive(row.motion) { print(describe($0, label: label)) }
    }
    monitor.finish { print(describe($0, label: label)) }
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4 else {
  FileHandle.standardError.write(
    Data("usage: activity-monitor MODEL.motus RECORDING.csv [LABELLED-MINUTES.csv]\n".utf8))
  exit(2)
}
do {
  let model =
    arguments.count == 4
    ? try personalised(modelPath: arguments[1], csvPath: arguments[3])
    : try ModelFile.read(path: arguments[1])
  try replay(model: model, csvPath: arguments[2])
} catch {
  FileHandle.standardError.write(Data("error: \(error)\n".utf8))
  exit(1)
}
