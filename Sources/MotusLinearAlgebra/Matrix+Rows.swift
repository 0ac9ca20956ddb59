// Broadcasting a length-F vector over the rows of a row-major [N, F] Float matrix: the bias of
// a linear layer's forward pass.

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
}
