// The protocol-buffer wire format, just the part ONNX files use: varints (wire type 0),
// little-endian 32-bit values (wire type 5) and length-delimited bytes and messages (wire
// type 2). Fields are written in the order they are added; readers accept any order.
// Reference: https://protobuf.dev/programming-guides/encoding/

/// Appends protobuf fields to a byte buffer.
struct ProtobufWriter {
  private(set) var bytes: [UInt8] = []

  /// An unsigned varint: seven bits per byte, low bits first, high bit set on all but the last.
  static func varint(_ value: UInt64) -> [UInt8] {
    var out: [UInt8] = []
    var v = value
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
    return out
  }

  private mutating func key(_ field: Int, wireType: UInt64) {
    bytes += Self.varint(UInt64(field) << 3 | wireType)
  }

  /// An int64 or int32 field (negative values as ten-byte two's complement, as protobuf does).
  mutating func int(_ field: Int, _ value: Int) {
    key(field, wireType: 0)
    bytes += Self.varint(UInt64(bitPattern: Int64(value)))
  }

  mutating func float(_ field: Int, _ value: Float) {
    key(field, wireType: 5)
    withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
  }

  mutating func bytes(_ field: Int, _ value: [UInt8]) {
    key(field, wireType: 2)
    bytes += Self.varint(UInt64(value.count))
    bytes += value
  }

  mutating func string(_ field: Int, _ value: String) { bytes(field, Array(value.utf8)) }

  mutating func message(_ field: Int, _ build: (inout ProtobufWriter) -> Void) {
    var inner = ProtobufWriter()
    build(&inner)
    bytes(field, inner.bytes)
  }
}
