// A flat table read from Parquet, as Spark writes a cohort's window table
// (integrations/spark: `df.write.parquet(OUT/features)`): one file, or a folder of part files
// read in name order. Numbers (DOUBLE, FLOAT, INT32, INT64) come out as Doubles and text
// (BYTE_ARRAY) as Strings, nulls as nil. Pure Swift: the footer's Thrift, SNAPPY and the page
// encodings Spark uses are decoded here; other codecs, encodings, types and nested columns are
// errors that say what to write instead.

import Foundation
import MotusData

/// The columns of a Parquet file or folder, by name, in file order.
///
///     let table = try ParquetTable.read("out/features")
///     let labels = try table.strings("label")     // [String?], one per row
///     let purity = try table.doubles("purity")    // [Double?]
public struct ParquetTable: Sendable {
  /// The path read, as errors name it.
  public let path: String
  /// The part files read, in the order their rows appear (the path itself for one file).
  public let files: [String]
  /// Column names in file order.
  public let columnNames: [String]
  /// The values of each column, in the order of `columnNames`.
  public let columns: [ParquetColumn]
  public let rowCount: Int

  /// Values (rows times columns) a table may hold: memory at 16 bytes a value.
  public static var defaultValueLimit: Int { Int(min(Limits.memoryBytes / 16, Double(Int.max))) }

  /// Reads a `.parquet` file, or a folder of part files as Spark writes it.
  ///
  /// A folder's `*.parquet` files are read in name order and their rows concatenated; entries
  /// whose names start with `_` or `.` (`_SUCCESS`, `.crc` files) are passed over. Every part
  /// must have the same columns.
  ///
  /// - Parameter valueLimit: Most values (rows times columns) read; more is an error.
  /// - Throws: `ParquetError`, naming the file, and the column when there is one.
  public static func read(_ path: String, valueLimit: Int = defaultValueLimit) throws
    -> ParquetTable
  {
    let name = InputFile.displayName(path)
    guard InputFile.kind(path) == .folder else {
      return try decode(try bytes(of: path), file: name, valueLimit: valueLimit)
    }
    var parts: [ParquetTable] = []
    var left = valueLimit
    for file in try partFiles(path) {
      let part = try decode(try bytes(of: file), file: file, valueLimit: left)
      left -= part.rowCount * part.columns.count
      if let first = parts.first, let difference = first.difference(from: part) {
        throw ParquetError.partsDiffer(first: first.path, second: file, difference: difference)
      }
      parts.append(part)
    }
    guard let first = parts.first else {
      throw ParquetError.notATable(
        folder: name, reason: "it holds no .parquet file",
        hint: "give the folder Spark wrote (df.write.parquet(...)) or one .parquet file.")
    }
    let columns = first.columns.indices.map { c in
      switch first.columns[c] {
      case .doubles:
        return ParquetColumn.doubles(parts.flatMap { $0.columns[c].doubles ?? [] })
      case .strings:
        return ParquetColumn.strings(parts.flatMap { $0.columns[c].strings ?? [] })
      }
    }
    return ParquetTable(
      path: name, files: parts.map(\.path), columnNames: first.columnNames, columns: columns,
      rowCount: parts.reduce(0) { $0 + $1.rowCount })
  }

  /// The part files of a folder Spark wrote, in name order.
  ///
  /// - Throws: `ParquetError.notATable` for a subfolder (a table written with `partitionBy`)
  ///   or another file among the parts, `.unreadable` when the folder cannot be listed.
  public static func partFiles(_ folder: String) throws -> [String] {
    let entries: [String]
    do {
      entries = try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw ParquetError.unreadable(file: folder, reason: "the folder cannot be listed")
    }
    var parts: [String] = []
    for entry in entries.sorted() where !entry.hasPrefix("_") && !entry.hasPrefix(".") {
      let path = folder.hasSuffix("/") ? folder + entry : folder + "/" + entry
      if InputFile.kind(path) == .folder {
        throw ParquetError.notATable(
          folder: folder,
          reason: "it holds a folder '\(Excerpt.text(entry))' (a table "
            + "partitioned by a column)",
          hint: "write the table without partitionBy, or give each folder of parts.")
      }
      guard entry.hasSuffix(".parquet") else {
        throw ParquetError.notATable(
          folder: folder,
          reason: "it holds '\(Excerpt.text(entry))', which is not a "
            + ".parquet part file",
          hint: "keep only the files Spark wrote in the folder.")
      }
      parts.append(path)
    }
    return parts
  }

