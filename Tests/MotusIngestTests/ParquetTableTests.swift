// ParquetTable against files real pyspark wrote (Fixtures/Parquet/make_fixtures.py, SYNTHETIC
// windows; the script writes the values beside them as JSON): every value read must be the one
// written, in every layout Spark writes by default or on request, and each kind of bad file
// gets its own error.

import Foundation
import MotusData
@testable import MotusIngest
import MotusOutput
import MotusTestSupport
import XCTest

final class ParquetTableTests: TemporaryFolderTestCase {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/Parquet")

  private func fixture(_ name: String) -> String {
    Self.fixtures.appendingPathComponent(name).path
  }

  /// The columns and values the script wrote, from its JSON.
  private func expected(_ name: String) throws -> (columns: [String], values: [String: [Any]]) {
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
    let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return (
      try XCTUnwrap(object["columns"] as? [String]),
      try XCTUnwrap(object["values"] as? [String: [Any]])
    )
  }

  private func assertValues(
    _ table: ParquetTable, _ json: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let (columns, values) = try expected(json)
    XCTAssertEqual(table.columnNames, columns, file: file, line: line)
    for name in columns {
      let want = try XCTUnwrap(values[name])
      XCTAssertEqual(table.rowCount, want.count, file: file, line: line)
      switch try table.column(name) {
      case .doubles(let got):
        XCTAssertEqual(got.count, want.count, name, file: file, line: line)
        for (row, (value, written)) in zip(got, want).enumerated() {
          // Bit patterns: -0.0 and the smallest subnormal must come back as written. Numbers
          // are text in the JSON, which Double(_:) reads correctly rounded.
          let bits = (written as? String).flatMap { Double($0)?.bitPattern }
          XCTAssertEqual(
            bits == nil, written is NSNull, "\(name) row \(row)", file: file, line: line)
          XCTAssertEqual(value?.bitPattern, bits, "\(name) row \(row)", file: file, line: line)
        }
      case .strings(let got):
        XCTAssertEqual(got, want.map { $0 as? String }, name, file: file, line: line)
      }
    }
  }

