// Thrift's compact protocol, the encoding of Parquet's footer and page headers, read from a
// byte range with every length checked: varints stop at 10 bytes, lists and strings may not
// claim more elements or bytes than remain, nesting stops at `depthLimit`. Reading a field
// past the range or a malformed one throws `ThriftCompactReader.Failure`, whose reason the
// Parquet reader names the file with.

/// Reads compact-protocol values from `bytes[position..<end]`.
struct ThriftCompactReader {
  /// Why the bytes are not valid compact Thrift.
  struct Failure: Error {
    var reason: String
  }

  /// Compact-protocol type codes.
  enum FieldType: UInt8 {
    case stop = 0, boolTrue = 1, boolFalse = 2, byte = 3, i16 = 4, i32 = 5, i64 = 6
    case double = 7, binary = 8, list = 9, set = 10, map = 11, structure = 12
  }

  /// Nesting a skipped value may have (Parquet's own structures are at most 6 deep).
  static let depthLimit = 32

  let bytes: [UInt8]
  private(set) var position: Int
  let end: Int
  private var depth = 0

  init(_ bytes: [UInt8], from start: Int, to end: Int) {
    self.bytes = bytes
    self.position = start
    self.end = end
  }

  var remaining: Int { end - position }

  mutating func byte() throws -> UInt8 {
    guard position < end else { throw Failure(reason: "a Thrift value runs past its end") }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func varint() throws -> UInt64 {
    var result: UInt64 = 0
    for k in 0..<10 {
      let b = try byte()
      result |= UInt64(b & 0x7F) << UInt64(7 * k)
      if b & 0x80 == 0 { return result }
    }
    throw Failure(reason: "a varint longer than 10 bytes")
  }

  mutating func zigzag() throws -> Int64 {
    let raw = try varint()
    return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
  }

  mutating func i32() throws -> Int32 {
    let value = try zigzag()
    guard let narrow = Int32(exactly: value) else {
      throw Failure(reason: "\(value) does not fit a 32-bit field")
    }
    return narrow
  }

  mutating func i64() throws -> Int64 { try zigzag() }

  /// A length-prefixed byte string, as a range of `bytes`.
  mutating func binary() throws -> Range<Int> {
    let length = try varint()
    guard length <= UInt64(remaining) else {
      throw Failure(reason: "a string of \(length) bytes where \(remaining) remain")
    }
    let start = position
    position += Int(length)
    return start..<position
  }

  mutating func string() throws -> String {
    String(decoding: bytes[try binary()], as: UTF8.self)
  }

  /// The next field's id and type, or nil at the end of a struct; `previous` is the id of the
  /// field before it in the same struct (0 at its start).
  mutating func fieldHeader(previous: Int16) throws -> (id: Int16, type: FieldType)? {
    let header = try byte()
    guard let type = FieldType(rawValue: header & 0x0F) else {
      throw Failure(reason: "unknown Thrift type \(header & 0x0F)")
    }
    if type == .stop { return nil }
    let delta = header >> 4
    if delta != 0 {
      let (id, overflow) = previous.addingReportingOverflow(Int16(delta))
      guard !overflow else { throw Failure(reason: "a field id beyond 32767") }
      return (id, type)
    }
    guard let id = Int16(exactly: try zigzag()) else {
      throw Failure(reason: "a field id beyond 16 bits")
    }
    return (id, type)
  }

  /// A list's element type and count; the count is checked against the bytes left (every
  /// element takes at least one byte).
  mutating func listHeader() throws -> (type: FieldType, count: Int) {
    let header = try byte()
    guard let type = FieldType(rawValue: header & 0x0F), type != .stop else {
      throw Failure(reason: "unknown Thrift list element type \(header & 0x0F)")
    }
    var count = UInt64(header >> 4)
    if count == 15 { count = try varint() }
    guard count <= UInt64(remaining) else {
      throw Failure(reason: "a list of \(count) elements where \(remaining) bytes remain")
    }
    return (type, Int(count))
  }

  /// Reads a struct, handing each field to `field`, which must consume it (or call `skip`).
  mutating func structure(
    _ field: (inout ThriftCompactReader, Int16, FieldType) throws -> Void
  ) throws {
    try enter()
    defer { depth -= 1 }
    var previous: Int16 = 0
    while let (id, type) = try fieldHeader(previous: previous) {
      try field(&self, id, type)
      previous = id
    }
  }

  /// Reads a list whose elements `element` reads one at a time.
  mutating func list(_ element: (inout ThriftCompactReader, FieldType) throws -> Void) throws {
    try enter()
    defer { depth -= 1 }
    let (type, count) = try listHeader()
    for _ in 0..<count { try element(&self, type) }
  }

  /// A field's boolean, which compact Thrift keeps in the field header's type.
  func bool(_ type: FieldType) throws -> Bool {
    switch type {
    case .boolTrue: return true
    case .boolFalse: return false
    default: throw Failure(reason: "a boolean field of type \(type)")
    }
  }

  /// Passes over a value of `type`, whatever it holds, nested values included.
  mutating func skip(_ type: FieldType) throws {
    switch type {
    case .stop: throw Failure(reason: "a stop where a value was expected")
    case .boolTrue, .boolFalse: return
    case .byte: _ = try byte()
    case .i16, .i32, .i64: _ = try varint()
    case .double:
      guard remaining >= 8 else { throw Failure(reason: "a double runs past its end") }
      position += 8
    case .binary: _ = try binary()
    case .list, .set:
      try list { reader, type in
        // Booleans in lists take a byte each, unlike those in fields.
        if type == .boolTrue || type == .boolFalse {
          _ = try reader.byte()
        } else {
          try reader.skip(type)
        }
      }
    case .map:
      try enter()
      defer { depth -= 1 }
      let count = try varint()
      guard count > 0 else { return }
      guard count <= UInt64(remaining) / 2 else {
        throw Failure(reason: "a map of \(count) entries where \(remaining) bytes remain")
      }
      let types = try byte()
      guard let key = FieldType(rawValue: types >> 4),
        let value = FieldType(rawValue: types & 0x0F),
        key != .stop, value != .stop
      else { throw Failure(reason: "unknown Thrift map types \(types)") }
      for _ in 0..<Int(count) {
        for type in [key, value] {
          if type == .boolTrue || type == .boolFalse { _ = try byte() } else { try skip(type) }
        }
      }
    case .structure:
      try structure { reader, _, type in try reader.skip(type) }
    }
  }

  private mutating func enter() throws {
    guard depth < Self.depthLimit else {
      throw Failure(reason: "Thrift values nested more than \(Self.depthLimit) deep")
    }
    depth += 1
  }
}
