import Foundation
import MotusLive
import MotusModels
import MotusStreaming
import XCTest

@testable import MotusServe

final class ServeTests: XCTestCase {
  func testAnyAddressButLoopbackNeedsAToken() throws {
    XCTAssertThrowsError(try ServeAccess(host: "0.0.0.0", token: nil)) { error in
      XCTAssertEqual(error as? ServeError, .tokenRequired(host: "0.0.0.0"))
      XCTAssertTrue("\(error)".contains("--token"))
    }
    XCTAssertThrowsError(try ServeAccess(host: "0.0.0.0", token: "short"))
    XCTAssertNil(try ServeAccess(host: "127.0.0.1", token: nil).token)
    XCTAssertNil(try ServeAccess(host: "::1", token: nil).token)
    // A name that only starts like a loopback address is a name, and may resolve anywhere.
    XCTAssertThrowsError(try ServeAccess(host: "127.0.0.1.example.com", token: nil))
    XCTAssertThrowsError(try ServeAccess(host: "127.evil.example", token: nil))
    XCTAssertNil(try ServeAccess(host: "127.1.2.3", token: nil).token)
    let access = try ServeAccess(host: "0.0.0.0", token: "a-long-token-123")
    XCTAssertTrue(access.admits(authorization: "Bearer a-long-token-123", query: nil))
    XCTAssertTrue(access.admits(authorization: nil, query: "a-long-token-123"))
    XCTAssertFalse(access.admits(authorization: nil, query: nil))
    XCTAssertFalse(access.admits(authorization: "Bearer a-long-token-124", query: nil))
    XCTAssertFalse(access.admits(authorization: nil, query: "a-long-token-12"))
    XCTAssertTrue(ServeAccess.constantTimeEqual([1, 2], [1, 2]))
    XCTAssertFalse(ServeAccess.constantTimeEqual([1, 2], [1, 2, 0]))
  }

  func testOverLoopbackTheRoutesAnswer() async throws {
    let modelPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("models/six-class.motus").path
    let model: TrainedModel = try ModelFile.read(path: modelPath)
    var limits = LiveLimits()
    limits.maxBodyBytes = 100_000
    let hub = LiveHub(model: model, configuration: StreamConfiguration(), limits: limits)
    let token = "a-long-token-123"
    let server = LiveServer(
      hub: hub, host: "127.0.0.1", port: 0, access: try ServeAccess(host: "127.0.0.1", token: token))
    let (port, task) = try await ServeTestHarness.start(server)
    defer { task.cancel() }
    let classes = model.classes
    try await LoopbackClient.offPool {
      let client = LoopbackClient(port: port)
      XCTAssertEqual(try client.get("/").status, 401)
      let page = try client.get("/?token=\(token)")
      XCTAssertEqual(page.status, 200)
      XCTAssertTrue(page.body.contains("EventSource"))
      XCTAssertFalse(page.body.contains("http://cdn"), "the page needs nothing from elsewhere")
      let auth = ["Authorization": "Bearer \(token)"]
      let bad = try client.post("/push", body: Array("[1,2".utf8), headers: auth)
      XCTAssertEqual(bad.status, 400)
      XCTAssertTrue(bad.body.contains("not JSON"), bad.body)
      let api = try client.get("/api/devices", headers: auth)
      XCTAssertEqual(api.status, 200)
      let snapshot = try JSONDecoder().decode(LiveSnapshot.self, from: Data(api.body.utf8))
      XCTAssertEqual(snapshot.classes, classes)
      XCTAssertEqual(snapshot.notes.count, 1)
      let big = try LoopbackClient(port: port).post(
        "/", body: [UInt8](repeating: 32, count: 200_000), headers: auth)
      XCTAssertEqual(big.status, 413)
    }
  }
}
