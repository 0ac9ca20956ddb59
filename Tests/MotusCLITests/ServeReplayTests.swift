// Real Sensor Logger recordings (../shared/datasets/app-exports) replayed as the app's HTTP
// Push would send them, to a server on a free loopback port: what it predicts per device is
// what `motus stream --steps` prints for the samples it recorded, byte for byte, and agrees
// with `motus stream --steps` on the export folder itself within the tolerance named below.

import Foundation
import MotusLive
import MotusModels
import MotusServe
import MotusStreaming
import MotusTestSupport
import XCTest

final class ServeReplayTests: XCTestCase {
  static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let model = repo.appendingPathComponent("models/six-class.motus").path
  static let exports = SharedData.root.appendingPathComponent("app-exports/sensor-logger")

  /// The recording's motion readings as Sensor Logger pushes them, one body per second of
  /// readings (the app's default batch period), messageId counting from 0.
  static func pushes(folder: URL, device: String, upTo seconds: Double = .infinity) throws -> [[UInt8]] {
    var readings: [(time: Int64, json: String)] = []
    for (file, name) in [
      ("AccelerometerUncalibrated.csv", "accelerometeruncalibrated"),
      ("TotalAcceleration.csv", "totalacceleration"), ("Accelerometer.csv", "accelerometer"),
      ("Gravity.csv", "gravity"), ("Gyroscope.csv", "gyroscope"),
    ] {
      guard let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      else { continue }
      var lines = text.split(separator: "\n")
      let header = lines.removeFirst().split(separator: ",").map(String.init)
      let (t, x, y, z) = (
        header.firstIndex(of: "time")!, header.firstIndex(of: "x")!, header.firstIndex(of: "y")!,
        header.firstIndex(of: "z")!
      )
      for line in lines {
        let cells = line.split(separator: ",", omittingEmptySubsequences: false)
        guard let time = Int64(cells[t]) else { continue }
        readings.append(
          (time, "{\"name\":\"\(name)\",\"time\":\(time),\"values\":{\"x\":\(cells[x]),\"y\":\(cells[y]),\"z\":\(cells[z])}}"))
      }
    }
    readings.sort { $0.time < $1.time }
    guard let first = readings.first?.time else { return [] }
    var bodies: [[UInt8]] = []
    var batch: [String] = []
    var batchEnd = first + 1_000_000_000
    func flush() {
      guard !batch.isEmpty else { return }
      let text = "{\"messageId\":\(bodies.count),\"sessionId\":\"replay\",\"deviceId\":\"\(device)\","
        + "\"payload\":[" + batch.joined(separator: ",") + "]}"
      bodies.append(Array(text.utf8))
      batch = []
    }
    for r in readings where Double(r.time - first) / 1e9 < seconds {
      while r.time >= batchEnd {
        flush()
        batchEnd += 1_000_000_000
      }
      batch.append(r.json)
    }
    flush()
    return bodies
  }

  /// A server recording into `record`; `unpaced` lifts the samples-per-second limit, which a
  /// replay faster than real time would otherwise (rightly) hit.
  func serve(record: URL, unpaced: Bool = false) async throws -> (LiveHub, Int, Task<Void, Never>) {
    let model: TrainedModel = try ModelFile.read(path: Self.model)
    var configuration = StreamConfiguration()
    configuration.countsSteps = true
    var limits = LiveLimits()
    if unpaced { limits.maxSamplesPerSecondPerDevice = 1e7 }
    let hub = LiveHub(
      model: model, configuration: configuration, limits: limits, recordFolder: record.path)
    let server = LiveServer(
      hub: hub, host: "127.0.0.1", port: 0, access: try ServeAccess(host: "127.0.0.1", token: nil))
    let (port, task) = try await ServeTestHarness.start(server)
    return (hub, port, task)
  }

