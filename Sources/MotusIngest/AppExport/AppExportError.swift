// Errors specific to phone-app exports.

/// Errors specific to phone-app exports. Cell-level problems are `CSVError`s with a location.
public struct AppExportError: Error, Equatable, CustomStringConvertible {
  public var path: String
  public var message: String
  public var hint: String

  public init(path: String, message: String, hint: String) {
    self.path = path
    self.message = message
    self.hint = hint
  }

  public var description: String { "\(path): \(message) HINT: \(hint)" }
}
