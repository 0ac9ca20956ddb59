// Everything that can be wrong with a Parquet window table. Each case names the file (and the
// column when there is one) and its description ends with a "HINT: ..." line.

import MotusData

/// A Parquet file or folder that cannot be read as a flat table.
public enum ParquetError: Error, Equatable, CustomStringConvertible {
  /// The system could not read it (`InputFile`'s reason: a folder, a kernel file, too large).
  case unreadable(file: String, reason: String)
  /// A folder with no `*.parquet` part, or an entry that is not a part file.
  case notATable(folder: String, reason: String, hint: String)
  /// Too short, or without the `PAR1` magic at both ends.
  case notParquet(file: String, reason: String)
  /// A length, offset, count or encoding that does not fit the file; `column` when known.
  case damaged(file: String, column: String?, reason: String)
  /// A page whose bytes do not have the CRC-32 its header gives: `page` counts the column
  /// chunk's pages from 1, `offset` is where its bytes begin in the file.
  case checksumMismatch(file: String, column: String, page: Int, offset: Int)
  /// Valid Parquet this reader does not read: a codec, an encoding, a type, a nested column.
  case unsupported(file: String, column: String?, what: String, hint: String)
  /// More values than memory allows.
  case tooLarge(file: String, values: Int, limit: Int)
  /// Two parts of one folder whose columns differ; `difference` says where.
  case partsDiffer(first: String, second: String, difference: String)
  case missingColumn(file: String, column: String, available: [String])
  /// A column asked for as numbers holds text, or the other way round.
  case wrongKind(file: String, column: String, holds: String, asked: String)

  public var description: String {
    switch self {
    case .unreadable(let file, let reason):
      return "\(file): cannot read (\(reason)). HINT: check the path."
    case .notATable(let folder, let reason, let hint):
      return "\(folder): \(reason). HINT: \(hint)"
    case .notParquet(let file, let reason):
      return "\(file): not a Parquet file (\(reason)). HINT: give the .parquet file or the "
        + "folder Spark wrote (df.write.parquet(...)); a file cut short by an interrupted copy "
        + "must be copied again."
    case .damaged(let file, let column, let reason):
      return "\(file)\(Self.naming(column)): the Parquet file is damaged: \(reason). HINT: "
        + "write or copy it again; a file cut short by an interrupted copy reads like this."
    case .checksumMismatch(let file, let column, let page, let offset):
      return "\(file)\(Self.naming(column)): page \(page) of a column chunk (its bytes at "
        + "offset \(offset)) does not match the CRC-32 its header gives: the file was changed "
        + "after it was written. HINT: copy or write the file again from its source; a bad "
        + "disk, memory or transfer changes bytes like this."
    case .unsupported(let file, let column, let what, let hint):
      return "\(file)\(Self.naming(column)): \(what), which motus does not read. HINT: \(hint)"
    case .tooLarge(let file, let values, let limit):
      return "\(file): the table holds \(values) values, more than the \(limit) that fit in "
        + "memory here. HINT: read fewer recordings at a time."
    case .partsDiffer(let first, let second, let difference):
      return "\(second): its columns are not those of \(first) (\(difference)). HINT: every "
        + "part of a folder must come from one frame; remove the stray part or write the "
        + "table again."
    case .missingColumn(let file, let column, let available):
      return "\(file): no column '\(Excerpt.text(column))'; it has \(Excerpt.list(available)). "
        + "HINT: check the column name (window tables from `motus features` have recording, "
        + "session, subject, label, purity, start_s and the features)."
    case .wrongKind(let file, let column, let holds, let asked):
      return "\(file): column '\(Excerpt.text(column))' holds \(holds), not \(asked). HINT: "
        + "cast it in Spark before writing (F.col('\(Excerpt.text(column))').cast(...))."
    }
  }

  private static func naming(_ column: String?) -> String {
    column.map { ": column '\(Excerpt.text($0))'" } ?? ""
  }
}
