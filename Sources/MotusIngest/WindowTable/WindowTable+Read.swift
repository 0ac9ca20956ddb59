// A window table read back from a file, checked against the spec it was written with, in the
// order training takes it. `motus train --windows TABLE --spec SPEC` trains on it exactly as
// `motus train DATA --augment 0` trains on the windows `motus features DATA` wrote: the rows,
// their order, labels, sessions and subjects are all training reads of the data.

import MotusData
import MotusGzip
import MotusFeatures
import MotusLinearAlgebra

extension WindowTable {
  /// Columns that name or place a window; every other column of a table is a feature.
  /// `recording` (a cluster's table: the recording's path under the cohort's folder) and
  /// `window` (the window's number within its recording, from 0) are optional.
  public static let textColumnNames = [
    "recording", "window", "session", "subject", "label", "purity", "start_s",
  ]

  /// Reads the table at `path` and checks it against `spec` (see `init(columns:spec:specFile:)`).
  ///
  /// - Throws: `WindowTableError` naming the file and the place.
  public static func read(
    _ path: String, spec: WindowTableSpec, specFile: String
  ) throws -> WindowTable {
    try WindowTable(columns: columns(of: path), spec: spec, specFile: specFile)
  }

  /// The columns of the table at `path`, by format: Parquet (a `.parquet` file, a file that
  /// starts with Parquet's magic bytes, or a folder of parts as Spark writes them) through
  /// `ParquetTable.read`, else CSV. Everything after (checks, order, training) is shared.
  static func columns(of path: String) throws -> any WindowTableColumns {
    if isParquet(path) { return try ParquetTable.read(path) }
    return try WindowTableCSV(path)
  }

  private static func isParquet(_ path: String) -> Bool {
    if path.lowercased().hasSuffix(".parquet") { return true }
    switch InputFile.kind(path) {
    case .folder: return true
    case .regularFile: return (try? InputFile.readTextPrefix(path, count: 4)) == Array("PAR1".utf8)
    default: return false  // standard input and pipes are read once, as CSV
    }
  }

