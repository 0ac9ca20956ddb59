// Reads a phone-app recording (a Sensor Logger or phyphox folder, or one SensorLog, phyphox,
// Physics Toolbox or AndroSensor CSV) into the long CSV layout the loader reads, so app data
// goes through the same channels, recipes, gap rule and resampling as every other source.

import Foundation

/// One phone-app recording, converted: the long-layout CSV and what was done to get it.
public struct AppExportRecording: Sendable {
  public var layout: AppExportLayout
  /// The folder or file as given.
  public var path: String
  /// Session and subject name: the folder name, or the file name without `.csv`.
  public var name: String
  /// Platform, device and app version, when the export says.
  public var platform: String?
  /// The common clock every sensor was interpolated onto (Hz).
  public var rateHz: Double
  /// The phone's own step count, when the recording has one.
  public var pedometer: PedometerReference?
  /// What was recognised, converted, joined and ignored, for the load report.
  public var notes: [String]
  /// `timestamp,session,subject,label,<channels>` rows, seconds from the recording start.
  public var longLayout: [UInt8]
}

/// Recognises and reads phone-app exports. See `AppExportLayout` for the layouts.
public enum AppExport {
  /// The layout of the folder or file at `path`, or nil when it is none of them. A folder is
  /// one recording only for Sensor Logger and phyphox (one file per sensor).
  public static func recognise(path: String) -> AppExportLayout? {
    switch InputFile.kind(path) {
    case .folder:
      let files = csvFiles(in: path)
      if SensorLoggerReader.recognises(folder: path, files: files) { return .sensorLogger }
      let headers = files.map { header(of: (path as NSString).appendingPathComponent($0)) }
      if !headers.isEmpty, headers.allSatisfy(PhyphoxReader.recognises) { return .phyphox }
      return nil
    case .regularFile:
      return recognise(header: header(of: path))
    default:
      return nil
    }
  }

  /// The layout a CSV header belongs to (first line, or second after `sep=`).
  static func recognise(header: [String]) -> AppExportLayout? {
    if SensorLogReader.recognises(header: header) { return .sensorLog }
    if PhyphoxReader.recognises(header: header) { return .phyphox }
    if PhysicsToolboxReader.recognises(header: header) { return .physicsToolbox }
    if AndroSensorReader.recognises(header: header) { return .androSensor }
    return nil
  }

  /// Reads the recording at `path` and writes it in the long layout.
  ///
  /// - Parameters:
  ///   - label: Every row's label (`LoadOptions.unlabelled` when the user gave none).
  ///   - gapRule: Where the recording splits; jitter under it is interpolated away.
  /// - Throws: `AppExportError` (not a layout Motus knows, no motion sensor), `CSVError`
  ///   naming the file, line and column of a bad cell.
  public static func read(
    path: String, label: String, gapRule: GapRule = GapRule()
  ) throws -> AppExportRecording {
    guard let layout = recognise(path: path) else {
      throw AppExportError(
        path: path, message: "not a recording layout Motus knows.",
        hint: "Motus reads " + AppExportLayout.knownLayouts + ".")
    }
    var parts: AppRecordingParts
    let isFolder = InputFile.kind(path) == .folder
    let files = isFolder ? csvFiles(in: path) : []
    let full = files.map { (path as NSString).appendingPathComponent($0) }
    switch layout {
    case .sensorLogger: parts = try SensorLoggerReader.read(folder: path, files: files)
    case .phyphox:
      parts = try PhyphoxReader.read(isFolder ? full : [path])
      if isFolder { parts.platform = PhyphoxReader.device(folder: path) }
    case .sensorLog: parts = try SensorLogReader.read(AppTable.read(path))
    case .physicsToolbox: parts = try PhysicsToolboxReader.read(AppTable.read(path))
    case .androSensor: parts = try AndroSensorReader.read(AppTable.read(path))
    }
    let base = PathName.last(path)
    let name = isFolder ? base : AppExportLabels.withoutCSV(base)
    let joined = try AppExportJoin.join(parts, path: path, name: name, label: label, gapRule: gapRule)
    var notes = [
      "\(path): \(layout.rawValue) \(isFolder ? "folder" : "file")"
        + (parts.platform.map { " (\($0))" } ?? "") + ", session and subject '\(name)'"
    ]
    notes += joined.notes
    notes += parts.notes.map { "\(name): \($0)" }
    if !parts.ignored.isEmpty {
      notes.append("\(name): ignored " + parts.ignored.joined(separator: "; "))
    }
    if let p = parts.pedometer, let last = p.cumulativeSteps.last, let first = p.cumulativeSteps.first {
      notes.append(
        "\(name): pedometer reference, \(p.times.count) points, \(CSVError.format(first)) -> "
          + "\(CSVError.format(last)) steps (\(p.source))")
    }
    return AppExportRecording(
      layout: layout, path: path, name: name, platform: parts.platform, rateHz: joined.rateHz,
      pedometer: parts.pedometer, notes: notes, longLayout: joined.bytes)
  }

  /// CSV files directly in `folder`, in natural order.
  static func csvFiles(in folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.lowercased().hasSuffix(".csv") }.sorted(by: naturalOrder)
  }

  /// The header fields of a CSV file (after a `sep=` line), quotes removed; empty when
  /// unreadable (reading it as data then says why).
  static func header(of path: String) -> [String] {
    guard let bytes = try? InputFile.readPrefix(path, count: 8192) else { return [] }
    let lines = bytes.split(separator: 10, maxSplits: 2, omittingEmptySubsequences: false)
    var index = 0
    if let first = lines.first, String(decoding: first, as: UTF8.self).lowercased().hasPrefix("sep=") {
      index = 1
    }
    guard index < lines.count else { return [] }
    guard let table = try? AppTable.parse(Array(lines[index]) + [10, 10], file: path) else { return [] }
    var header = table.header
    if index == 1, let sep = lines.first.map({ String(decoding: $0, as: UTF8.self) }),
      let character = sep.trimmingCharacters(in: .whitespacesAndNewlines).last
    {
      header = AppTable.split(Substring(String(decoding: lines[1], as: UTF8.self)
        .trimmingCharacters(in: .newlines)), character).map {
        String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      }
    }
    return header
  }

  /// The first line of a file, for recognising it.
  static func firstLine(of path: String) -> String {
    header(of: path).joined(separator: ",")
  }
}