  /// Decodes the bytes of one Parquet file.
  ///
  /// - Parameters:
  ///   - file: How errors name the file.
  ///   - valueLimit: Most values (rows times columns) read; more is an error.
  /// - Throws: `ParquetError`.
  public static func decode(_ bytes: [UInt8], file: String, valueLimit: Int = defaultValueLimit)
    throws -> ParquetTable
  {
    let footer = try ParquetFooter.decode(bytes, file: file)
    let leaves = try ParquetSchema.leaves(footer.schema, file: file)
    let values = Double(footer.rowCount) * Double(leaves.count)
    guard values <= Double(valueLimit) else {
      throw ParquetError.tooLarge(
        file: file, values: values < Double(Int.max) ? Int(values) : Int.max, limit: valueLimit)
    }
    var readers = leaves.map {
      ParquetColumnReader(
        bytes: bytes, file: file, name: $0.name, physical: $0.physical, optional: $0.optional,
        dataEnd: footer.start)
    }
    var rows: Int64 = 0
    for (g, group) in footer.rowGroups.enumerated() {
      guard group.rowCount >= 0, group.rowCount <= footer.rowCount - rows else {
        throw ParquetError.damaged(
          file: file, column: nil,
          reason: "row group \(g + 1) has \(group.rowCount) rows of the file's \(footer.rowCount)")
      }
      rows += group.rowCount
      guard group.columns.count == leaves.count else {
        throw ParquetError.damaged(
          file: file, column: nil,
          reason: "row group \(g + 1) has \(group.columns.count) columns, the schema "
            + "\(leaves.count)")
      }
      for (c, chunk) in group.columns.enumerated() {
        let leaf = leaves[c]
        if chunk.encrypted {
          throw ParquetError.unsupported(
            file: file, column: leaf.name, what: "it is encrypted",
            hint: "write it without Parquet encryption.")
        }
        if chunk.filePath != nil {
          throw ParquetError.unsupported(
            file: file, column: leaf.name, what: "its values are in another file",
            hint: "give a file that holds its own data, as Spark writes.")
        }
        guard let meta = chunk.meta, meta.type == leaf.type, meta.path == [leaf.name] else {
          throw ParquetError.damaged(
            file: file, column: leaf.name,
            reason: "row group \(g + 1)'s chunk does not match the schema's column")
        }
        try readers[c].read(meta, rowCount: Int(group.rowCount))
      }
    }
    guard rows == footer.rowCount else {
      throw ParquetError.damaged(
        file: file, column: nil,
        reason: "its row groups hold \(rows) rows where the footer declares \(footer.rowCount)")
    }
    return ParquetTable(
      path: file, files: [file], columnNames: leaves.map(\.name), columns: readers.map(\.column),
      rowCount: Int(rows))
  }

  /// A column's values.
  ///
  /// - Throws: `ParquetError.missingColumn`, listing the columns the table has.
  public func column(_ name: String) throws -> ParquetColumn {
    guard let index = columnNames.firstIndex(of: name) else {
      throw ParquetError.missingColumn(file: path, column: name, available: columnNames)
    }
    return columns[index]
  }

  /// A numeric column's values, nil for a null.
  ///
  /// - Throws: `ParquetError.missingColumn`, or `.wrongKind` for a text column.
  public func doubles(_ name: String) throws -> [Double?] {
    let column = try column(name)
    guard let values = column.doubles else {
      throw ParquetError.wrongKind(file: path, column: name, holds: column.kind, asked: "numbers")
    }
    return values
  }

  /// A text column's values, nil for a null.
  ///
  /// - Throws: `ParquetError.missingColumn`, or `.wrongKind` for a numeric column.
  public func strings(_ name: String) throws -> [String?] {
    let column = try column(name)
    guard let values = column.strings else {
      throw ParquetError.wrongKind(file: path, column: name, holds: column.kind, asked: "text")
    }
    return values
  }

  /// Where `other`'s columns first differ from this table's (name or kind), or nil.
  func difference(from other: ParquetTable) -> String? {
    for k in 0..<max(columnNames.count, other.columnNames.count) {
      let mine =
        k < columnNames.count ? "'\(Excerpt.text(columnNames[k]))' (\(columns[k].kind))" : "none"
      let theirs =
        k < other.columnNames.count
        ? "'\(Excerpt.text(other.columnNames[k]))' (\(other.columns[k].kind))" : "none"
      if mine != theirs { return "column \(k + 1) is \(theirs) where the first part has \(mine)" }
    }
    return nil
  }

  private static func bytes(of path: String) throws -> [UInt8] {
    do {
      return try InputFile.read(path, limit: Limits.inputFileBytes)
    } catch let error as InputFileError {
      throw ParquetError.unreadable(file: error.file, reason: error.reason)
    }
  }
}