  /// The table `columns` hold, checked against `spec`, rows in training order.
  ///
  /// Checks: the columns `session`, `subject`, `label`, `purity`, `start_s` are there; the
  /// other columns (features) are exactly `spec.featureSpec.featureNames`, in order; every
  /// feature is a finite number within `Limits.featureMagnitude`; labels are not empty; purity
  /// is in `spec.minimumPurity...1`; the row count is `spec.windowCount` when the spec gives
  /// one; no recording comes back after others; within a recording, windows start about the
  /// spec's hop apart (`checkTiming`), so a repeated or missing row, or an edited rate or hop,
  /// is refused.
  ///
  /// Row order: the file's, when there is no `recording` column. With one, recordings are
  /// put in `RecordingOrder` (how motus reads a folder), each keeping its rows' order, or
  /// the order of its `window` column when there is one; without a window column a
  /// recording's rows must be contiguous. Recordings are the runs of rows of one
  /// (recording, session, subject); labels are the rows' labels in natural order (as a load's
  /// vocabulary is, so training's classes come in the same order). A row's `starts` entry is
  /// its start in samples from its recording's first window in the table.
  ///
  /// - Throws: `WindowTableError` naming the file and the place.
  public init(columns: some WindowTableColumns, spec: WindowTableSpec, specFile: String) throws {
    let names = columns.columnNames
    func index(_ name: String) throws -> Int {
      guard let i = names.firstIndex(of: name) else {
        throw WindowTableError.missingColumn(name: name, file: columns.file, available: names)
      }
      return i
    }
    let (sessionColumn, subjectColumn, labelColumn) = (
      try index("session"), try index("subject"), try index("label")
    )
    let (purityColumn, startColumn) = (try index("purity"), try index("start_s"))
    let textNames = Set(Self.textColumnNames)
    let featureColumns = names.indices.filter { !textNames.contains(names[$0]) }
    try Self.checkFeatures(
      featureColumns.map { names[$0] }, spec: spec.featureSpec, file: columns.file, specFile: specFile)
    let rowCount = columns.rowCount
    if let expected = spec.windowCount, expected != rowCount {
      throw WindowTableError.windowCountDiffers(
        file: columns.file, specFile: specFile, table: rowCount, spec: expected)
    }
    let order = try Self.trainingOrder(columns)
    func text(_ column: Int, emptyAllowed: Bool) throws -> [String] {
      let cells = try columns.strings(column)
      return try order.map { row in
        guard let cell = cells[row], emptyAllowed || !cell.isEmpty else {
          throw WindowTableError.emptyCell(at: columns.place(row: row, column: column))
        }
        return cell
      }
    }
    let sessions = try text(sessionColumn, emptyAllowed: true)
    let subjects = try text(subjectColumn, emptyAllowed: true)
    let rowLabels = try text(labelColumn, emptyAllowed: false)
    let recordings = try Self.recordingColumn(columns).map { cells in order.map { cells[$0] } }

    let purityValues = try Self.purity(
      columns, column: purityColumn, minimum: spec.minimumPurity, specFile: specFile)
    let startCells = try Self.startTimes(columns, column: startColumn)
    var values = try Self.features(columns, featureColumns)
    if order != Array(0..<rowCount) { values = Self.rows(values, order, featureColumns.count) }

    // A load's vocabulary is in natural order; names it calls equal go by their bytes.
    let vocabulary = Set(rowLabels).sorted(by: RecordingOrder.precedesName)
    let labelIndex = Dictionary(uniqueKeysWithValues: vocabulary.enumerated().map { ($1, Int32($0)) })
    self.init(
      features: Matrix(rowCount: rowCount, columnCount: featureColumns.count, values: values),
      featureNames: featureColumns.map { names[$0] },
      labelIndices: rowLabels.map { labelIndex[$0] ?? 0 },
      purity: order.map { purityValues[$0] }, recordingIndices: [], starts: [],
      startTimes: order.map { startCells[$0] ?? 0 }, labels: vocabulary,
      recordingSessions: [], recordingSubjects: [], skippedRecordingCount: 0,
      droppedImpureCount: 0)
    assignRecordings(
      recordings: recordings, sessions: sessions, subjects: subjects,
      rateHz: spec.featureSpec.sampleRateHz)
    try checkRecordingsOnce(columns, order: order, column: sessionColumn, recordings: recordings)
    try checkTiming(columns, order: order, column: startColumn, spec: spec, specFile: specFile)
  }

  /// Refuses a recording (a run of rows of one session and subject, and recording when the
  /// table has that column) that comes back after others: a table appended twice, or rows
  /// moved. `motus features` names each recording's session uniquely, so its runs never do.
  private func checkRecordingsOnce(
    _ columns: some WindowTableColumns, order: [Int], column: Int, recordings: [String]?
  ) throws {
    var firstRow: [[String]: Int] = [:]
    for row in 0..<windowCount where row == 0 || recordingIndices[row] != recordingIndices[row - 1]
    {
      let r = recordingIndices[row]
      let key = [recordingSessions[r], recordingSubjects[r], recordings?[row] ?? ""]
      if let earlier = firstRow[key] {
        throw WindowTableError.recordingSplit(
          recording: recordings?[row] ?? recordingSessions[r],
          at: columns.place(row: order[row], column: column),
          earlier: columns.place(row: order[earlier], column: column))
      }
      firstRow[key] = row
    }
  }

