// The parts of a Parquet file's footer (its Thrift FileMetaData, parquet.thrift) that a flat
// table needs: the schema, the row groups and each column chunk's place, codec and count.
// Every other field is skipped, whatever it holds, so files from newer writers still read.

/// A Parquet file's metadata, as the footer at its end describes it.
struct ParquetFooter {
  /// One node of the schema tree, which is stored flattened depth-first.
  struct SchemaElement {
    var name = ""
    /// The physical type (parquet.thrift `Type`), nil for a group.
    var type: Int32?
    /// 0 required, 1 optional, 2 repeated.
    var repetition: Int32?
    var childCount: Int32?
    var convertedType: Int32?
    /// The field id of the `LogicalType` union member set (1 STRING, 5 DECIMAL, 10 INTEGER...).
    var logicalType: Int16?
    /// For the INTEGER logical type: whether it is signed.
    var logicalSigned = true
  }

  struct ColumnChunk {
    var filePath: String?
    var encrypted = false
    var meta: ColumnMetaData?
  }

  struct ColumnMetaData {
    var type: Int32 = -1
    var path: [String] = []
    var codec: Int32 = 0
    var valueCount: Int64 = -1
    var totalCompressedSize: Int64 = -1
    var dataPageOffset: Int64 = -1
    var dictionaryPageOffset: Int64?
  }

  struct RowGroup {
    var columns: [ColumnChunk] = []
    var rowCount: Int64 = -1
  }

  var schema: [SchemaElement] = []
  var rowCount: Int64 = -1
  var rowGroups: [RowGroup] = []
  /// Where the footer starts: column chunks must end before it.
  var start = 0

  /// The magic at both ends of a Parquet file.
  static let magic: [UInt8] = Array("PAR1".utf8)

  /// Finds and decodes the footer of `bytes`.
  ///
  /// - Throws: `ParquetError.notParquet`, `.unsupported` (an encrypted footer), `.damaged`.
  static func decode(_ bytes: [UInt8], file: String) throws -> ParquetFooter {
    guard bytes.count >= 12 else {
      throw ParquetError.notParquet(
        file: file, reason: "it has \(bytes.count) bytes, fewer than the 12 of an empty one")
    }
    let tail = Array(bytes[(bytes.count - 4)...])
    if tail == Array("PARE".utf8) {
      throw ParquetError.unsupported(
        file: file, column: nil, what: "its footer is encrypted",
        hint: "write it without Parquet encryption.")
    }
    guard Array(bytes[0..<4]) == magic, tail == magic else {
      throw ParquetError.notParquet(file: file, reason: "it does not begin and end with PAR1")
    }
    let length = bytes[(bytes.count - 8)..<(bytes.count - 4)].reversed().reduce(0) {
      $0 << 8 | Int($1)
    }
    guard length <= bytes.count - 12 else {
      throw ParquetError.damaged(
        file: file, column: nil,
        reason: "its footer claims \(length) bytes of a \(bytes.count)-byte file")
    }
    var footer = ParquetFooter()
    footer.start = bytes.count - 8 - length
    var reader = ThriftCompactReader(bytes, from: footer.start, to: bytes.count - 8)
    do {
      try footer.read(&reader)
    } catch let failure as ThriftCompactReader.Failure {
      throw ParquetError.damaged(file: file, column: nil, reason: "footer: \(failure.reason)")
    }
    guard !footer.schema.isEmpty, footer.rowCount >= 0 else {
      throw ParquetError.damaged(
        file: file, column: nil, reason: "its footer has no schema or no row count")
    }
    return footer
  }

  private mutating func read(_ reader: inout ThriftCompactReader) throws {
    var schema: [SchemaElement] = []
    var rowCount: Int64 = -1
    var rowGroups: [RowGroup] = []
    try reader.structure { reader, id, type in
      switch (id, type) {
      case (2, .list):
        try reader.list { reader, _ in schema.append(try Self.schemaElement(&reader)) }
      case (3, .i64): rowCount = try reader.i64()
      case (4, .list):
        try reader.list { reader, _ in rowGroups.append(try Self.rowGroup(&reader)) }
      default: try reader.skip(type)
      }
    }
    self.schema = schema
    self.rowCount = rowCount
    self.rowGroups = rowGroups
  }

  private static func schemaElement(_ reader: inout ThriftCompactReader) throws -> SchemaElement {
    var element = SchemaElement()
    try reader.structure { reader, id, type in
      switch (id, type) {
      case (1, .i32): element.type = try reader.i32()
      case (3, .i32): element.repetition = try reader.i32()
      case (4, .binary): element.name = try reader.string()
      case (5, .i32): element.childCount = try reader.i32()
      case (6, .i32): element.convertedType = try reader.i32()
      case (10, .structure):
        // A union: one member set, a struct; INTEGER's says whether it is signed.
        try reader.structure { reader, member, type in
          element.logicalType = member
          guard member == 10, type == .structure else { return try reader.skip(type) }
          try reader.structure { reader, field, type in
            if field == 2, type == .boolTrue || type == .boolFalse {
              element.logicalSigned = try reader.bool(type)
            } else {
              try reader.skip(type)
            }
          }
        }
      default: try reader.skip(type)
      }
    }
    return element
  }

  private static func rowGroup(_ reader: inout ThriftCompactReader) throws -> RowGroup {
    var group = RowGroup()
    try reader.structure { reader, id, type in
      switch (id, type) {
      case (1, .list):
        try reader.list { reader, _ in group.columns.append(try columnChunk(&reader)) }
      case (3, .i64): group.rowCount = try reader.i64()
      default: try reader.skip(type)
      }
    }
    return group
  }

  private static func columnChunk(_ reader: inout ThriftCompactReader) throws -> ColumnChunk {
    var chunk = ColumnChunk()
    try reader.structure { reader, id, type in
      switch (id, type) {
      case (1, .binary): chunk.filePath = try reader.string()
      case (3, .structure): chunk.meta = try columnMetaData(&reader)
      case (8, _), (9, _):
        chunk.encrypted = true
        try reader.skip(type)
      default: try reader.skip(type)
      }
    }
    return chunk
  }

  private static func columnMetaData(_ reader: inout ThriftCompactReader) throws -> ColumnMetaData {
    var meta = ColumnMetaData()
    try reader.structure { reader, id, type in
      switch (id, type) {
      case (1, .i32): meta.type = try reader.i32()
      case (3, .list):
        try reader.list { reader, type in
          guard type == .binary else { return try reader.skip(type) }
          meta.path.append(try reader.string())
        }
      case (4, .i32): meta.codec = try reader.i32()
      case (5, .i64): meta.valueCount = try reader.i64()
      case (7, .i64): meta.totalCompressedSize = try reader.i64()
      case (9, .i64): meta.dataPageOffset = try reader.i64()
      case (11, .i64): meta.dictionaryPageOffset = try reader.i64()
      default: try reader.skip(type)
      }
    }
    return meta
  }
}
