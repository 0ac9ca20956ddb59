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

  func testRecordingNamesAreSafeFileNames() {
    XCTAssertEqual(LiveRecorder.fileName("../etc/passwd"), "_.._etc_passwd")
    XCTAssertEqual(LiveRecorder.fileName("pixel-7_a"), "pixel-7_a")
  }
}
