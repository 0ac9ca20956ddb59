// A CLI-level failure: printed as is (it already carries its hint) and exits non-zero.

/// An error the command line reports in its own words (bad combination of inputs, output
/// that cannot be written). Library errors are printed through their own descriptions.
struct ToolError: Error, CustomStringConvertible {
  var message: String
  var hint: String?

  init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }

  var description: String {
    guard let hint else { return message }
    return "\(message) HINT: \(hint)"
  }
}
