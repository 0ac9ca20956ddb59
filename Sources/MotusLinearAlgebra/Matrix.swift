// A dense row-major Float matrix: the one tensor type of Motus. Pure Swift, so the inference
// path (features, models, streaming) builds on iOS without OpenBLAS; MotusBLAS adds the fast
// kernels for training.

/// A row-major `[rowCount, columnCount]` matrix of `Float`.
///
///     var x = Matrix(rowCount: 2, columnCount: 3)
///     x[1, 2] = 5
///     print(x.row(1))      // [0.0, 0.0, 5.0]
public struct Matrix: Sendable, Equatable, Codable {
  public private(set) var rowCount: Int
  public private(set) var columnCount: Int
  /// `rowCount * columnCount` values; element (i, j) is at `i * columnCount + j`.
  public var values: [Float]

  public init(rowCount: Int, columnCount: Int, repeating value: Float = 0) {
    precondition(rowCount >= 0 && columnCount >= 0, "negative shape \(rowCount)x\(columnCount)")
    self.rowCount = rowCount
    self.columnCount = columnCount
    self.values = [Float](repeating: value, count: rowCount * columnCount)
  }

  public init(rowCount: Int, columnCount: Int, values: [Float]) {
    precondition(
      values.count == rowCount * columnCount,
      "\(values.count) values do not fill \(rowCount)x\(columnCount)")
    self.rowCount = rowCount
    self.columnCount = columnCount
    self.values = values
  }

  /// Stacks equal-length rows.
  public init(rows: [[Float]]) {
    let columnCount = rows.first?.count ?? 0
    precondition(rows.allSatisfy { $0.count == columnCount }, "ragged rows")
    self.init(rowCount: rows.count, columnCount: columnCount, values: rows.flatMap { $0 })
  }

  public subscript(row: Int, column: Int) -> Float {
    get { values[row * columnCount + column] }
    set { values[row * columnCount + column] = newValue }
  }

  /// Appends `other`'s rows after these (in place when this matrix's storage is not shared).
  public mutating func appendRows(_ other: Matrix) {
    precondition(
      other.columnCount == columnCount,
      "appended rows have \(other.columnCount) columns, these \(columnCount)")
    values += other.values
    rowCount += other.rowCount
  }

  public func row(_ i: Int) -> [Float] {
    Array(values[(i * columnCount)..<((i + 1) * columnCount)])
  }

  /// The rows at `indices`, in that order.
  public func rows(_ indices: some Collection<Int>) -> Matrix {
    var out = [Float]()
    out.reserveCapacity(indices.count * columnCount)
    for i in indices { out.append(contentsOf: values[(i * columnCount)..<((i + 1) * columnCount)]) }
    return Matrix(rowCount: indices.count, columnCount: columnCount, values: out)
  }

  public var transposed: Matrix {
    var out = Matrix(rowCount: columnCount, columnCount: rowCount)
    for i in 0..<rowCount {
      for j in 0..<columnCount { out.values[j * rowCount + i] = values[i * columnCount + j] }
    }
    return out
  }
}
