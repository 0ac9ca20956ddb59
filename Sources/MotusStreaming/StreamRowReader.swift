// The line parser of `motus stream`: a header line fixes the columns (time, session, the
// model's inputs adapted by `InputAdapter`), then each line becomes one sample or a counted
// skip whose error names the file, line and column. Values are held to the bounds batch
// loading applies (`Limits`), so a cell of 1e30 or NaN never reaches the engine's features.

import MotusData
import MotusModels

/// Reads CSV lines into samples for a model.
///
///     var reader = try StreamRowReader(header: Array(line.utf8), file: "<stdin>", model: m)
///     var values = [Float](repeating: 0, count: reader.inputs.count)
///     switch values.withUnsafeMutableBufferPointer({ reader.read(Array(next.utf8), into: $0) })
///     { case .sample(let time, let session): ...; case .blank: break; case .skipped(let e): ... }
public struct StreamRowReader: Sendable {
  /// What one line gave.
  public enum Row: Sendable, Equatable {
    /// `values` was filled (NaN for an empty cell); `session` is the session column's value.
    case sample(time: Double, session: String?)
    case blank
    /// The line was left out; the error names where and why.
    case skipped(CSVError)
  }

  public let file: String
  /// Raw inputs of the model, in the order `read` writes them (`ChannelSelector.rawInputs`).
  public let inputs: [String]
  /// How each input is made from the file's columns.
  public let adapter: InputAdapter
  private var parser: CSVRowParser
  private let timeIndex: Int
  private let sessionIndex: Int?
  /// Scratch for `read(bytes:into:)`: field end offsets, and the last session's text.
  private var fieldEnds: [Int] = []
  private var lastSession: (bytes: [UInt8], text: String)?

  /// Parses the header and resolves every model input against it.
  ///
  /// - Parameters:
  ///   - header: The first line's bytes (without its line end).
  ///   - timeColumn: Name of the time column (seconds).
  ///   - negateAcceleration: The file's raw acceleration is in Android sign.
  /// - Throws: `CSVError` (not text, empty, duplicate or missing column),
  ///   `InputAdapterError` (a model input the file cannot provide).
  public init(
    header: [UInt8], file: String, model: TrainedModel, timeColumn: String = "timestamp",
    negateAcceleration: Bool = false
  ) throws {
    if let encoding = TextEncoding.problem(header) {
      throw CSVError.notText(file: file, encoding: encoding)
    }
    let parser = try CSVRowParser(
      headerLine: String(decoding: header, as: UTF8.self), file: file)
    let recipes = model.featureSpec.recipes
    let inputs = ChannelSelector.rawInputs(of: recipes)
    self.file = file
    self.inputs = inputs
    self.parser = parser
    timeIndex = try parser.requireColumn(timeColumn, option: "--time-column")
    sessionIndex = parser.column("session")
    adapter = try InputAdapter(
      modelInputs: inputs, header: parser.header, file: file,
      negateAcceleration: negateAcceleration,
      modelNegatesAcceleration: InputAdapter.modelNegatesAcceleration(recipes))
  }

  /// The 1-based line number the next `read` is given.
  public var nextLine: Int { parser.nextLine }

  /// Parses one line (without its line end) into `values` (`inputs.count` of them).
  /// - Complexity: O(line length).
  public mutating func read(_ line: [UInt8], into values: UnsafeMutableBufferPointer<Float>)
    -> Row
  {
    let row: CSVRow
    do {
      guard let parsed = try parser.parse(String(decoding: line, as: UTF8.self)) else {
        return .blank
      }
      row = parsed
    } catch let error as CSVError {
      return .skipped(error)
    } catch {
      return .skipped(.unreadable(file: file, reason: "\(error)"))
    }
    do {
      guard let time = try checked(row, timeIndex, limit: Limits.timeMagnitude, isTime: true)
      else {
        return .skipped(
          .emptyCell(
            at: CSVLocation(
              file: file, line: row.line, column: timeIndex + 1,
              columnName: row.header[timeIndex])))
      }
      try adapter.apply(
        { try checked(row, $0, limit: Limits.channelMagnitude, isTime: false) }, into: values)
      return .sample(time: time, session: sessionIndex.map { row.fields[$0] })
    } catch let error as CSVError {
      return .skipped(error)
    } catch {
      return .skipped(.unreadable(file: file, reason: "\(error)"))
    }
  }

  /// `read(_:into:)` without a String per line or per field: a plain line (no quotes, every
  /// value a finite number within bounds) is read in place; any other goes to `read(_:into:)`,
  /// which gives the same result and error as before.
  public mutating func read(bytes line: UnsafeBufferPointer<UInt8>, into values: UnsafeMutableBufferPointer<Float>)
    -> Row
  {
    guard parser.splitPlainLine(line, ends: &fieldEnds), let time = readPlain(line, into: values)
    else { return read(Array(line), into: values) }
    parser.acceptPlainLine()
    return .sample(time: time, session: sessionIndex.map { session(line, column: $0) })
  }

  private struct NeedsFullParse: Error {}

  /// The time of a plain line with its values in `values`; nil when `read` must decide.
  private func readPlain(_ line: UnsafeBufferPointer<UInt8>, into values: UnsafeMutableBufferPointer<Float>) -> Double? {
    let ends = fieldEnds
    func number(_ column: Int, limit: Double) throws -> Double? {
      let start = column == 0 ? 0 : ends[column - 1] + 1
      guard let v = CSVRowParser.number(in: line, from: start, to: ends[column]) else { return nil }
      guard abs(v) <= limit else { throw NeedsFullParse() }  // NaN too
      return v
    }
    do {
      guard let time = try number(timeIndex, limit: Limits.timeMagnitude) else { return nil }
      try adapter.apply({ try number($0, limit: Limits.channelMagnitude) }, into: values)
      return time
    } catch {
      return nil
    }
  }

  /// The session cell's text, kept while it repeats.
  private mutating func session(_ line: UnsafeBufferPointer<UInt8>, column: Int) -> String {
    let start = column == 0 ? 0 : fieldEnds[column - 1] + 1
    let bytes = UnsafeBufferPointer(rebasing: line[start..<fieldEnds[column]])
    if let last = lastSession, last.bytes.elementsEqual(bytes) { return last.text }
    let text = String(decoding: bytes, as: UTF8.self)
    lastSession = (Array(bytes), text)
    return text
  }

  /// The number in `column` (nil when empty), within `limit`.
  private func checked(_ row: CSVRow, _ column: Int, limit: Double, isTime: Bool) throws
    -> Double?
  {
    try row.number(at: column, limit: limit, isTime: isTime)
  }
}