  /// Refuses a window that does not start about the spec's hop (`hopLength / sampleRateHz`
  /// seconds) after the one before it in its recording: a repeated row (no step), a missing
  /// one (two hops), or a spec whose rate or hop was edited. A recording read at its own
  /// rate has jitter and bridged gaps (`GapRule`: up to a quarter second a step), so a step
  /// may be from half a hop (less half a sample) to one and a half hops plus a quarter
  /// second; where the spec's minimum purity dropped windows, any longer step too.
  private func checkTiming(
    _ columns: some WindowTableColumns, order: [Int], column: Int, spec: WindowTableSpec,
    specFile: String
  ) throws {
    let rate = spec.featureSpec.sampleRateHz
    let hop = Double(spec.featureSpec.hopLength) / rate
    let dropsAllowed = spec.minimumPurity > 0
    let shortest = 0.5 * hop - 0.5 / rate
    let longest = dropsAllowed ? .infinity : 1.5 * hop + GapRule.defaultMinimumGapSeconds
    for row in 1..<max(windowCount, 1) where recordingIndices[row] == recordingIndices[row - 1] {
      let step = startTimes[row] - startTimes[row - 1]
      if step > 0, step >= shortest, step <= longest { continue }
      throw WindowTableError.windowTiming(
        recording: recordingSessions[recordingIndices[row]],
        at: columns.place(row: order[row], column: column), step: step, hop: hop,
        dropsAllowed: dropsAllowed, specFile: specFile)
    }
  }

  /// Each row's purity, in file order: finite, within 0...1 and not below the spec's minimum.
  private static func purity(
    _ columns: some WindowTableColumns, column: Int, minimum: Float, specFile: String
  ) throws -> [Float] {
    let values = try columns.floats([column])
    for (row, p) in values.enumerated() {
      let at = { columns.place(row: row, column: column) }
      guard p.isFinite else { throw WindowTableError.nonFinite(text: "\(p)", at: at()) }
      guard (0...1).contains(p) else { throw WindowTableError.purityOutOfRange(value: p, at: at()) }
      guard p >= minimum else {
        throw WindowTableError.purityBelowMinimum(
          value: p, minimum: minimum, at: at(), specFile: specFile)
      }
    }
    return values
  }

  /// Each row's start in seconds, in file order: present and finite.
  private static func startTimes(_ columns: some WindowTableColumns, column: Int) throws
    -> [Double?]
  {
    let cells = try columns.doubles(column)
    for (row, start) in cells.enumerated() {
      guard let start else {
        throw WindowTableError.emptyCell(at: columns.place(row: row, column: column))
      }
      guard start.isFinite else {
        throw WindowTableError.nonFinite(
          text: "\(start)", at: columns.place(row: row, column: column))
      }
    }
    return cells
  }

  /// The feature columns as `[rows, featureColumns.count]` Floats in file order, every one
  /// finite and within `Limits.featureMagnitude`, once the memory they need is known to be
  /// there.
  private static func features(_ columns: some WindowTableColumns, _ featureColumns: [Int])
    throws -> [Float]
  {
    try WindowTable.checkMemory(windowCount: columns.rowCount, featureCount: featureColumns.count)
    let values = try columns.floats(featureColumns)
    let limit = Float(Limits.featureMagnitude)
    if let bad = values.firstIndex(where: { !(abs($0) <= limit) }) {
      let (row, k) = bad.quotientAndRemainder(dividingBy: featureColumns.count)
      let at = columns.place(row: row, column: featureColumns[k])
      guard values[bad].isFinite else {
        throw WindowTableError.nonFinite(text: "\(values[bad])", at: at)
      }
      throw WindowTableError.outOfRange(
        text: "\(values[bad])", at: at, limit: Limits.featureMagnitude)
    }
    return values
  }

  /// Refuses feature columns that are not the spec's features, naming the first difference.
  static func checkFeatures(
    _ columns: [String], spec: FeatureSpec, file: String, specFile: String
  ) throws {
    let expected = spec.featureNames
    guard columns != expected else { return }
    let common = min(columns.count, expected.count)
    let k = (0..<common).first(where: { columns[$0] != expected[$0] }) ?? common
    throw WindowTableError.featureColumnsDiffer(
      file: file, specFile: specFile, position: k + 1,
      table: columns.indices.contains(k) ? columns[k] : nil,
      spec: expected.indices.contains(k) ? expected[k] : nil, tableCount: columns.count,
      specCount: expected.count)
  }

