// Text from a user's file as messages and reports show it: control characters escaped, so an
// escape sequence never reaches the terminal as one; in error messages also cut to a few dozen
// characters, so a cell of 50 MB is not quoted whole.

/// Bounded, printable quotes of input text.
public enum Excerpt {
  /// Characters of one quoted cell or name.
  public static let characterLimit = 40
  /// Names listed before "and N more".
  public static let listLimit = 16

  /// `text` cut to `limit` characters (`…` and how many more follow), with control
  /// characters, bidirectional overrides and U+FFFD (an invalid UTF-8 byte) escaped.
  ///
  ///     Excerpt.text("red\u{1B}[31m")   // red\x1B[31m
  public static func text(_ text: String, limit: Int = characterLimit) -> String {
    var out = ""
    var count = 0
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if count == limit {
        var rest = 1
        while scalars.next() != nil { rest += 1 }
        return out + "… (\(rest) more characters)"
      }
      out += escape(scalar) ?? String(scalar)
      count += 1
    }
    return out
  }

  /// `text` whole, with control characters, bidirectional overrides and U+FFFD escaped as
  /// `text(_:limit:)` escapes them: the one rule for names from a user's files (labels,
  /// sessions, subjects, folders, classes) in text meant for a terminal, such as the cells of a
  /// `TextTable`. JSON and CSV outputs keep names exact, escaped by their own formats.
  ///
  ///     Excerpt.printable("walk\u{1B}[2J")   // walk\x1B[2J
  public static func printable(_ text: String) -> String {
    // Most names need nothing: return them as they are without building a copy.
    guard text.unicodeScalars.contains(where: { escape($0) != nil }) else { return text }
    return text.unicodeScalars.map { escape($0) ?? String($0) }.joined()
  }

  /// Names joined with ", ", each cut by `text`, at most `limit` of them.
  public static func list(_ names: [String], limit: Int = listLimit) -> String {
    let shown = names.prefix(limit).map { text($0) }.joined(separator: ", ")
    return names.count > limit ? shown + " and \(names.count - limit) more" : shown
  }

  /// How `scalar` is written when it must not reach a terminal as it is; nil when it may.
  private static func escape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x00..<0x20, 0x7F..<0xA0:
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "\\x" + (hex.count < 2 ? "0" + hex : hex)
    case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF, 0xFFFD:
      return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default: return nil
    }
  }
}
