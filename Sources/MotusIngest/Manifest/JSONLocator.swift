// Line and column numbers for JSON errors. JSONDecoder names a bad key only by its path
// (`sources[2].weight`) and a syntax error not at all, so this walks the text itself: it finds
// where a coding path's value starts, or where the text first stops being JSON (RFC 8259).

import MotusData

/// Finds positions in JSON text without decoding it.
public struct JSONLocator {
  /// Deeper nesting is reported as an error rather than walked (no stack overflow).
  static let maximumDepth = 256

  private let bytes: [UInt8]
  private var i = 0
  /// Whether a path that ends at an object member finds the member's key rather than its value.
  private var findsKey = false

  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Where the text first stops being JSON, and why; nil when it is valid.
  public static func syntaxError(in bytes: [UInt8]) -> (position: JSONPosition, reason: String)? {
    var walker = JSONLocator(bytes)
    do {
      walker.skipSpace()
      try walker.value(path: nil, depth: 0)
      walker.skipSpace()
      if walker.i < bytes.count { throw Failure(offset: walker.i, reason: "text after the end") }
      return nil
    } catch let failure as Failure {
      return (position(of: failure.offset, in: bytes), failure.reason)
    } catch {
      return nil
    }
  }

  /// Where the value at `path` starts (or, when it is missing, the object that lacks it).
  public static func position(of path: [CodingKey], in bytes: [UInt8]) -> JSONPosition? {
    var walker = JSONLocator(bytes)
    var found: Int?
    walker.skipSpace()
    do {
      try walker.value(path: ArraySlice(path), depth: 0, found: &found)
    } catch {
      // The path lies beyond a syntax error: the nearest place reached is still useful.
    }
    return found.map { position(of: $0, in: bytes) }
  }

  /// Where the key of the member at `path` starts (its opening quote); nil when the path does
  /// not end at an object member that is there.
  public static func keyPosition(of path: [CodingKey], in bytes: [UInt8]) -> JSONPosition? {
    guard let last = path.last, last.intValue == nil else { return nil }
    var walker = JSONLocator(bytes)
    walker.findsKey = true
    var found: Int?
    walker.skipSpace()
    do {
      try walker.value(path: ArraySlice(path), depth: 0, found: &found)
    } catch {
      return nil
    }
    guard let offset = found, offset < bytes.count, bytes[offset] == UInt8(ascii: "\""),
      walker.keyFound
    else { return nil }
    return position(of: offset, in: bytes)
  }

  /// Set when `findsKey` found the key itself.
  private var keyFound = false

  static func position(of offset: Int, in bytes: [UInt8]) -> JSONPosition {
    var line = 1
    var lineStart = 0
    for k in 0..<min(offset, bytes.count) where bytes[k] == UInt8(ascii: "\n") {
      line += 1
      lineStart = k + 1
    }
    return JSONPosition(line: line, column: offset - lineStart + 1)
  }

  private struct Failure: Error {
    var offset: Int
    var reason: String
  }

  private mutating func value(path: ArraySlice<CodingKey>?, depth: Int) throws {
    var unused: Int?
    try value(path: path, depth: depth, found: &unused)
  }

  /// Walks one value at `i`. While `path` is non-nil, records in `found` the offset of the
  /// deepest value on it (the value itself once the path is used up).
  private mutating func value(
    path: ArraySlice<CodingKey>?, depth: Int, found: inout Int?
  ) throws {
    guard depth < Self.maximumDepth else {
      throw Failure(offset: i, reason: "nested more than \(Self.maximumDepth) levels deep")
    }
    if path != nil { found = i }
    guard i < bytes.count else { throw Failure(offset: i, reason: "the text ends early") }
    switch bytes[i] {
    case UInt8(ascii: "{"): try object(path: path, depth: depth, found: &found)
    case UInt8(ascii: "["): try list(path: path, depth: depth, found: &found)
    case UInt8(ascii: "\""):
      _ = try string()
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    default: try number()
    }
  }