  /// The `recording` column's cells, when the table has one.
  private static func recordingColumn(_ columns: some WindowTableColumns) throws -> [String]? {
    guard let column = columns.columnNames.firstIndex(of: "recording") else { return nil }
    let cells = try columns.strings(column)
    return try cells.indices.map { row in
      guard let cell = cells[row] else {
        throw WindowTableError.emptyCell(at: columns.place(row: row, column: column))
      }
      return cell
    }
  }

  /// The file's rows in training order (see `init(columns:spec:specFile:)`).
  static func trainingOrder(_ columns: some WindowTableColumns) throws -> [Int] {
    guard let recordings = try recordingColumn(columns) else {
      return Array(0..<columns.rowCount)
    }
    let recordingColumn = columns.columnNames.firstIndex(of: "recording") ?? 0
    var rowsOf: [String: [Int]] = [:]
    var names: [String] = []
    var previous: String?
    for (row, name) in recordings.enumerated() {
      if name != previous, let earlier = rowsOf[name]?.first, columns.columnNames.firstIndex(
        of: "window") == nil
      {
        throw WindowTableError.recordingSplit(
          recording: name, at: columns.place(row: row, column: recordingColumn),
          earlier: columns.place(row: earlier, column: recordingColumn))
      }
      if rowsOf[name] == nil { names.append(name) }
      rowsOf[name, default: []].append(row)
      previous = name
    }
    if let windowColumn = columns.columnNames.firstIndex(of: "window") {
      let numbers = try columns.doubles(windowColumn)
      for name in names {
        var rows = rowsOf[name] ?? []
        for row in rows where numbers[row].map({ $0 >= 0 && $0 < 1e15 && $0.rounded() == $0 }) != true {
          throw WindowTableError.windowNumbering(
            recording: name, expected: 0, found: numbers[row].map { "\($0)" } ?? "(empty)",
            at: columns.place(row: row, column: windowColumn))
        }
        rows.sort { (numbers[$0] ?? 0, $0) < (numbers[$1] ?? 0, $1) }
        for (expected, row) in rows.enumerated() where numbers[row] != Double(expected) {
          throw WindowTableError.windowNumbering(
            recording: name, expected: expected, found: numbers[row].map { "\(Int($0))" } ?? "",
            at: columns.place(row: row, column: windowColumn))
        }
        rowsOf[name] = rows
      }
    }
    return names.sorted(by: RecordingOrder.precedes).flatMap { rowsOf[$0] ?? [] }
  }

  /// `values` (`[n, width]` row-major) with its rows in `order`.
  private static func rows(_ values: [Float], _ order: [Int], _ width: Int) -> [Float] {
    var out: [Float] = []
    out.reserveCapacity(values.count)
    for row in order { out.append(contentsOf: values[(row * width)..<((row + 1) * width)]) }
    return out
  }

  /// Recordings as runs of rows of one (recording, session, subject), and each row's start in
  /// samples from its recording's first row.
  private mutating func assignRecordings(
    recordings: [String]?, sessions: [String], subjects: [String], rateHz: Double
  ) {
    var first = 0.0
    for row in 0..<windowCount {
      let isNew =
        row == 0 || sessions[row] != sessions[row - 1] || subjects[row] != subjects[row - 1]
        || recordings.map { $0[row] != $0[row - 1] } == true
      if isNew {
        recordingSessions.append(sessions[row])
        recordingSubjects.append(subjects[row])
        first = startTimes[row]
      }
      recordingIndices.append(recordingSessions.count - 1)
      let samples = ((startTimes[row] - first) * rateHz).rounded()
      // Any finite start is allowed: only a count a sample index can hold is kept.
      starts.append(abs(samples) < 1e15 ? Int(samples) : 0)
    }
  }
}
