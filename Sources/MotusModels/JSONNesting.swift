// A model header's nesting, checked before JSONDecoder sees it: the decoder recurses once per
// level, so a header nested thousands deep would overflow the stack rather than fail. Only the
// depth is checked here; anything else wrong is the decoder's to say (and a changed byte is the
// checksum's, which is checked first).

enum JSONNesting {
  static let maximumDepth = 256

  /// Where the text first nests deeper than `maximumDepth`, as "line:column" (1-based, the
  /// column in bytes); nil when it never does.
  static func tooDeep(_ bytes: [UInt8]) -> String? {
    var depth = 0
    var inString = false
    var escaped = false
    var line = 1
    var lineStart = 0
    for (offset, byte) in bytes.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        if depth == maximumDepth { return "\(line):\(offset - lineStart + 1)" }
        depth += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
      case UInt8(ascii: "\n"):
        line += 1
        lineStart = offset + 1
      default: break
      }
    }
    return nil
  }
}
