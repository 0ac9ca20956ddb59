// A page's header (parquet.thrift `PageHeader`): its kind, sizes, value count and encodings.
// Fields this reader does not use (statistics, index pages) are skipped; the optional CRC-32
// of the page's bytes is kept and checked.

/// The header before each page of a column chunk.
struct ParquetPageHeader {
  enum Kind: Int32 {
    case dataV1 = 0, index = 1, dictionary = 2, dataV2 = 3
  }

  /// The page type as written; nil for a kind this reader does not know (it is skipped).
  var kind: Kind?
  var uncompressedSize: Int32 = -1
  var compressedSize: Int32 = -1
  var valueCount: Int32 = -1
  /// The values' encoding (parquet.thrift `Encoding`).
  var encoding: Int32 = 0
  /// Version 1: the definition levels' encoding.
  var definitionEncoding: Int32 = 3
  /// Version 2: the bytes of repetition and definition levels before the values, which are
  /// never compressed, and whether the values are.
  var repetitionLength: Int32 = 0
  var definitionLength: Int32 = 0
  var isCompressed = true
  var nullCount: Int32?
  /// The CRC-32 of the page's bytes as stored (after the header, compressed), when the writer
  /// gave one (parquet-mr does by default: `parquet.page.write-checksum.enabled`).
  var crc: UInt32?

  /// Decodes a header at the reader's position.
  ///
  /// - Throws: `ThriftCompactReader.Failure`.
  static func decode(_ reader: inout ThriftCompactReader) throws -> ParquetPageHeader {
    var header = ParquetPageHeader()
    var kind: Int32 = -1
    try reader.structure { reader, id, type in
      switch (id, type) {
      case (1, .i32): kind = try reader.i32()
      case (2, .i32): header.uncompressedSize = try reader.i32()
      case (3, .i32): header.compressedSize = try reader.i32()
      case (4, .i32): header.crc = UInt32(bitPattern: try reader.i32())
      case (5, .structure):
        try reader.structure { reader, id, type in
          switch (id, type) {
          case (1, .i32): header.valueCount = try reader.i32()
          case (2, .i32): header.encoding = try reader.i32()
          case (3, .i32): header.definitionEncoding = try reader.i32()
          default: try reader.skip(type)
          }
        }
      case (7, .structure):
        try reader.structure { reader, id, type in
          switch (id, type) {
          case (1, .i32): header.valueCount = try reader.i32()
          case (2, .i32): header.encoding = try reader.i32()
          default: try reader.skip(type)
          }
        }
      case (8, .structure):
        try reader.structure { reader, id, type in
          switch (id, type) {
          case (1, .i32): header.valueCount = try reader.i32()
          case (2, .i32): header.nullCount = try reader.i32()
          case (4, .i32): header.encoding = try reader.i32()
          case (5, .i32): header.definitionLength = try reader.i32()
          case (6, .i32): header.repetitionLength = try reader.i32()
          case (7, .boolTrue), (7, .boolFalse): header.isCompressed = try reader.bool(type)
          default: try reader.skip(type)
          }
        }
      default: try reader.skip(type)
      }
    }
    header.kind = Kind(rawValue: kind)
    return header
  }
}
