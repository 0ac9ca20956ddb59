// Reads one flat column of a Parquet file, chunk by chunk (one per row group): each page's
// header, its bytes (checked against the header's CRC-32 when it has one, decompressed when
// SNAPPY), its definition levels (nulls) and its values
// (PLAIN or through the chunk's dictionary). Every count is checked against the chunk's declared
// values and every length against the page, so a damaged file is an error, never a trap or an
// allocation larger than what the file declares and the value limit allows.

import MotusGzip

/// Decodes the column chunks of one leaf column into values.
struct ParquetColumnReader {
  /// What the column's values are stored as.
  enum Physical: Equatable {
    case int32(unsigned: Bool), int64(unsigned: Bool), float, double, text
  }

  /// Most bytes one page may hold uncompressed (Spark writes pages of about 1 MiB).
  static let pageByteLimit = 1 << 28

  static let codecNames = [
    "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW",
  ]
  static let encodingNames = [
    0: "PLAIN", 1: "GROUP_VAR_INT", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED",
    5: "DELTA_BINARY_PACKED", 6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY",
    8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT",
  ]

  static func codecName(_ codec: Int32) -> String {
    codecNames.indices.contains(Int(codec)) ? codecNames[Int(codec)] : "codec \(codec)"
  }

  static func encodingName(_ encoding: Int32) -> String {
    encodingNames[Int(encoding)] ?? "encoding \(encoding)"
  }

  let bytes: [UInt8]
  let file: String
  let name: String
  let physical: Physical
  let optional: Bool
  /// Where the footer begins: no chunk may reach past it.
  let dataEnd: Int

  private(set) var doubles: [Double?] = []
  private(set) var strings: [String?] = []

  /// The column's values so far.
  var column: ParquetColumn { physical == .text ? .strings(strings) : .doubles(doubles) }

  /// Reads one column chunk of `rowCount` rows.
  ///
  /// - Throws: `ParquetError.damaged` or `.unsupported`, naming the file and the column.
  mutating func read(_ meta: ParquetFooter.ColumnMetaData, rowCount: Int) throws {
    guard meta.codec == 0 || meta.codec == 1 else {
      throw ParquetError.unsupported(
        file: file, column: name, what: "it is compressed with \(Self.codecName(meta.codec))",
        hint: "write it with compression 'snappy' or 'none': "
          + "df.write.option('compression', 'snappy').parquet(...).")
    }
    guard meta.valueCount == Int64(rowCount) else {
      throw damaged("the chunk holds \(meta.valueCount) values in a row group of \(rowCount) rows")
    }
    var start = meta.dataPageOffset
    if let dictionary = meta.dictionaryPageOffset, dictionary > 0 {
      start = min(start, dictionary)
    }
    guard start >= 4, start < Int64(dataEnd), meta.totalCompressedSize >= 0,
      meta.totalCompressedSize <= Int64(dataEnd) - start
    else {
      throw damaged(
        "the chunk at byte \(start) of \(meta.totalCompressedSize) bytes lies outside the data "
          + "(bytes 4 to \(dataEnd))")
    }
    do {
      try readPages(
        from: Int(start), to: Int(start + meta.totalCompressedSize),
        valueCount: rowCount, snappy: meta.codec == 1)
    } catch let failure as ThriftCompactReader.Failure {
      throw damaged("a page header: \(failure.reason)")
    } catch let failure as Snappy.Failure {
      throw damaged(failure.reason)
    } catch let failure as RLEBitPackedDecoder.Failure {
      throw damaged("levels or dictionary indices: \(failure.reason)")
    }
  }

  private mutating func readPages(from start: Int, to end: Int, valueCount: Int, snappy: Bool)
    throws
  {
    var dictionary: Dictionary?
    var position = start
    var seen = 0
    var page = 0
    while seen < valueCount {
      guard position < end else {
        throw damaged("the chunk ends after \(seen) of its \(valueCount) values")
      }
      var reader = ThriftCompactReader(bytes, from: position, to: end)
      let header = try ParquetPageHeader.decode(&reader)
      position = reader.position
      let compressed = Int(header.compressedSize)
      let uncompressed = Int(header.uncompressedSize)
      guard compressed >= 0, compressed <= end - position else {
        throw damaged("a page of \(compressed) bytes where the chunk has \(end - position) left")
      }
      guard uncompressed >= 0, uncompressed <= Self.pageByteLimit else {
        throw damaged(
          "a page of \(uncompressed) bytes uncompressed (at most \(Self.pageByteLimit))")
      }
      let payload = position..<(position + compressed)
      position += compressed
      page += 1
      try checkCRC(header, payload, page: page)
      switch header.kind {
      case .dictionary:
        guard seen == 0, dictionary == nil else {
          throw damaged("a dictionary page after the first data page")
        }
        let data = try pageData(payload, uncompressed: uncompressed, snappy: snappy)
        dictionary = try readDictionary(header, data)
      case .dataV1:
        let data = try pageData(payload, uncompressed: uncompressed, snappy: snappy)
        seen += try readDataPage(
          header, data, version2Levels: nil, seen: seen, of: valueCount,
          dictionary: dictionary)
      case .dataV2:
        let levels = Int(header.repetitionLength) + Int(header.definitionLength)
        guard header.repetitionLength >= 0, header.definitionLength >= 0,
          levels <= compressed, levels <= uncompressed
        else {
          throw damaged("a version 2 page whose levels take more than its \(compressed) bytes")
        }
        // The levels are never compressed; the values are unless the page says otherwise.
        var data = Array(bytes[payload.lowerBound..<(payload.lowerBound + levels)])
        data += try pageData(
          (payload.lowerBound + levels)..<payload.upperBound, uncompressed: uncompressed - levels,
          snappy: snappy && header.isCompressed)
        seen += try readDataPage(
          header, data, version2Levels: Int(header.repetitionLength)..<levels, seen: seen,
          of: valueCount,
          dictionary: dictionary)
      case .index, nil:
        continue
      }
    }
  }

