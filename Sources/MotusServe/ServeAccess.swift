// Who may talk to `motus serve`: on loopback anyone on this computer; on any other address
// only a client that shows the token (a bearer header or `?token=`), compared in constant time.

/// The token rule of a server.
public struct ServeAccess: Sendable {
  public let token: String?

  /// The shortest token accepted.
  public static let minimumTokenLength = 12

  /// Checks the bind: any address but loopback needs a token.
  ///
  /// - Throws: `ServeError.tokenRequired` or `.tokenTooShort`.
  public init(host: String, token: String?) throws(ServeError) {
    if let token, token.count < Self.minimumTokenLength {
      throw .tokenTooShort(length: token.count)
    }
    guard token != nil || Self.isLoopback(host) else { throw .tokenRequired(host: host) }
    self.token = token
  }

  public static func isLoopback(_ host: String) -> Bool {
    // 127.0.0.0/8 as an address, never a name that merely starts with "127.".
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    let isLoopbackAddress =
      parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    return host == "localhost" || host == "::1" || isLoopbackAddress
  }

  /// Whether a request with this `Authorization` header and `token` query value may in.
  public func admits(authorization: String?, query: String?) -> Bool {
    guard let token else { return true }
    var shown = query
    if let header = authorization, header.lowercased().hasPrefix("bearer ") {
      shown = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }
    guard let shown else { return false }
    return Self.constantTimeEqual(Array(shown.utf8), Array(token.utf8))
  }

  /// Equal bytes, in a time that depends on the lengths only, never on where they differ.
  static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for i in 0..<max(a.count, b.count) {
      let x = i < a.count ? a[i] : 0
      let y = i < b.count ? b[i] : 0
      difference |= x ^ y
    }
    return difference == 0
  }
}

/// Why `motus serve` cannot start.
public enum ServeError: Error, Equatable, CustomStringConvertible {
  case tokenRequired(host: String)
  case tokenTooShort(length: Int)
  case cannotStart(String)

  public var description: String {
    switch self {
    case .tokenRequired(let host):
      return "--host \(host) lets other computers in, and needs --token. HINT: choose a long "
        + "random token (`openssl rand -hex 16`) and put it in the app's push URL as "
        + "?token=...; or leave --host out to serve this computer only (127.0.0.1)."
    case .tokenTooShort(let length):
      return "--token has \(length) characters; at least \(ServeAccess.minimumTokenLength) are "
        + "needed. HINT: `openssl rand -hex 16` makes one."
    case .cannotStart(let reason):
      return "the server could not start: \(reason)"
    }
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
    String(drop(while: set.contains).reversed().drop(while: set.contains).reversed())
  }
}

extension Set<Character> {
  fileprivate static var whitespaces: Set<Character> { [" ", "\t"] }
}
