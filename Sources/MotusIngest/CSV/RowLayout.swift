import Foundation
import MotusData

/// What a file's header fixes for every row: each field's role and where errors point.
struct RowLayout: Sendable {
  let file: String
  let header: [String]
  /// Per field: a channel slot (>= 0) or one of `LoadState`'s roles.
  let roles: [Int]
  let rawCount: Int
  let timeIndex: Int
  let subjectIndex: Int?
  let hasLabelColumn: Bool
  /// The session name of every row when the file has no session column.
  let fileSession: String?
  /// Beyond these a value is refused with its location; NaN fails the comparison too.
  let valueLimit: Double
  let timeLimit: Double

  func location(_ line: Int, _ column: Int) -> CSVLocation {
    CSVLocation(file: file, line: line, column: column + 1, columnName: header[column])
  }
}