  /// Refuses a page whose bytes (as stored, after its header) do not have its header's CRC-32.
  private func checkCRC(_ header: ParquetPageHeader, _ payload: Range<Int>, page: Int) throws {
    guard let crc = header.crc, CRC32.checksum(bytes[payload]) != crc else { return }
    throw ParquetError.checksumMismatch(
      file: file, column: name, page: page, offset: payload.lowerBound)
  }

  /// The page's bytes, decompressed: exactly `uncompressed` of them.
  private func pageData(_ range: Range<Int>, uncompressed: Int, snappy: Bool) throws -> [UInt8] {
    if snappy { return try Snappy.decompress(bytes[range], expectedCount: uncompressed) }
    guard range.count == uncompressed else {
      throw damaged("an uncompressed page of \(range.count) bytes declares \(uncompressed)")
    }
    return Array(bytes[range])
  }

  /// A chunk's dictionary: the distinct values data pages index.
  private enum Dictionary {
    case doubles([Double]), strings([String])
  }

  private func readDictionary(_ header: ParquetPageHeader, _ data: [UInt8]) throws -> Dictionary {
    guard header.encoding == 0 || header.encoding == 2 else {
      throw unsupportedEncoding(header.encoding, of: "dictionary")
    }
    guard header.valueCount >= 0 else { throw damaged("a dictionary of \(header.valueCount)") }
    var position = 0
    if physical == .text {
      return .strings(try plainStrings(data, &position, count: Int(header.valueCount)))
    }
    return .doubles(try plainNumbers(data, &position, count: Int(header.valueCount)))
  }

  /// Reads a data page and returns its value count. A version 2 page gives where its
  /// definition levels lie (after its repetition levels; its values follow them).
  private mutating func readDataPage(
    _ header: ParquetPageHeader, _ data: [UInt8], version2Levels: Range<Int>?, seen: Int,
    of total: Int, dictionary: Dictionary?
  ) throws -> Int {
    let count = Int(header.valueCount)
    guard count >= 0, count <= total - seen else {
      throw damaged("a page of \(header.valueCount) values where \(total - seen) remain")
    }
    let levels = try definitionLevels(header, data, version2Levels: version2Levels, count: count)
    let defined = levels.defined
    var position = levels.valuesStart
    let present = defined.map { $0.reduce(0) { $0 + Int($1) } } ?? count
    if let nulls = header.nullCount, version2Levels != nil, Int(nulls) != count - present {
      throw damaged("a page declares \(nulls) nulls and its levels hold \(count - present)")
    }
    // A page of nulls only has no values to decode (and a chunk of nulls only may be
    // dictionary-encoded without a dictionary page).
    if present == 0 {
      if physical == .text {
        strings += repeatElement(nil, count: count)
      } else {
        doubles += repeatElement(nil, count: count)
      }
      return count
    }

    try appendValues(
      header, data, from: &position, present: present, defined: defined, dictionary: dictionary)
    return count
  }

  /// A page's definition levels (1 a value, 0 a null; nil for a required column, which has
  /// none) and where its values start: after the levels' 4-byte length and bytes in a
  /// version 1 page, after `version2Levels` in a version 2 page.
  private func definitionLevels(
    _ header: ParquetPageHeader, _ data: [UInt8], version2Levels: Range<Int>?, count: Int
  ) throws -> (defined: [UInt32]?, valuesStart: Int) {
    var position = version2Levels?.upperBound ?? 0
    guard optional else { return (nil, position) }
    var levelsStart = version2Levels?.lowerBound ?? 0
    var levelsStop = version2Levels?.upperBound ?? 0
    if version2Levels == nil {
      guard header.definitionEncoding == 3 else {
        throw unsupportedEncoding(header.definitionEncoding, of: "definition levels")
      }
      guard data.count >= 4 else { throw damaged("a page too short for its levels") }
      let length = data[0..<4].reversed().reduce(0) { $0 << 8 | Int($1) }
      guard length <= data.count - 4 else {
        throw damaged("levels of \(length) bytes in a page of \(data.count)")
      }
      levelsStart = 4
      levelsStop = 4 + length
      position = levelsStop
    }
    var decoder = try RLEBitPackedDecoder(data, from: levelsStart, to: levelsStop, bitWidth: 1)
    return (try decoder.decode(count: count), position)
  }

