// The columns of a flat Parquet schema and what each is stored as. The schema is a tree stored
// depth-first under a root; motus reads only a root of primitive columns, each required or
// optional, of a type whose values are numbers or text as they stand (a DECIMAL's or a DATE's
// integers would be wrong numbers, so those are refused with a hint to cast).

import MotusData

/// Reads the columns of a flat schema.
enum ParquetSchema {
  /// One column: its name, its physical type code and how its values are read.
  struct Leaf {
    var name: String
    var type: Int32
    var physical: ParquetColumnReader.Physical
    var optional: Bool
  }

  static let typeNames = [
    "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY",
  ]
  static let convertedTypeNames = [
    "UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE", "TIME_MILLIS",
    "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32",
    "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL",
  ]
  static let logicalTypeNames: [Int16: String] = [
    1: "STRING", 2: "MAP", 3: "LIST", 4: "ENUM", 5: "DECIMAL", 6: "DATE", 7: "TIME",
    8: "TIMESTAMP", 10: "INTEGER", 11: "UNKNOWN", 12: "JSON", 13: "BSON", 14: "UUID",
    15: "FLOAT16", 16: "VARIANT", 17: "GEOMETRY", 18: "GEOGRAPHY",
  ]

  static func castHint(_ column: String) -> String {
    let name = "'\(Excerpt.text(column))'"
    return "cast it to double or string before writing: "
      + "df.withColumn(\(name), F.col(\(name)).cast('double'))."
  }

  /// The schema's columns in file order.
  ///
  /// - Throws: `ParquetError.unsupported` for a nested or repeated column or a type not read,
  ///   `.damaged` for a schema whose counts do not add up or that names a column twice.
  static func leaves(_ schema: [ParquetFooter.SchemaElement], file: String) throws -> [Leaf] {
    guard let root = schema.first, let children = root.childCount, children >= 0 else {
      throw ParquetError.damaged(file: file, column: nil, reason: "its schema has no root")
    }
    var leaves: [Leaf] = []
    var names = Set<String>()
    for element in schema.dropFirst() {
      // Every writer names each column and gives a leaf a type: a footer whose bytes were
      // overwritten decodes to elements with neither.
      if element.name.isEmpty || ((element.childCount ?? 0) == 0 && element.type == nil) {
        throw ParquetError.damaged(
          file: file, column: element.name.isEmpty ? nil : element.name,
          reason: "its footer (the schema at the end of the file) is damaged: a column has "
            + (element.name.isEmpty ? "no name" : "neither a type nor columns of its own"))
      }
      if (element.childCount ?? 0) > 0 {
        throw ParquetError.unsupported(
          file: file, column: element.name, what: "it is nested (a struct, list or map)",
          hint: "write flat columns only: one number or string per row; select or explode "
            + "the nested column first.")
      }
      if element.repetition == 2 {
        throw ParquetError.unsupported(
          file: file, column: element.name, what: "it is repeated (a list)",
          hint: "write flat columns only: one number or string per row.")
      }
      guard names.insert(element.name).inserted else {
        throw ParquetError.damaged(file: file, column: element.name, reason: "it is named twice")
      }
      leaves.append(try leaf(element, file: file))
    }
    guard leaves.count == Int(children) else {
      throw ParquetError.damaged(
        file: file, column: nil,
        reason: "its schema's root has \(children) columns and the schema \(leaves.count)")
    }
    return leaves
  }

  private static func leaf(_ element: ParquetFooter.SchemaElement, file: String) throws -> Leaf {
    let type = element.type ?? -1
    let converted = element.convertedType
    let logical = element.logicalType
    func refuse() -> ParquetError {
      var what = typeNames.indices.contains(Int(type)) ? typeNames[Int(type)] : "type \(type)"
      if let logical {
        what += " (\(logicalTypeNames[logical] ?? "logical type \(logical)"))"
      } else if let converted {
        let known = convertedTypeNames.indices.contains(Int(converted))
        what += " (\(known ? convertedTypeNames[Int(converted)] : "converted type \(converted)"))"
      }
      return .unsupported(
        file: file, column: element.name, what: "it is of type \(what)",
        hint: castHint(element.name))
    }
    let physical: ParquetColumnReader.Physical
    switch type {
    case 1, 2:
      // Plain integers (INT_8...INT_64, UINT_8...UINT_64 or INTEGER), not dates or decimals.
      guard logical == nil || logical == 10, converted.map({ (11...18).contains($0) }) ?? true
      else { throw refuse() }
      let unsigned = converted.map { (11...14).contains($0) } ?? false || !element.logicalSigned
      physical = type == 1 ? .int32(unsigned: unsigned) : .int64(unsigned: unsigned)
    case 4, 5:
      guard logical == nil, converted == nil else { throw refuse() }
      physical = type == 4 ? .float : .double
    case 6:
      guard logical.map({ [1, 4, 12].contains($0) }) ?? true,
        converted.map({ [0, 4, 19].contains($0) }) ?? true
      else { throw refuse() }
      physical = .text
    default:
      throw refuse()
    }
    return Leaf(
      name: element.name, type: type, physical: physical, optional: element.repetition == 1)
  }
}
