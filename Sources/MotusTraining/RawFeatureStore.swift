// The raw feature table while the fit works on standardised copies of it. The held-out fit needs
// the raw rows only to build its two parts and the refit only to re-standardise them, so they go
// to an unlinked temporary file in between: memory holds one table instead of two (the raw one
// beside its standardised copy). Rows come back bit for bit, so the fit is the same either way.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation
import MotusData
import MotusIngest
import MotusLinearAlgebra
import MotusOutput

/// Holds a `[N, F]` table on disk (or, when no file can be written, in memory) and hands out its
/// rows.
final class RawFeatureStore {
  /// Where spill files go; `nil` keeps tables in memory (tests set it to compare the two).
  nonisolated(unsafe) static var directory: String? =
    FileManager.default.temporaryDirectory.path

  let rowCount: Int
  let columnCount: Int
  private let inMemory: Matrix?
  private let descriptor: Int32
  private let spillDirectory: String

  /// Takes `table` over: it is written out and `table` is left empty, so its storage is freed
  /// when the caller held no other reference. Falls back to keeping it in memory when the file
  /// cannot be written (no space, no temporary folder): only the peak memory differs.
  init(taking table: inout Matrix) {
    rowCount = table.rowCount
    columnCount = table.columnCount
    if let directory = Self.directory, let descriptor = Self.spill(table, to: directory) {
      (self.descriptor, spillDirectory, inMemory) = (descriptor, directory, nil)
    } else {
      (descriptor, spillDirectory, inMemory) = (-1, "", table)
    }
    table = Matrix(rowCount: 0, columnCount: columnCount)
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Whether the table went to disk.
  var isSpilled: Bool { descriptor >= 0 }

  /// The rows at `indices`, in that order (as `Matrix.rows`); consecutive indices are read in
  /// one call.
  func rows(_ indices: [Int]) throws -> Matrix {
    if let inMemory { return inMemory.rows(indices) }
    var out = Matrix(rowCount: indices.count, columnCount: columnCount)
    let rowBytes = columnCount * MemoryLayout<Float>.stride
    try out.values.withUnsafeMutableBytes { destination in
      var k = 0
      while k < indices.count {
        var run = 1
        while k + run < indices.count && indices[k + run] == indices[k] + run { run += 1 }
        try read(
          into: UnsafeMutableRawBufferPointer(
            rebasing: destination[(k * rowBytes)..<((k + run) * rowBytes)]),
          offset: indices[k] * rowBytes)
        k += run
      }
    }
    return out
  }

  /// The whole table.
  func all() throws -> Matrix {
    if let inMemory { return inMemory }
    var out = Matrix(rowCount: rowCount, columnCount: columnCount)
    try out.values.withUnsafeMutableBytes { try read(into: $0, offset: 0) }
    return out
  }

  /// Reads back what `spill` wrote (the file is unlinked: only a failing disk stops this).
  private func read(into buffer: UnsafeMutableRawBufferPointer, offset: Int) throws {
    var done = 0
    while done < buffer.count {
      let n = pread(
        descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else {
        throw TrainingError.spilledTableUnreadable(
          directory: spillDirectory, errno: n < 0 ? errno : EIO)
      }
      done += n
    }
  }

  /// An open, already unlinked file in `directory` holding `table`'s values; nil on any
  /// failure (nothing is left behind).
  private static func spill(_ table: Matrix, to directory: String) -> Int32? {
    var template = Array((directory + "/motus-features.XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { return nil }
    // Unlinked at once: the space is freed when the descriptor closes, even after a crash.
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    guard table.values.withUnsafeBytes({ writeAll(descriptor, $0) }) else {
      close(descriptor)
      return nil
    }
    return descriptor
  }
}