  /// Decodes a page's `present` values (PLAIN, or dictionary indices) and appends them to the
  /// column, a nil where `defined` has a null.
  private mutating func appendValues(
    _ header: ParquetPageHeader, _ data: [UInt8], from position: inout Int, present: Int,
    defined: [UInt32]?, dictionary: Dictionary?
  ) throws {
    switch header.encoding {
    case 0:
      if physical == .text {
        let values = try plainStrings(data, &position, count: present)
        strings += Self.spread(values, over: defined)
      } else {
        let values = try plainNumbers(data, &position, count: present)
        doubles += Self.spread(values, over: defined)
      }
    case 2, 8:
      guard let dictionary else { throw damaged("dictionary indices without a dictionary page") }
      guard position < data.count else {
        throw damaged("a dictionary-encoded page without its bit width")
      }
      var decoder = try RLEBitPackedDecoder(
        data, from: position + 1, to: data.count, bitWidth: Int(data[position]))
      let indices = try decoder.decode(count: present)
      switch dictionary {
      case .doubles(let entries):
        let values = try indices.map { try entry(entries, $0) }
        doubles += Self.spread(values, over: defined)
      case .strings(let entries):
        let values = try indices.map { try entry(entries, $0) }
        strings += Self.spread(values, over: defined)
      }
    default:
      throw unsupportedEncoding(header.encoding, of: "values")
    }
  }

  private func entry<T>(_ entries: [T], _ index: UInt32) throws -> T {
    guard Int(index) < entries.count else {
      throw damaged("dictionary index \(index) of a dictionary of \(entries.count)")
    }
    return entries[Int(index)]
  }

  /// Spreads `values` over the rows, a nil where the level says null.
  private static func spread<T>(_ values: [T], over defined: [UInt32]?) -> [T?] {
    guard let defined else { return values }
    var rows = [T?]()
    rows.reserveCapacity(defined.count)
    var next = 0
    for level in defined {
      if level == 1 {
        rows.append(values[next])
        next += 1
      } else {
        rows.append(nil)
      }
    }
    return rows
  }

  private func plainNumbers(_ data: [UInt8], _ position: inout Int, count: Int) throws
    -> [Double]
  {
    let width: Int
    switch physical {
    case .int32, .float: width = 4
    default: width = 8
    }
    guard count <= (data.count - position) / width else {
      throw damaged("\(count) values of \(width) bytes in \(data.count - position) bytes")
    }
    var values = [Double]()
    values.reserveCapacity(count)
    data.withUnsafeBytes { raw in
      for k in 0..<count {
        let at = position + k * width
        switch physical {
        case .int32(let unsigned):
          let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
          values.append(unsigned ? Double(bits) : Double(Int32(bitPattern: bits)))
        case .int64(let unsigned):
          let bits = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
          values.append(unsigned ? Double(bits) : Double(Int64(bitPattern: bits)))
        case .float:
          let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
          values.append(Double(Float(bitPattern: bits)))
        default:
          let bits = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
          values.append(Double(bitPattern: bits))
        }
      }
    }
    position += count * width
    return values
  }

  private func plainStrings(_ data: [UInt8], _ position: inout Int, count: Int) throws
    -> [String]
  {
    // Each value takes at least its 4-byte length.
    guard count <= (data.count - position) / 4 else {
      throw damaged("\(count) strings in \(data.count - position) bytes")
    }
    var values = [String]()
    values.reserveCapacity(count)
    for _ in 0..<count {
      guard data.count - position >= 4 else { throw damaged("a string's length past the page") }
      let length = data[position..<(position + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
      position += 4
      guard length <= data.count - position else {
        throw damaged("a string of \(length) bytes where the page has \(data.count - position)")
      }
      guard let text = String(validating: data[position..<(position + length)], as: UTF8.self)
      else {
        throw ParquetError.unsupported(
          file: file, column: name, what: "it holds a value that is not UTF-8 text",
          hint: "write text columns as strings; binary columns are not read.")
      }
      values.append(text)
      position += length
    }
    return values
  }

  private func damaged(_ reason: String) -> ParquetError {
    .damaged(file: file, column: name, reason: reason)
  }

  private func unsupportedEncoding(_ encoding: Int32, of what: String) -> ParquetError {
    .unsupported(
      file: file, column: name, what: "its \(what) use the \(Self.encodingName(encoding)) encoding",
      hint: "write it as Spark does by default: PLAIN or dictionary encodings, leaving "
        + "parquet.writer.version unset and parquet.enable.dictionary on.")
  }
}
