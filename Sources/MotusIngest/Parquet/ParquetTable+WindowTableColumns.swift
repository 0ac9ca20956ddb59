// A Parquet window table (the Spark job's `OUT/features`, a folder of part files) as the
// columns `WindowTable` checks and puts in training order, so a cluster's table trains as the
// CSV `motus features` writes would. Features come back as the Float Parquet holds: the job
// writes them as FLOAT, motus's own float32, so the model's bytes are those of training from
// the recordings; a DOUBLE feature column (another writer's) is narrowed to the nearest Float.

import MotusData

extension ParquetTable: WindowTableColumns {
  public var file: String { InputFile.displayName(path) }

  // By name, so a column of the other kind is `ParquetError.wrongKind` naming it.
  public func strings(_ index: Int) throws -> [String?] { try strings(columnNames[index]) }

  public func doubles(_ index: Int) throws -> [Double?] { try doubles(columnNames[index]) }

  public func floats(_ indices: [Int]) throws -> [Float] {
    let sources = try indices.map { try doubles($0) }
    var out: [Float] = []
    out.reserveCapacity(rowCount * indices.count)
    for row in 0..<rowCount {
      for (j, column) in sources.enumerated() {
        guard let value = column[row] else {
          throw WindowTableError.emptyCell(at: place(row: row, column: indices[j]))
        }
        out.append(Float(value))
      }
    }
    return out
  }

  /// `OUT/features, row 12, column '|acceleration|:std'` (rows counted from 1 over the parts
  /// in name order).
  public func place(row: Int, column index: Int) -> String {
    "\(file), row \(row + 1), column '\(Excerpt.text(columnNames[index], limit: 80))'"
  }
}
