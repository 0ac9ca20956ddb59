// Row-wise helpers on a row-major [N, F] Float matrix: broadcasting a length-F vector over the
// rows and summing columns (the bias forward and backward of a linear layer).

extension Matrix {
  /// Adds `vector` (length `columnCount`) to every row.
  /// - Complexity: O(*N F*).
  public mutating func addRowVector(_ vector: [Float]) {
    precondition(
      vector.count == columnCount, "vector has \(vector.count) values, rows have \(columnCount)")
    let f = columnCount
    values.withUnsafeMutableBufferPointer { v in
      for i in 0..<rowCount {
        for j in 0..<f { v[i * f + j] += vector[j] }
      }
    }
  }

  /// A copy with `vector` added to every row.
  public func addingRowVector(_ vector: [Float]) -> Matrix {
    var out = self
    out.addRowVector(vector)
    return out
  }

  /// The sum of each column, length `columnCount`.
  public func columnSums() -> [Float] {
    var sums = [Float](repeating: 0, count: columnCount)
    for i in 0..<rowCount {
      for j in 0..<columnCount { sums[j] += values[i * columnCount + j] }
    }
    return sums
  }

  /// The `[n, n]` identity matrix.
  public static func identity(_ n: Int) -> Matrix {
    var m = Matrix(rowCount: n, columnCount: n)
    for i in 0..<n { m[i, i] = 1 }
    return m
  }
}
