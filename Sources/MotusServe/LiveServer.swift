// `motus serve` over HTTP (Hummingbird): POST /push and POST / take Sensor Logger's HTTP Push,
// POST /samples takes CSV rows, GET / is the page, GET /events its live updates (server-sent
// events), GET /api/devices the same state as JSON. Every route but none answers 401 without
// the token when one is set.

import Foundation
import Hummingbird
import Logging
import MotusLive

/// A running or runnable server of one `LiveHub`.
public struct LiveServer: Sendable {
  public let hub: LiveHub
  public let host: String
  public let port: Int
  public let access: ServeAccess
  /// How often the page's event stream looks for changes, in seconds.
  public var updateInterval = 0.25

  public init(hub: LiveHub, host: String, port: Int, access: ServeAccess) {
    (self.hub, self.host, self.port, self.access) = (hub, host, port, access)
  }

  /// Serves until cancelled (or, with `handlesSignals`, until SIGINT or SIGTERM); every stream
  /// is closed on the way out. `onRunning` is given the bound port (useful with port 0).
  public func run(
    handlesSignals: Bool = false, onRunning: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws {
    let app = Application(
      router: router(),
      configuration: .init(address: .hostname(host, port: port), serverName: "motus"),
      onServerRunning: { channel in onRunning(channel.localAddress?.port ?? 0) },
      logger: Self.quietLogger())
    let hub = self.hub
    let sweeper = Task {
      while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: 1_000_000_000)
        hub.closeIdle()
      }
    }
    defer {
      sweeper.cancel()
      hub.closeIdle(all: true)
    }
    if handlesSignals { try await app.runService() } else { try await app.run() }
  }

  private static func quietLogger() -> Logger {
    var logger = Logger(label: "motus-serve")
    logger.logLevel = .critical  // cancelled connections are logged as errors
    return logger
  }

  func router() -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: TokenMiddleware(access: access))
    let hub = self.hub
    let maxBody = hub.limits.maxBodyBytes
    router.get("/") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(string: LivePage.page(snapshot: Self.json(hub.snapshot())))))
    }
    for path in ["/", "/push"] {
      router.post(RouterPath(path)) { request, _ in
        let arrival = DispatchTime.now().uptimeNanoseconds
        guard let body = try await Self.body(request, upTo: maxBody) else {
          return Self.tooLarge(maxBody)
        }
        let platform = request.uri.queryParameters["platform"].map(String.init)
        return Self.response(hub.push(body, platform: platform, arrival: arrival))
      }
    }
    router.post("/samples") { request, _ in
      let arrival = DispatchTime.now().uptimeNanoseconds
      guard let body = try await Self.body(request, upTo: maxBody) else {
        return Self.tooLarge(maxBody)
      }
      let device = request.uri.queryParameters["device"].map(String.init) ?? "csv"
      return Self.response(hub.samples(body, device: device, arrival: arrival))
    }
    router.get("/api/devices") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(bytes: Self.json(hub.snapshot()))))
    }
    let interval = UInt64(updateInterval * 1e9)
    router.get("/events") { _, _ in Self.events(hub, every: interval) }
    return router
  }

  /// The snapshot whenever it changed (checked every `interval` ns), a comment every 15 s.
  static func events(_ hub: LiveHub, every interval: UInt64) -> Response {
    Response(
      status: .ok,
      headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
      body: ResponseBody { writer in
        var sent: UInt64 = .max
        var quiet: UInt64 = 0
        while !Task.isCancelled {
          let version = hub.version
          if version != sent {
            sent = version
            quiet = 0
            var event = ByteBuffer(string: "data: ")
            event.writeBytes(json(hub.snapshot()))
            event.writeString("\n\n")
            try await writer.write(event)
          } else if quiet * interval > 15_000_000_000 {
            quiet = 0
            try await writer.write(ByteBuffer(string: ": still here\n\n"))
          }
          quiet += 1
          try await Task.sleep(nanoseconds: interval)
        }
        try await writer.finish(nil)
      })
  }

  /// The body's bytes; nil when it is over `limit`.
  static func body(_ request: Request, upTo limit: Int) async throws -> [UInt8]? {
    do {
      let buffer = try await request.body.collect(upTo: limit)
      return Array(buffer.readableBytesView)
    } catch let error as HTTPError where error.status == .contentTooLarge {
      return nil
    }
  }

  static func tooLarge(_ limit: Int) -> Response {
    response(
      .init(
        status: 413,
        json: "{\"ok\":false,\"error\":\"the body is over \(limit) bytes, the limit; not read.\","
          + "\"hint\":\"send shorter batches (Sensor Logger: a shorter batch period).\"}"))
  }

  static func response(_ reply: LiveHub.Reply) -> Response {
    Response(
      status: .init(code: reply.status), headers: [.contentType: "application/json"],
      body: .init(byteBuffer: ByteBuffer(string: reply.json + "\n")))
  }

  static func json(_ snapshot: LiveSnapshot) -> [UInt8] {
    do {
      return Array(try JSONEncoder.sortedKeys(prettyPrinted: false).encode(snapshot))
    } catch {
      // Names, numbers and strings only: say so rather than send an empty object.
      return Array("{\"error\":\"the state could not be encoded\"}".utf8)
    }
  }
}

/// 401 for a request without the token (when the server has one).
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
  let access: ServeAccess

  func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let query = request.uri.queryParameters["token"].map(String.init)
    guard access.admits(authorization: request.headers[.authorization], query: query) else {
      return Response(
        status: .unauthorized,
        headers: [.contentType: "application/json", .wwwAuthenticate: "Bearer"],
        body: .init(
          byteBuffer: ByteBuffer(
            string: "{\"ok\":false,\"error\":\"this server needs its token.\",\"hint\":\"add "
              + "?token=... to the URL (in Sensor Logger: to the push URL), or send "
              + "Authorization: Bearer ...\"}\n")))
    }
    return try await next(request, context)
  }
}
