import Foundation
import MotusModels
import MotusStreaming
import MotusTestSupport
import XCTest

@testable import MotusLive

final class LiveHubTests: XCTestCase {
  static let model: TrainedModel = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("models/six-class.motus").path
    return try! ModelFile.read(path: path)
  }()

  func hub(_ change: (inout LiveLimits) -> Void = { _ in }) -> LiveHub {
    var limits = LiveLimits()
    change(&limits)
    var configuration = StreamConfiguration()
    configuration.countsSteps = true
    return LiveHub(model: Self.model, configuration: configuration, limits: limits)
  }

  /// A push of `count` Android total-acceleration readings at 100 Hz from `first` ns.
  func push(
    device: String = "phone", session: String = "s", id: Int, first: Int64 = 1_000_000_000,
    count: Int = 100, sensor: String = "totalacceleration"
  ) -> [UInt8] {
    let readings = (0..<count).map { k in
      "{\"name\":\"\(sensor)\",\"time\":\(first + Int64(k) * 10_000_000),"
        + "\"values\":{\"x\":0.1,\"y\":\(9.8 + sin(Double(k) / 5)),\"z\":0.2}}"
    }
    return Array(
      ("{\"messageId\":\(id),\"sessionId\":\"\(session)\",\"deviceId\":\"\(device)\","
        + "\"payload\":[" + readings.joined(separator: ",") + "]}").utf8)
  }

  func testParsesAPushAndCountsOtherSensors() throws {
    let body = Array(
      """
      {"messageId":3,"sessionId":"a","deviceId":"b","payload":[
      {"name":"accelerometer","time":1698501144401773000,"values":{"x":1,"y":2,"z":3}},
      {"name":"location","time":1698501145514000000,"values":{"latitude":1}}]}
      """.utf8)
    let push = try SensorLoggerPush.parse(body)
    XCTAssertEqual(push.messageId, 3)
    XCTAssertEqual(push.readings, [.init(sensor: "accelerometer", timeNanos: 1698501144401773000, x: 1, y: 2, z: 3)])
    XCTAssertEqual(push.otherReadings, 1)
  }

  func testBadBodiesAreRefusedWithTheirPlace() {
    func reason(_ text: String) -> String {
      do {
        _ = try SensorLoggerPush.parse(Array(text.utf8))
        return "parsed"
      } catch { return error.reason }
    }
    XCTAssertTrue(reason("not json").contains("not JSON"), reason("not json"))
    XCTAssertTrue(reason("{\"messageId\":1,\"sessionId\":\"a\",\"payload\":[]}").contains("deviceId is missing"))
    let noZ = "{\"messageId\":1,\"sessionId\":\"a\",\"deviceId\":\"b\",\"payload\":[{\"name\":\"gravity\",\"time\":5,\"values\":{\"x\":1,\"y\":2}}]}"
    XCTAssertTrue(reason(noZ).contains("payload[0] (gravity)"), reason(noZ))
    let badTime = "{\"messageId\":1,\"sessionId\":\"a\",\"deviceId\":\"b\",\"payload\":[{\"name\":\"gravity\",\"time\":\"x\",\"values\":{}}]}"
    XCTAssertTrue(reason(badTime).contains("payload[0].time"), reason(badTime))
  }

  func testDuplicateBackwardsAndMissingSensorsAreRefusedWithoutHarmingOthers() throws {
    let hub = hub()
    XCTAssertEqual(hub.push(push(id: 1)).status, 200)
    let duplicate = hub.push(push(id: 1, first: 2_000_000_000))
    XCTAssertEqual(duplicate.status, 409)
    XCTAssertTrue(duplicate.json.contains("messageId 1 after 1"), duplicate.json)
    let backwards = hub.push(push(id: 2, first: 1_500_000_000))
    XCTAssertEqual(backwards.status, 422)
    XCTAssertTrue(backwards.json.contains("went backwards"), backwards.json)
    let gyroOnly = hub.push(push(device: "other", id: 1, sensor: "gyroscope"))
    XCTAssertEqual(gyroOnly.status, 422)
    XCTAssertTrue(gyroOnly.json.contains("acceleration"), gyroOnly.json)
    XCTAssertEqual(hub.push(Array("{".utf8)).status, 400)
    // The first device goes on where it was; another device streams meanwhile.
    for id in 3...8 {
      XCTAssertEqual(hub.push(push(id: id, first: Int64(id) * 1_000_000_000)).status, 200)
      XCTAssertEqual(hub.push(push(device: "third", id: id, first: Int64(id) * 1_000_000_000)).status, 200)
    }
    let snapshot = hub.snapshot()
    let phone = try XCTUnwrap(snapshot.devices.first { $0.device == "phone" })
    XCTAssertGreaterThan(phone.predictions, 0)
    XCTAssertEqual(phone.notes.map(\.status), [409, 422])
    XCTAssertEqual(snapshot.devices.map(\.device), ["phone", "third"])
    XCTAssertEqual(snapshot.notes.count, 2)  // the gyroscope-only device and the broken body
  }

  func testLimitsOfLoadAnswer429AndIdleSessionsClose() {
    let hub = hub {
      $0.maxDevices = 1
      $0.maxSamplesPerSecondPerDevice = 100
      $0.burstSeconds = 1.5
    }
    XCTAssertEqual(hub.push(push(id: 1)).status, 200)
    XCTAssertEqual(hub.push(push(device: "second", id: 1)).status, 429)
    XCTAssertEqual(hub.push(push(id: 2, first: 2_000_000_000)).status, 429)  // 200 in < 1 s
    XCTAssertEqual(hub.counts.refusedForLoad, 2)
    hub.closeIdle(now: Date().timeIntervalSince1970 + 3600)
    XCTAssertEqual(hub.openStreams, 0)
    XCTAssertEqual(hub.snapshot().closed.map(\.device), ["phone"])
  }

  func testCSVBodiesAreStreamsPerSession() {
    let hub = hub()
    var csv = "timestamp,session,acceleration.x,acceleration.y,acceleration.z\n"
    for k in 0..<600 {
      csv += "\(Double(k) / 50),\(k % 2 == 0 ? "a" : "b"),0,\(-1 + 0.3 * sin(Double(k) / 4)),0\n"
    }
    let reply = hub.samples(Array(csv.utf8), device: "lab")
    XCTAssertEqual(reply.status, 200, reply.json)
    XCTAssertEqual(hub.snapshot().devices.map(\.session), ["a", "b"])
    let again = hub.samples(Array(csv.utf8), device: "lab")
    XCTAssertEqual(again.status, 422)
    XCTAssertTrue(again.json.contains("went backwards"), again.json)
    let badCell = hub.samples(Array("timestamp,acceleration.x,acceleration.y,acceleration.z\n1,x,0,0\n".utf8), device: "lab2")
    XCTAssertEqual(badCell.status, 422)
    XCTAssertTrue(badCell.json.contains(":2:2 ('acceleration.x')"), badCell.json)
  }

  func testRecordingNamesAreSafeAndNeverShared() {
    XCTAssertEqual(LiveRecorder.fileName(device: "pixel7", session: "a_b-1.2"), "pixel7-a_b-1.2")
    // A `-` in the device would leave the split ambiguous: "a-b" + "c" against "a" + "b-c".
    let dashed = LiveRecorder.fileName(device: "a-b", session: "c")
    XCTAssertTrue(dashed.hasPrefix("a-b-c~"), dashed)
    XCTAssertEqual(LiveRecorder.fileName(device: "a", session: "b-c"), "a-b-c")
    XCTAssertNotEqual(dashed, LiveRecorder.fileName(device: "a-b-c", session: ""))
    let dotted = LiveRecorder.fileName(device: "..", session: "/etc/passwd")
    XCTAssertTrue(dotted.hasPrefix("_..-_etc_passwd~"), dotted)
    XCTAssertFalse(dotted.contains("/"))
    // Names that sanitise alike, or cut alike at 120 characters, still differ.
    let slash = LiveRecorder.fileName(device: "a", session: "b/c")
    XCTAssertTrue(slash.hasPrefix("a-b_c~"), slash)
    XCTAssertNotEqual(slash, LiveRecorder.fileName(device: "a", session: "b_c"))
    XCTAssertNotEqual(slash, LiveRecorder.fileName(device: "a", session: "b c"))
    XCTAssertNotEqual(slash, LiveRecorder.fileName(device: "a/b", session: "c"))
    let long = String(repeating: "x", count: 200)
    let cut = LiveRecorder.fileName(device: "d", session: long + "1")
    XCTAssertNotEqual(cut, LiveRecorder.fileName(device: "d", session: long + "2"))
    XCTAssertEqual(cut.count, 120 + 1 + 16)
    XCTAssertEqual(cut, LiveRecorder.fileName(device: "d", session: long + "1"))  // stable
  }

  func testSessionsWhoseNamesSanitiseAlikeRecordToTheirOwnFiles() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let hub = LiveHub(
      model: Self.model, configuration: StreamConfiguration(), recordFolder: folder.path)
    for session in ["a/b", "a_b"] {
      for id in 1...2 {
        let reply = hub.push(push(session: session, id: id, first: Int64(id) * 1_000_000_000))
        XCTAssertEqual(reply.status, 200, reply.json)
      }
    }
    hub.closeIdle(all: true)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".csv") }.sorted()
    XCTAssertEqual(names.count, 2, "\(names)")
    XCTAssertTrue(names.contains("phone-a_b.csv"), "\(names)")
    for name in names {
      let text = try String(contentsOfFile: folder.appendingPathComponent(name).path, encoding: .utf8)
      let lines = text.split(separator: "\n")
      XCTAssertEqual(lines.filter { $0.hasPrefix("timestamp,") }.count, 1, name)
      XCTAssertEqual(Set(lines.dropFirst().map { $0.split(separator: ",")[1] }).count, 1, name)
    }
  }

  func testBodiesOfANewSessionRacingWriteItsHeaderOnce() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let hub = LiveHub(
      model: Self.model, configuration: StreamConfiguration(), recordFolder: folder.path)
    for round in 0..<100 {
      // Every body makes the session's stream and recorder; one of them is kept.
      _ = pushAtOnce(
        (1...8).map { push(session: "r\(round)", id: $0, first: Int64($0) * 1_000_000_000) },
        to: hub)
      hub.closeIdle(all: true)  // within the sessions-per-device limit
    }
    for round in 0..<100 {
      let path = folder.appendingPathComponent("phone-r\(round).csv").path
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let headers = text.split(separator: "\n").filter { $0.hasPrefix("timestamp,") }
      XCTAssertEqual(headers.count, 1, "round \(round)")
    }
  }

  func testASymbolicLinkInTheRecordFolderIsRefused() throws {
    let folder = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("elsewhere.txt")
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("phone-s.csv").path, withDestinationPath: target.path)
    let hub = LiveHub(
      model: Self.model, configuration: StreamConfiguration(), recordFolder: folder.path)
    let reply = hub.push(push(id: 1))
    XCTAssertEqual(reply.status, 500)
    XCTAssertTrue(reply.json.contains("phone-s.csv: it is a symbolic link"), reply.json)
    XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
    XCTAssertEqual(hub.openStreams, 0)
  }

  /// Bodies of `count` new devices (or sessions) pushed at once, from threads released together.
  func pushAtOnce(_ bodies: [[UInt8]], to hub: LiveHub) -> [Int] {
    let statuses = StatusBox(count: bodies.count)
    let gate = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for (k, body) in bodies.enumerated() {
      done.enter()
      Thread.detachNewThread {
        gate.wait()
        statuses.set(k, hub.push(body).status)
        done.leave()
      }
    }
    for _ in bodies { gate.signal() }
    done.wait()
    return statuses.all
  }

  func testNewDevicesRacingCannotPassTheLimits() {
    for _ in 0..<5 {
      let hub = hub {
        $0.maxDevices = 3
        $0.maxSessionsPerDevice = 2
      }
      let devices = pushAtOnce((0..<32).map { push(device: "d\($0)", id: 1) }, to: hub)
      XCTAssertEqual(devices.filter { $0 == 200 }.count, 3, "\(devices)")
      XCTAssertEqual(devices.filter { $0 == 429 }.count, 29)
      XCTAssertEqual(hub.openStreams, 3)
      let sessions = pushAtOnce((0..<32).map { push(device: "d-new", session: "s\($0)", id: 1) }, to: hub)
      XCTAssertEqual(sessions.filter { $0 == 200 }.count, 0, "\(sessions)")  // a fourth device
      hub.closeIdle(all: true)
      let again = pushAtOnce((0..<32).map { push(device: "d0", session: "s\($0)", id: 1) }, to: hub)
      XCTAssertEqual(again.filter { $0 == 200 }.count, 2, "\(again)")
      XCTAssertEqual(hub.openStreams, 2)
      XCTAssertEqual(hub.storeSizes.making, 0)
    }
  }

  func testStoresReturnToTheirBoundsAfterRoundsOfDevicesLeaving() throws {
    // Synthetic devices, new names every round (as a client inventing names would send),
    // each with a refused body on its stream; devices refused before they get a stream; CSV.
    let hub = hub { $0.maxDevices = 64 }
    let devicesPerRound = 30
    for round in 1...4 {
      for d in 0..<devicesPerRound {
        let device = "r\(round)-d\(d)"
        XCTAssertEqual(hub.push(push(device: device, id: 1)).status, 200)
        XCTAssertEqual(hub.push(push(device: device, id: 2, first: 2_000_000_000)).status, 200)
        XCTAssertEqual(hub.push(push(device: device, id: 2, first: 3_000_000_000)).status, 409)
      }
      for d in 0..<8 {
        let gyroscopeOnly = push(device: "g\(round)-\(d)", id: 1, sensor: "gyroscope")
        XCTAssertEqual(hub.push(gyroscopeOnly).status, 422)
      }
      let csv = "timestamp,acceleration.x,acceleration.y,acceleration.z\n0,0,-1,0\n0.02,0,-1,0\n"
      XCTAssertEqual(hub.samples(Array(csv.utf8), device: "csv-\(round)").status, 200)
      XCTAssertGreaterThan(hub.storeSizes.allowances, devicesPerRound)
      hub.closeIdle(now: Date().timeIntervalSince1970 + 3600)
      let sizes = hub.storeSizes
      XCTAssertEqual(sizes.streams, 0)
      XCTAssertEqual(sizes.making, 0)
      XCTAssertEqual(sizes.allowances, 0)
      XCTAssertEqual(sizes.closed, min(LiveHub.maxClosed, round * (devicesPerRound + 1)))
      XCTAssertEqual(sizes.notes, min(LiveHub.maxNotes, round * 8))
      let snapshot = hub.snapshot()
      XCTAssertTrue(snapshot.devices.isEmpty)
      for summary in snapshot.closed {
        XCTAssertTrue(summary.timeline.isEmpty)
        XCTAssertLessThanOrEqual(summary.segments.count, LiveState.maxSegments)
        XCTAssertLessThanOrEqual(summary.notes.count, LiveState.maxNotes)
      }
    }
    XCTAssertEqual(hub.storeSizes.closed, LiveHub.maxClosed)
    XCTAssertEqual(hub.storeSizes.notes, LiveHub.maxNotes)
  }
}

private final class StatusBox: @unchecked Sendable {
  private let lock = NSLock()
  private var statuses: [Int]
  init(count: Int) { statuses = Array(repeating: 0, count: count) }
  func set(_ k: Int, _ status: Int) { lock.withLock { statuses[k] = status } }
  var all: [Int] { lock.withLock { statuses } }
}
