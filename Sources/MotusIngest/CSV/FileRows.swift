import Foundation
import MotusData

/// One file's progress through its rows.
struct FileRows {
  let layout: RowLayout
  let fileIndex: Int
  /// The line number of the next row to parse.
  var line: Int
  /// This file's sessions -> index in `LoadState.sessions`.
  var sessionSlot: [Int32: Int] = [:]
  /// The index in `LoadState.sessions` of the session of the last row merged.
  var lastSlot = 0
  var count = 0
  var missing: [Int]

  init(layout: RowLayout, fileIndex: Int, line: Int) {
    self.layout = layout
    self.fileIndex = fileIndex
    self.line = line
    missing = [Int](repeating: 0, count: layout.rawCount)
  }
}