  func testSparkFiles_EveryValueIsTheOneWrittenInEveryLayout() throws {
    // Snappy (Spark's default) and none; data page v2; pages of at most two rows; no
    // dictionaries.
    for name in [
      "windows-snappy", "windows-none", "windows-v2", "windows-pages", "windows-plain",
    ] {
      let table = try ParquetTable.read(fixture("\(name).parquet"))
      try assertValues(table, name == "windows-v2" ? "windows-v2.json" : "windows.json")
      XCTAssertEqual(table.files, [fixture("\(name).parquet")])
    }
    let pages = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: fixture("windows-pages.parquet"))))
    XCTAssertEqual(try pageCount(pages, column: 4), 5, "a dictionary and four data pages")
  }

  func testSparkFolder_PartsInNameOrderAndSuccessAndCRCFilesPassedOver() throws {
    let table = try ParquetTable.read(fixture("two-parts"))
    try assertValues(table, "two-parts.json")
    XCTAssertEqual(
      table.files.map { PathName.last($0) },
      [
        "part-00000-fixture.c000.snappy.parquet", "part-00001-fixture.c000.snappy.parquet",
      ])
    XCTAssertEqual(try table.strings("label").last, "standing")
    XCTAssertEqual(try table.doubles("purity").last, 0.25)
  }

  func testColumns_MissingOrOfTheOtherKindNameTheFileAndListTheColumns() throws {
    let path = fixture("windows-snappy.parquet")
    let table = try ParquetTable.read(path)
    XCTAssertThrowsError(try table.doubles("gait")) { error in
      XCTAssertEqual(
        error as? ParquetError,
        .missingColumn(file: path, column: "gait", available: table.columnNames))
      let text = "\(error)"
      XCTAssertTrue(text.contains("no column 'gait'") && text.contains("start_s, acc_mean"), text)
    }
    XCTAssertThrowsError(try table.doubles("label")) { error in
      XCTAssertEqual(
        error as? ParquetError,
        .wrongKind(file: path, column: "label", holds: "text", asked: "numbers"))
    }
    XCTAssertThrowsError(try table.strings("purity")) { error in
      XCTAssertTrue("\(error)".contains("'purity' holds numbers, not text"), "\(error)")
    }
    // As window-table columns (by index), the same errors: a numeric column read as text is
    // named as such, not reported as a cell that is not a number.
    let purity = try XCTUnwrap(table.columnNames.firstIndex(of: "purity"))
    XCTAssertThrowsError(try (table as any WindowTableColumns).strings(purity)) { error in
      XCTAssertEqual(
        error as? ParquetError,
        .wrongKind(file: path, column: "purity", holds: "numbers", asked: "text"))
    }
  }

  func testTruncatedFileAndBadMagic_AreNotParquet() throws {
    let bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: fixture("windows-snappy.parquet"))))
    for (name, damaged) in [
      ("cut.parquet", Array(bytes.prefix(bytes.count / 2))),
      ("magic.parquet", Array("PAR2".utf8) + bytes.dropFirst(4)),
      ("tiny.parquet", Array(bytes.prefix(7))),
    ] {
      let path = folder.appendingPathComponent(name).path
      try Data(damaged).write(to: URL(fileURLWithPath: path))
      XCTAssertThrowsError(try ParquetTable.read(path)) { error in
        guard case .notParquet(let file, _) = error as? ParquetError else {
          return XCTFail("\(name): \(error)")
        }
        XCTAssertEqual(file, path)
        XCTAssertTrue("\(error)".contains("HINT:"), "\(error)")
      }
    }
    // A footer length beyond the file: damaged, not a read past the end.
    var long = bytes
    long.replaceSubrange((long.count - 8)..<(long.count - 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
    XCTAssertThrowsError(try ParquetTable.decode(long, file: "long.parquet")) { error in
      XCTAssertTrue("\(error)".contains("footer claims 2147483647 bytes"), "\(error)")
    }
  }

  func testOtherCodecsAndEncodings_NameTheColumnWhatItUsesAndAHint() throws {
    let gzip = fixture("windows-gzip.parquet")
    XCTAssertThrowsError(try ParquetTable.read(gzip)) { error in
      XCTAssertEqual(
        error as? ParquetError,
        .unsupported(
          file: gzip, column: "recording", what: "it is compressed with GZIP",
          hint: "write it with compression 'snappy' or 'none': "
            + "df.write.option('compression', 'snappy').parquet(...)."))
    }
    // Version 2 pages without dictionaries: DELTA_* encodings.
    XCTAssertThrowsError(try ParquetTable.read(fixture("windows-delta.parquet"))) { error in
      guard case .unsupported(_, "recording", let what, let hint) = error as? ParquetError else {
        return XCTFail("\(error)")
      }
      XCTAssertTrue(what.contains("DELTA_"), what)
      XCTAssertTrue(hint.contains("parquet.writer.version"), hint)
    }
  }

  func testNestedColumn_IsRefusedByName() throws {
    let path = fixture("nested.parquet")
    XCTAssertThrowsError(try ParquetTable.read(path)) { error in
      guard case .unsupported(path, "axes", let what, _) = error as? ParquetError else {
        return XCTFail("\(error)")
      }
      XCTAssertTrue(what.contains("nested"), what)
    }
  }

  func testPartsWithDifferentColumns_NameBothFilesAndTheFirstDifference() throws {
    let folder = fixture("mixed-schemas")
    XCTAssertThrowsError(try ParquetTable.read(folder)) { error in
      XCTAssertEqual(
        error as? ParquetError,
        .partsDiffer(
          first: folder + "/part-00000-fixture.c000.snappy.parquet",
          second: folder + "/part-00001-fixture.c000.snappy.parquet",
          difference: "column 5 is 'quality' (numbers) where the first part has 'purity' "
            + "(numbers)"))
    }
  }

  func testFolders_WithoutPartsOrWithStrayEntriesAreRefused() throws {
    let empty = folder.appendingPathComponent("empty").path
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    _ = try write("", "empty/_SUCCESS")
    XCTAssertThrowsError(try ParquetTable.read(empty)) { error in
      XCTAssertTrue("\(error)".contains("holds no .parquet file"), "\(error)")
    }
    let partitioned = folder.appendingPathComponent("partitioned").path
    try FileManager.default.createDirectory(
      atPath: partitioned + "/label=walking", withIntermediateDirectories: true)
    XCTAssertThrowsError(try ParquetTable.read(partitioned)) { error in
      XCTAssertTrue("\(error)".contains("partitionBy"), "\(error)")
    }
    let stray = folder.appendingPathComponent("stray").path
    try FileManager.default.createDirectory(atPath: stray, withIntermediateDirectories: true)
    _ = try write("notes", "stray/notes.txt")
    XCTAssertThrowsError(try ParquetTable.read(stray)) { error in
      XCTAssertTrue("\(error)".contains("'notes.txt', which is not a .parquet"), "\(error)")
    }
  }

  /// The bytes of the first page of `column`'s first chunk and where its payload starts.
  private func firstPage(_ bytes: [UInt8], column: Int) throws -> (start: Int, count: Int) {
    let footer = try ParquetFooter.decode(bytes, file: "f")
    let meta = try XCTUnwrap(footer.rowGroups[0].columns[column].meta)
    let start = Int(min(meta.dataPageOffset, meta.dictionaryPageOffset ?? .max))
    var reader = ThriftCompactReader(bytes, from: start, to: bytes.count)
    let header = try ParquetPageHeader.decode(&reader)
    return (reader.position, Int(header.compressedSize))
  }

  /// The pages of `column`'s first chunk.
  private func pageCount(_ bytes: [UInt8], column: Int) throws -> Int {
    let footer = try ParquetFooter.decode(bytes, file: "f")
    let meta = try XCTUnwrap(footer.rowGroups[0].columns[column].meta)
    let start = Int(min(meta.dataPageOffset, meta.dictionaryPageOffset ?? .max))
    let end = start + Int(meta.totalCompressedSize)
    var reader = ThriftCompactReader(bytes, from: start, to: end)
    var count = 0
    while reader.remaining > 0 {
      let header = try ParquetPageHeader.decode(&reader)
      reader = ThriftCompactReader(
        bytes, from: reader.position + Int(header.compressedSize), to: end)
      count += 1
    }
    return count
  }

  /// Turns the CRC field of the page header at `start` into a field of another type, which
  /// the reader skips: the page then reads as one written without a checksum. Spark writes
  /// the type, the two sizes, then the CRC, each an i32 field (header byte 0x15).
  private func droppingCRC(_ bytes: inout [UInt8], header start: Int) {
    var p = start
    for _ in 0..<3 {
      XCTAssertEqual(bytes[p], 0x15)
      p += 1
      while bytes[p] & 0x80 != 0 { p += 1 }
      p += 1
    }
    XCTAssertEqual(bytes[p], 0x15, "field 4 (crc), an i32")
    bytes[p] = 0x16  // field 4, an i64 now: skipped
  }

  private func firstPageHeader(_ bytes: [UInt8], column: Int) throws -> Int {
    let meta = try XCTUnwrap(
      try ParquetFooter.decode(bytes, file: "f").rowGroups[0].columns[column].meta)
    return Int(min(meta.dataPageOffset, meta.dictionaryPageOffset ?? .max))
  }

  func testOneBitFlippedInAPage_IsAChecksumMismatchNamingFileColumnAndPage() throws {
    // Issue 42, item 5: without the check an uncompressed page with one bit flipped reads as
    // another value (pyarrow refuses the file). Every page of every Spark fixture has a CRC.
    let name = "windows-none.parquet"
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture(name))))
    let column = 6  // acc_mean, doubles
    var reader = ThriftCompactReader(
      bytes, from: try firstPageHeader(bytes, column: column), to: bytes.count)
    XCTAssertNotNil(try ParquetPageHeader.decode(&reader).crc)
    let page = try firstPage(bytes, column: column)
    XCTAssertEqual(page.start, reader.position)
    bytes[page.start + page.count - 1] ^= 0x01
    XCTAssertThrowsError(try ParquetTable.decode(bytes, file: name)) { error in
      XCTAssertEqual(
        error as? ParquetError,
        .checksumMismatch(file: name, column: "acc_mean", page: 1, offset: page.start))
      let text = "\(error)"
      XCTAssertTrue(
        text.contains("windows-none.parquet: column 'acc_mean': page 1 of a column chunk")
          && text.contains("CRC-32") && text.contains("HINT: copy or write the file again"),
        text)
    }
    // The same bytes without the page's CRC: read, the value changed.
    droppingCRC(&bytes, header: try firstPageHeader(bytes, column: column))
    XCTAssertEqual(try ParquetTable.decode(bytes, file: name).rowCount, 7)
  }

  func testCorruptSnappy_IsDamageNamingTheColumn() throws {
    var bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: fixture("windows-snappy.parquet"))))
    // Without its CRC (which would refuse the page first) the decoder meets the damage.
    droppingCRC(&bytes, header: try firstPageHeader(bytes, column: 3))
    let page = try firstPage(bytes, column: 3)
    // Keep the length preamble; every tag after it copies from 65,278 bytes back.
    var preamble = 1
    while bytes[page.start + preamble - 1] & 0x80 != 0 { preamble += 1 }
    for k in (page.start + preamble)..<(page.start + page.count) { bytes[k] = 0xFE }
    XCTAssertThrowsError(try ParquetTable.decode(bytes, file: "snappy.parquet")) { error in
      guard case .damaged("snappy.parquet", "label", let reason) = error as? ParquetError else {
        return XCTFail("\(error)")
      }
      XCTAssertTrue(reason.contains("snappy copy from 65278 bytes back"), reason)
    }
  }

  func testDeclaredCountsBeyondTheLimit_AreRefusedBeforeDecoding() throws {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("windows-none.parquet"))))
    XCTAssertThrowsError(try ParquetTable.decode(bytes, file: "f.parquet", valueLimit: 76)) {
      XCTAssertEqual($0 as? ParquetError, .tooLarge(file: "f.parquet", values: 77, limit: 76))
    }
    XCTAssertEqual(try ParquetTable.decode(bytes, file: "f.parquet", valueLimit: 77).rowCount, 7)
  }

  func testEveryCutAndFlippedByte_IsAResultOrAParquetError() throws {
    // Every prefix with the end magic and footer length restored, and every byte set to 0xFF:
    // none may trap, and every failure is a ParquetError.
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture("windows-v2.parquet"))))
    for k in bytes.indices {
      var flipped = bytes
      flipped[k] = flipped[k] == 0xFF ? 0 : 0xFF
      var cut = Array(bytes[..<k]) + bytes.suffix(8)
      if cut.count > 12 { cut[cut.count - 8] = UInt8(truncatingIfNeeded: cut.count - 12) }
      for input in [flipped, cut] {
        do {
          _ = try ParquetTable.decode(input, file: "f.parquet", valueLimit: 1 << 16)
        } catch {
          XCTAssertTrue(error is ParquetError, "\(error)")
        }
      }
    }
  }
}
