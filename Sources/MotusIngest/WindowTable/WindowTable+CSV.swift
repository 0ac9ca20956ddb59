// A window table as CSV: `session,subject,label,purity,start_s,<feature names>`, one row per
// window. Rows are formatted in blocks on every core and handed over in order: the same bytes
// as `"\(value)"` row by row (GoldenOutputTests pin them), without a String per number.

import Foundation
import MotusData
import MotusFeatures
import MotusOutput

extension WindowTable {
  /// The header line, names quoted where CSV needs it.
  public var csvHeader: String {
    (["session", "subject", "label", "purity", "start_s"] + featureNames)
      .map(CSVText.field).joined(separator: ",") + "\n"
  }

  /// Hands the header, then every row's text, to `write` in order, a few thousand rows at a
  /// time (formatting one batch on every core).
  public func writeCSV(_ write: ([UInt8]) throws -> Void) throws {
    try write(Array(csvHeader.utf8))
    let rowsPerBlock = 512
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    var first = 0
    while first < windowCount {
      let count = min(windowCount - first, rowsPerBlock * 4 * cores)
      let batchStart = first
      let blocks = parallelMap(
        count: (count + rowsPerBlock - 1) / rowsPerBlock, parallelism: cores
      ) { block in
        let lower = batchStart + block * rowsPerBlock
        return csvRows(lower..<min(lower + rowsPerBlock, batchStart + count))
      }
      for text in blocks { try write(text) }
      first += count
    }
  }

  /// CSV text of the rows in `range`.
  func csvRows(_ range: Range<Int>) -> [UInt8] {
    let columns = features.columnCount
    var text = TextBuffer(capacity: range.count * (columns * 12 + 64))
    features.values.withUnsafeBufferPointer { values in
      for row in range {
        text.append(CSVText.field(session(at: row)))
        text.append(UInt8(ascii: ","))
        text.append(CSVText.field(subject(at: row)))
        text.append(UInt8(ascii: ","))
        text.append(CSVText.field(label(at: row)))
        text.append(UInt8(ascii: ","))
        text.append(purity[row])
        text.append(UInt8(ascii: ","))
        text.append(startTimes[row])
        for value in values[(row * columns)..<((row + 1) * columns)] {
          text.append(UInt8(ascii: ","))
          text.append(value)
        }
        text.append(UInt8(ascii: "\n"))
      }
    }
    return text.bytes
  }
}
