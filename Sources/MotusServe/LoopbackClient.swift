// A small blocking HTTP/1.1 client for one kept-alive connection to 127.0.0.1: what the load
// test and the tests push with. Reads responses with a Content-Length only (the server's
// answers all have one; the event stream is not read with it).

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thread at a time: `@unchecked Sendable` so a connection can move to the thread using it.
public final class LoopbackClient: @unchecked Sendable {
  public struct Answer: Sendable {
    public var status: Int
    public var body: String
  }

  public enum Failure: Error, CustomStringConvertible {
    case connect(Int32), closed, malformed(String)
    public var description: String {
      switch self {
      case .connect(let code): return "cannot connect to 127.0.0.1 (\(String(cString: strerror(code))))"
      case .closed: return "the server closed the connection"
      case .malformed(let text): return "unreadable answer: \(text)"
      }
    }
  }

  public let port: Int
  private var socket: Int32 = -1
  private var pending: [UInt8] = []

  public init(port: Int) { self.port = port }
  deinit { disconnect() }

  public func post(_ path: String, body: [UInt8], headers: [String: String] = [:]) throws -> Answer {
    try request("POST", path, body: body, headers: headers)
  }

  public func get(_ path: String, headers: [String: String] = [:]) throws -> Answer {
    try request("GET", path, body: [], headers: headers)
  }

  public func request(
    _ method: String, _ path: String, body: [UInt8], headers: [String: String]
  ) throws -> Answer {
    if socket < 0 { try connect() }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    head += "Content-Length: \(body.count)\r\nContent-Type: application/json\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    do {
      try send(Array((head + "\r\n").utf8) + body)
      return try readAnswer()
    } catch {
      disconnect()
      throw error
    }
  }

  public func disconnect() {
    if socket >= 0 { _ = close(socket) }
    socket = -1
    pending = []
  }

  private func connect() throws {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure.connect(errno) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let code = errno
      _ = close(fd)
      throw Failure.connect(code)
    }
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    socket = fd
  }

  private func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw Failure.closed }
      offset += n
    }
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    if n < 0 && errno == EINTR { return }
    guard n > 0 else { throw Failure.closed }
    pending += chunk[0..<n]
  }

  private func readAnswer() throws -> Answer {
    let end: Int = try {
      while true {
        if let at = find([13, 10, 13, 10]) { return at }
        try fill()
      }
    }()
    let head = String(decoding: pending[0..<end], as: UTF8.self)
    let lines = head.components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else { throw Failure.malformed(lines[0]) }
    var length = 0
    for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
      length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
    }
    let start = end + 4
    while pending.count < start + length { try fill() }
    let body = String(decoding: pending[start..<(start + length)], as: UTF8.self)
    pending.removeFirst(start + length)
    return Answer(status: status, body: body)
  }

  private func find(_ needle: [UInt8]) -> Int? {
    guard pending.count >= needle.count else { return nil }
    for i in 0...(pending.count - needle.count) where pending[i] == needle[0] {
      if Array(pending[i..<(i + needle.count)]) == needle { return i }
    }
    return nil
  }
}

extension LoopbackClient {
  /// Runs blocking client work on a thread of its own, never on Swift's cooperative pool
  /// (which the server's connections need: a blocked pool thread would stall them).
  public static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result { try body() })
      }
    }
  }
}
