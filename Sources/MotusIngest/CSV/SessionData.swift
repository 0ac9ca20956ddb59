import Foundation
import MotusData

/// Rows of one CSV session, row-major, as parsed. NaN marks an empty (missing) cell.
struct SessionData: Sendable {
  let name: Int32
  let fileIndex: Int
  let subject: Int32
  var timestamps: [Double] = []
  /// `values[row * rawCount + c]`.
  var values: [Float] = []
  /// Interned raw label per row; -1 for an empty label cell.
  var labels: [Int32] = []
}
