// A window table as a file format holds it: named columns of text and numbers, before any
// check against its spec. One conformance per format (`WindowTableCSV`; a Parquet reader
// conforms the same way), and one rule that turns any of them into a `WindowTable`
// (`WindowTable.init(columns:spec:specFile:)`), so that every format gets the same checks,
// the same row order and the same training.

/// Named columns, `rowCount` cells each, in the file's row order.
public protocol WindowTableColumns {
  /// The file as errors name it.
  var file: String { get }
  var columnNames: [String] { get }
  var rowCount: Int { get }
  /// Column `index` as text; nil for a missing cell (a Parquet null).
  func strings(_ index: Int) throws -> [String?]
  /// Column `index` as numbers; nil for an empty or missing cell.
  ///
  /// - Throws: `WindowTableError.nonNumeric` naming a cell that is not a number.
  func doubles(_ index: Int) throws -> [Double?]
  /// Columns `indices` as `[rowCount, indices.count]` row-major Floats, each value the Float
  /// the writer printed (a Float's shortest text read as a Float, never through a Double: that
  /// can round twice and land on the neighbouring Float).
  ///
  /// - Throws: `WindowTableError.nonNumeric` or `.emptyCell` naming the cell. Non-finite
  ///   values are returned as they are; the caller refuses them.
  func floats(_ indices: [Int]) throws -> [Float]
  /// Where the cell at `row` (0-based, file order) and column `index` is, for an error:
  /// `windows.csv:12:7 ('|acceleration|:std')`.
  func place(row: Int, column index: Int) -> String
}