  /// Walks an object from its `{`; a member whose key is the path's next name is on the path
  /// (and, when the path ends there and keys are sought, the key is what is found).
  private mutating func object(
    path: ArraySlice<CodingKey>?, depth: Int, found: inout Int?
  ) throws {
    guard opens(closedBy: UInt8(ascii: "}")) else { return }
    repeat {
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
        throw Failure(offset: i, reason: "expected a key in double quotes")
      }
      let keyStart = i
      let key = try string()
      skipSpace()
      guard peek(UInt8(ascii: ":")) else {
        throw Failure(offset: i, reason: "expected ':' after a key")
      }
      skipSpace()
      let onPath = path.flatMap { p -> ArraySlice<CodingKey>? in
        guard let first = p.first, first.intValue == nil, first.stringValue == key else {
          return nil
        }
        return p.dropFirst()
      }
      if findsKey, onPath?.isEmpty == true {
        found = keyStart
        keyFound = true
        try value(path: nil, depth: depth + 1)
      } else {
        try child(onPath: onPath, depth: depth + 1, found: &found)
      }
    } while try continues(closedBy: UInt8(ascii: "}"), in: "an object")
  }

  /// Walks a list from its `[`; the element at the path's next index is on the path.
  private mutating func list(
    path: ArraySlice<CodingKey>?, depth: Int, found: inout Int?
  ) throws {
    guard opens(closedBy: UInt8(ascii: "]")) else { return }
    var index = 0
    repeat {
      let onPath = path.flatMap { p -> ArraySlice<CodingKey>? in
        guard let first = p.first, first.intValue == index else { return nil }
        return p.dropFirst()
      }
      try child(onPath: onPath, depth: depth + 1, found: &found)
      index += 1
    } while try continues(closedBy: UInt8(ascii: "]"), in: "a list")
  }

  /// Consumes a container's opening byte and the space after it; false when `close` follows at
  /// once (an empty object or list, consumed).
  private mutating func opens(closedBy close: UInt8) -> Bool {
    i += 1
    skipSpace()
    return !peek(close)
  }

  /// After a member or element: true when a comma follows (consumed, with the space after it),
  /// false at `close` (consumed); anything else is an error naming the `container`.
  private mutating func continues(closedBy close: UInt8, in container: String) throws -> Bool {
    skipSpace()
    if peek(close) { return false }
    guard peek(UInt8(ascii: ",")) else {
      let closing = Character(Unicode.Scalar(close))
      throw Failure(offset: i, reason: "expected ',' or '\(closing)' in \(container)")
    }
    skipSpace()
    return true
  }

  /// Walks a member or element; `onPath` is what remains of the path when it is on it.
  private mutating func child(
    onPath: ArraySlice<CodingKey>?, depth: Int, found: inout Int?
  ) throws {
    guard let onPath else { return try value(path: nil, depth: depth) }
    if onPath.isEmpty {
      found = i
      try value(path: nil, depth: depth)
    } else {
      try value(path: onPath, depth: depth, found: &found)
    }
  }

  private mutating func skipSpace() {
    while i < bytes.count,
      bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D
    {
      i += 1
    }
  }

  /// Consumes `byte` when it is next.
  private mutating func peek(_ byte: UInt8) -> Bool {
    guard i < bytes.count, bytes[i] == byte else { return false }
    i += 1
    return true
  }

  private mutating func literal(_ word: String) throws {
    let start = i
    for b in word.utf8 {
      guard i < bytes.count, bytes[i] == b else {
        throw Failure(offset: start, reason: "not a JSON value (strings need double quotes)")
      }
      i += 1
    }
  }

  private mutating func number() throws {
    let start = i
    func digits() -> Int {
      let from = i
      while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
        i += 1
      }
      return i - from
    }
    _ = peek(UInt8(ascii: "-"))
    let leadingZero = i < bytes.count && bytes[i] == UInt8(ascii: "0")
    let integerDigits = digits()
    guard integerDigits > 0, !(leadingZero && integerDigits > 1) else {
      throw Failure(offset: start, reason: "not a JSON value (strings need double quotes)")
    }
    if peek(UInt8(ascii: ".")) {
      guard digits() > 0 else { throw Failure(offset: i, reason: "a digit must follow '.'") }
    }
    if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      if !peek(UInt8(ascii: "+")) { _ = peek(UInt8(ascii: "-")) }
      guard digits() > 0 else { throw Failure(offset: i, reason: "an exponent needs digits") }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw Failure(offset: start, reason: "the number \(Excerpt.text(text)) is out of range")
    }
  }

  /// A string's text (escapes other than `\"` and `\\` kept as written: enough to match keys).
  private mutating func string() throws -> String {
    let start = i
    i += 1
    var text: [UInt8] = []
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\"") {
        i += 1
        return String(decoding: text, as: UTF8.self)
      }
      if b < 0x20 {
        throw Failure(offset: i, reason: "a control character inside a string")
      }
      if b == UInt8(ascii: "\\") {
        guard i + 1 < bytes.count else { break }
        let e = bytes[i + 1]
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
          text.append(e)
          i += 2
        case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"),
          UInt8(ascii: "t"):
          text += [b, e]
          i += 2
        case UInt8(ascii: "u"):
          guard i + 6 <= bytes.count,
            bytes[(i + 2)..<(i + 6)].allSatisfy({ Self.isHexDigit($0) })
          else { throw Failure(offset: i, reason: "\\u needs four hex digits") }
          text += bytes[i..<(i + 6)]
          i += 6
        default:
          throw Failure(offset: i, reason: "an unknown escape in a string")
        }
        continue
      }
      text.append(b)
      i += 1
    }
    throw Failure(offset: start, reason: "a string is never closed")
  }

  private static func isHexDigit(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66)
  }
}
