// `motus stream` on a phone-app export: the recording is converted to the long layout (as
// every other command reads it) and streamed from a temporary copy, so the stream sees the
// same channels, units and clock as `evaluate`.

import Foundation
import Motus

enum StreamAppInput {
  /// A reader of `input`: the file itself, or the long-layout conversion of the phone-app
  /// recording it is (a Sensor Logger or phyphox folder, or an app CSV), the conversion
  /// notes and the warnings among them. Standard input and long-layout files are read as
  /// they are.
  static func open(_ input: String, gapRule: GapRule) throws -> (
    reader: LineReader, notes: [String], warnings: [String]
  ) {
    var input = input
    // A folder holding one app CSV (as SensorLog and Physics Toolbox recordings are kept).
    if InputFile.kind(input) == .folder, try AppExport.recognise(path: input) == nil,
      let names = try? FileManager.default.contentsOfDirectory(atPath: input),
      case let csv = names.filter(InputFile.isCSVName), csv.count == 1
    {
      input = (input as NSString).appendingPathComponent(csv[0])
    }
    guard input != InputFile.standardInputPath, try AppExport.recognise(path: input) != nil,
      try InputFile.kind(input) == .folder || DatasetLoader.isAppFile(input, options: LoadOptions())
    else { return (try LineReader(path: input), [], []) }
    let recording: AppExportRecording = try AppExport.read(
      path: input, label: LoadOptions.unlabelled, gapRule: gapRule)
    let copy = FileManager.default.temporaryDirectory
      .appendingPathComponent("motus-stream-\(UUID().uuidString).csv").path
    guard FileManager.default.createFile(atPath: copy, contents: Data(recording.longLayout()))
    else {
      throw ToolError(
        "\(input): cannot write its long-layout copy to \(copy).",
        hint: "check that the temporary folder (TMPDIR) is writable.")
    }
    // Open, then remove: the open file stays readable and nothing is left behind.
    defer { try? FileManager.default.removeItem(atPath: copy) }
    let warnings = Set(recording.warnings)
    return (
      try LineReader(path: copy, displayName: input),
      recording.notes.filter { !warnings.contains($0) },
      recording.warnings
    )
  }
}