  func testTwoPhonesPushedFasterThanRealTimeGiveWhatMotusStreamGives() async throws {
    let record = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: record) }
    let (hub, port, task) = try await serve(record: record, unpaced: true)
    defer { task.cancel() }
    let phones = [("ios", "ios-iphone13-walking"), ("android", "android-galaxy-s24-car")]
    // Both devices at once, each on its own connection, as fast as the server answers.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (device, folder) in phones {
        let bodies = try Self.pushes(folder: Self.exports.appendingPathComponent(folder), device: device)
        XCTAssertGreaterThan(bodies.count, 15)
        group.addTask {
          let statuses = try await LoopbackClient.offPool {
            let client = LoopbackClient(port: port)
            return try bodies.map { try client.post("/push", body: $0).status }
          }
          XCTAssertEqual(Set(statuses), [200])
        }
      }
      try await group.waitForAll()
    }
    let live = hub.snapshot().devices
    XCTAssertEqual(live.map(\.device), ["android", "ios"])
    XCTAssertEqual(live.map(\.platform), ["Android", "iOS"])
    hub.closeIdle(all: true)
    for (device, folder) in phones {
      try checkRecorded(record: record, device: device, export: Self.exports.appendingPathComponent(folder))
    }
  }

  func testAPhonePushedAtRealSpeedGivesWhatMotusStreamGives() async throws {
    let record = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: record) }
    let (hub, port, task) = try await serve(record: record)
    defer { task.cancel() }
    let bodies = try Self.pushes(
      folder: Self.exports.appendingPathComponent("ios-iphone13-walking"), device: "paced", upTo: 8)
    let client = LoopbackClient(port: port)
    let start = Date()
    for (k, body) in bodies.enumerated() {
      let due = start.addingTimeInterval(Double(k + 1))
      let wait = due.timeIntervalSinceNow
      if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
      let status = try await LoopbackClient.offPool { try client.post("/push", body: body).status }
      XCTAssertEqual(status, 200)
    }
    XCTAssertGreaterThan(hub.snapshot().devices.first?.predictions ?? 0, 0)
    hub.closeIdle(all: true)
    let jsonl = try String(contentsOf: record.appendingPathComponent("paced-replay.predictions.jsonl"), encoding: .utf8)
    let stream = try MotusRunner.run(["stream", Self.model, record.appendingPathComponent("paced-replay.csv").path, "--steps"])
    XCTAssertEqual(stream.exitCode, 0, stream.standardError)
    XCTAssertEqual(jsonl, stream.standardOutput)
  }

  /// The recorded predictions are `motus stream`'s on the recorded samples, byte for byte;
  /// against the export folder, the labels agree on most windows. Not all: the export reader
  /// puts the sensors on one uniform clock interpolated over the whole recording, while the
  /// live stream takes the phone's own (jittered) timestamps and resamples them as they come,
  /// so window edges and values differ slightly and borderline windows may flip.
  func checkRecorded(record: URL, device: String, export: URL) throws {
    let csv = record.appendingPathComponent("\(device)-replay.csv").path
    let jsonl = try String(contentsOfFile: record.appendingPathComponent("\(device)-replay.predictions.jsonl").path, encoding: .utf8)
    let recorded = try MotusRunner.run(["stream", Self.model, csv, "--steps"])
    XCTAssertEqual(recorded.exitCode, 0, recorded.standardError)
    XCTAssertEqual(jsonl, recorded.standardOutput, "\(device): server and motus stream differ")
    let fromExport = try MotusRunner.run(["stream", Self.model, export.path, "--steps"])
    XCTAssertEqual(fromExport.exitCode, 0, fromExport.standardError)
    let live = Self.predictions(jsonl)
    let offline = Self.predictions(fromExport.standardOutput)
    XCTAssertGreaterThan(live.count, 10)
    // The clocks start apart (the export's at the recording epoch, the live one at the first
    // reading), so windows are matched by end time once the first ones are lined up.
    let shift = offline[0].end - live[0].end
    var matched = 0, agreeing = 0
    for var p in live {
      p.end += shift
      guard let q = offline.min(by: { abs($0.end - p.end) < abs($1.end - p.end) }),
        abs(q.end - p.end) <= 0.25
      else { continue }
      matched += 1
      if q.label == p.label { agreeing += 1 }
    }
    let agreement = Double(agreeing) / Double(max(matched, 1))
    print("serve replay \(device): \(live.count) live, \(offline.count) offline predictions, "
      + "\(matched) matched, label agreement \(agreement)")
    XCTAssertGreaterThan(Double(matched), 0.8 * Double(live.count), device)
    XCTAssertGreaterThanOrEqual(agreement, 0.9, device)
  }

  static func predictions(_ text: String) -> [(end: Double, label: String)] {
    text.split(separator: "\n").compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["event"] as? String == "prediction", let end = object["end"] as? Double,
        let label = object["label"] as? String
      else { return nil }
      return (end, label)
    }
  }
}
