// Why a pushed body was refused: an HTTP status and a reason a person can act on. The server
// answers with it; the page lists the latest per device.

/// A refused body: `status` is the HTTP status (4xx), `reason` says what was wrong and where.
public struct LiveInputError: Error, Sendable, Equatable, CustomStringConvertible {
  public var status: Int
  public var reason: String
  public var hint: String?

  public init(status: Int = 400, _ reason: String, hint: String? = nil) {
    self.status = status
    self.reason = reason
    self.hint = hint
  }

  public var description: String { hint.map { "\(reason) HINT: \($0)" } ?? reason }
}
