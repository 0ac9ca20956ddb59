// Where `motus stream` takes its rows from: CSV lines as they arrive, or a phone-app export.
// An export is converted as every other command converts it (MotusIngest's `AppExport`), and
// its samples go to the stream as they are: the columns pass through the adapter that the
// header of its long layout (`timestamp,session,subject,label,<channels>`) resolves, so the
// stream sees the same channels, units and clock as `evaluate`, and no text is written or
// parsed again.

import Foundation
import Motus

/// The rows of one input, resolved against a model's inputs.
struct StreamInput {
  /// Names the input in messages.
  let name: String
  /// The header resolved against the model: its `inputs` are the values each row fills.
  private(set) var rows: StreamRowReader
  /// A phone-app recording's conversion notes (warnings left out) and warnings.
  let notes: [String]
  let warnings: [String]
  private let source: Source
  private var nextSample = 0

  private enum Source {
    case lines(LineReader)
    case app(AppExportRecording)
  }

  /// Opens `input`: standard input or a long-layout CSV file read line by line, or the
  /// phone-app recording it is (a Sensor Logger or phyphox folder, an app CSV, or a folder
  /// holding one app CSV, as SensorLog and Physics Toolbox recordings are kept).
  ///
  /// - Throws: what `AppExport.read`, `LineReader` and `StreamRowReader` throw; `ToolError`
  ///   for a file without a header line.
  init(
    _ input: String, model: TrainedModel, columns: InputColumnOptions, gapRule: GapRule
  ) throws {
    let path = try Self.appRecordingPath(input)
    guard let path else {
      let reader = try LineReader(path: input)
      guard let header = try reader.next() else {
        throw ToolError(
          "\(reader.name): no header line.", hint: "the first line names the columns.")
      }
      // Derived and negated inputs are resolved once here, as ingestion does for training.
      rows = try StreamRowReader(
        header: header, file: reader.name, model: model, timeColumn: columns.timeColumn,
        negateAcceleration: columns.negateAcceleration)
      (name, source, notes, warnings) = (reader.name, .lines(reader), [], [])
      return
    }
    let recording = try AppExport.read(
      path: path, label: LoadOptions.unlabelled, gapRule: gapRule)
    // The header its long layout has: the same adapter, notes and errors as that text gives.
    rows = try StreamRowReader(
      header: Array(recording.longLayoutColumns.joined(separator: ",").utf8), file: path,
      model: model, timeColumn: columns.timeColumn,
      negateAcceleration: columns.negateAcceleration)
    guard columns.timeColumn == AppExportRecording.timeColumn else {
      throw ToolError(
        "\(path): --time-column \(columns.timeColumn) names no time of a phone-app recording.",
        hint: "leave --time-column out: the recording's clock is its '"
          + AppExportRecording.timeColumn + "'.")
    }
    let warnings = Set(recording.warnings)
    (name, source) = (path, .app(recording))
    notes = recording.notes.filter { !warnings.contains($0) }
    self.warnings = recording.warnings
  }

  /// `input` itself, or the one app CSV of a folder, when it is a phone-app recording; nil for
  /// standard input and long-layout files.
  private static func appRecordingPath(_ input: String) throws -> String? {
    var input = input
    if InputFile.kind(input) == .folder, try AppExport.recognise(path: input) == nil,
      let names = try? FileManager.default.contentsOfDirectory(atPath: input),
      case let csv = names.filter(InputFile.isCSVName), csv.count == 1
    {
      input = (input as NSString).appendingPathComponent(csv[0])
    }
    guard input != InputFile.standardInputPath, try AppExport.recognise(path: input) != nil,
      try InputFile.kind(input) == .folder || DatasetLoader.isAppFile(input, options: LoadOptions())
    else { return nil }
    return input
  }

  /// Called before each read that may wait for input (lines only: a recording never waits).
  func beforeRead(_ body: @escaping () -> Void) {
    if case .lines(let reader) = source { reader.beforeRead = body }
  }

  /// Fills `values` (`rows.inputs.count` of them) from the next row; nil at the end of the
  /// input or when a signal asked the stream to finish.
  ///
  /// - Throws: what `LineReader.nextLine` throws.
  mutating func next(into values: UnsafeMutableBufferPointer<Float>) throws
    -> StreamRowReader.Row?
  {
    switch source {
    case .lines(let reader):
      return try reader.nextLine { rows.read(bytes: $0, into: values) }
    case .app(let recording):
      guard nextSample < recording.timestamps.count, Interruption.requested == nil else {
        return nil
      }
      let t = nextSample
      nextSample += 1
      // Header column k >= leading holds channel k - leading; NaN is the empty cell it was.
      let leading = AppExportRecording.leadingColumns.count
      rows.adapter.apply(
        { column in
          guard column >= leading, case let v = recording.columns[column - leading][t], !v.isNaN
          else { return nil }
          return Double(v)
        }, into: values)
      return .sample(time: recording.timestamps[t], session: recording.name)
    }
  }
}
