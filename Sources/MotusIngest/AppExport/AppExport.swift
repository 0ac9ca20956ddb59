// Reads a phone-app recording (a Sensor Logger or phyphox folder, or one SensorLog, phyphox,
// Physics Toolbox or AndroSensor CSV) into the samples of one session, so app data goes
// through the same channels, recipes, gap rule and resampling as every other source.

import Foundation
import MotusData
import MotusGzip
import MotusOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One phone-app recording, converted: its samples on one clock and what was done to get them.
public struct AppExportRecording: Sendable {
  public var layout: AppExportLayout
  /// The folder or file as given.
  public var path: String
  /// Session and subject name: the folder name, or the file name without `.csv`.
  public var name: String
  /// Every sample's label (`LoadOptions.unlabelled` when the user gave none).
  public var label: String
  /// Platform, device and app version, when the export says.
  public var platform: String?
  /// The common clock every sensor was interpolated onto (Hz).
  public var rateHz: Double
  /// The phone's own step count, when the recording has one.
  public var pedometer: PedometerReference?
  /// What was recognised, converted, joined and ignored, for the load report.
  public var notes: [String]
  /// The notes about data repaired or left out (times moved, sensors cut short, a pedometer
  /// not used), which every command prints as warnings.
  public var warnings: [String]
  /// Toolkit channel names of `columns` (`acceleration.x`, ...).
  public var channels: [String]
  /// Seconds from the recording start, ascending; jumps where the gap rule splits.
  public var timestamps: [Double]
  /// `columns[c][t]` in g, rad/s and Core Motion sign; NaN where a slower sensor has a gap
  /// (the loader fills it, as an empty cell).
  public var columns: [[Float]]

  /// The long layout's columns before the channels; the first holds `timestamps`, the others
  /// `name`, `name` and `label`.
  public static let leadingColumns = ["timestamp", "session", "subject", "label"]
  public static var timeColumn: String { leadingColumns[0] }
  /// The header of the long layout: `leadingColumns`, then `channels`.
  public var longLayoutColumns: [String] { Self.leadingColumns + channels }

  /// The recording in the long layout, `timestamp,session,subject,label,<channels>`; empty
  /// cells where `columns` holds NaN.
  public func longLayout() -> [UInt8] {
    var text = TextBuffer(capacity: timestamps.count * (24 + 12 * channels.count))
    text.append(longLayoutColumns.joined(separator: ",") + "\n")
    let prefix = Array(
      ("," + CSVText.field(name) + "," + CSVText.field(name) + "," + CSVText.field(label)).utf8)
    for (t, time) in timestamps.enumerated() {
      text.append(time)
      text.append(prefix)
      for column in columns {
        text.append(UInt8(ascii: ","))
        if !column[t].isNaN { text.append(column[t]) }
      }
      text.append(UInt8(ascii: "\n"))
    }
    return text.bytes
  }
}

/// Recognises and reads phone-app exports. See `AppExportLayout` for the layouts.
public enum AppExport {
  /// The layout of the folder or file at `path`, or nil when it is none of them. A folder is
  /// one recording only for Sensor Logger and phyphox (one file per sensor).
  ///
  /// - Throws: `CSVError.unreadable` for a file or folder that cannot be read.
  public static func recognise(path: String) throws -> AppExportLayout? {
    switch InputFile.kind(path) {
    case .folder:
      let files = try csvFiles(in: path)
      if try SensorLoggerReader.recognises(folder: path, files: files) { return .sensorLogger }
      // A phyphox folder: every CSV that is not empty has its header.
      let headers = try files.map { try header(of: (path as NSString).appendingPathComponent($0)) }
        .filter { !$0.isEmpty }
      if !headers.isEmpty, headers.allSatisfy(PhyphoxReader.recognises) { return .phyphox }
      return nil
    case .regularFile:
      return recognise(header: try header(of: path))
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

  /// Reads the recording at `path` and puts its sensors on one clock.
  ///
  /// - Parameters:
  ///   - label: Every sample's label (`LoadOptions.unlabelled` when the user gave none).
  ///   - gapRule: Where the recording splits; jitter under it is interpolated away.
  ///   - valueLimit: Largest magnitude of a converted value (`Limits.channelMagnitude`, or
  ///     any finite Float when values are not range-checked).
  /// - Throws: `AppExportError` (not a layout Motus knows, no motion sensor), `CSVError`
  ///   naming the file, line and column of a bad cell.
  public static func read(
    path: String, label: String, gapRule: GapRule = GapRule(),
    valueLimit: Double = Limits.channelMagnitude
  ) throws -> AppExportRecording {
    guard let layout = try recognise(path: path) else {
      throw AppExportError(
        path: path, message: "not a recording layout Motus knows.",
        hint: "Motus reads " + AppExportLayout.knownLayouts + ".")
    }
    var parts: AppRecordingParts
    let isFolder = InputFile.kind(path) == .folder
    let files = isFolder ? try csvFiles(in: path) : []
    if let (text, compressed) = compressedTwin(in: files) {
      throw CSVError.compressedTwin(
        first: "'\(Excerpt.text((path as NSString).appendingPathComponent(text), limit: 120))'",
        again:
          "'\(Excerpt.text((path as NSString).appendingPathComponent(compressed), limit: 120))'")
    }
    let full = files.map { (path as NSString).appendingPathComponent($0) }
    switch layout {
    case .sensorLogger:
      parts = try SensorLoggerReader.read(folder: path, files: files, limit: valueLimit)
    case .phyphox:
      parts = try PhyphoxReader.read(isFolder ? full : [path], limit: valueLimit)
      if isFolder { parts.platform = PhyphoxReader.device(folder: path) }
    case .sensorLog: parts = try SensorLogReader.read(path: path, limit: valueLimit)
    case .physicsToolbox: parts = try PhysicsToolboxReader.read(path: path, limit: valueLimit)
    case .androSensor: parts = try AndroSensorReader.read(path: path, limit: valueLimit)
    }
    try AppUnitCheck.check(parts.streams, path: path, layout: layout)
    let base = PathName.last(path)
    let name = isFolder ? base : AppExportLabels.withoutCSV(base)
    let joined = try AppExportJoin.join(&parts, path: path, name: name, gapRule: gapRule)
    var notes = [
      "\(path): \(layout.rawValue) \(isFolder ? "folder" : "file")"
        + (parts.platform.map { " (\($0))" } ?? "") + ", session and subject '\(name)'"
    ]
    notes += joined.notes
    let warnings = joined.warnings + parts.warnings.map { "\(name): \($0)" }
    notes += parts.warnings.map { "\(name): \($0)" }
    notes += parts.notes.map { "\(name): \($0)" }
    if !parts.ignored.isEmpty {
      notes.append("\(name): ignored " + parts.ignored.joined(separator: "; "))
    }
    if let p = parts.pedometer, let last = p.cumulativeSteps.last,
      let first = p.cumulativeSteps.first
    {
      notes.append(
        "\(name): pedometer reference, \(p.times.count) points, \(CSVError.format(first)) -> "
          + "\(CSVError.format(last)) steps (\(p.source))")
    }
    return AppExportRecording(
      layout: layout, path: path, name: name, label: label, platform: parts.platform,
      rateHz: joined.rateHz, pedometer: parts.pedometer, notes: notes, warnings: warnings,
      channels: joined.channels,
      timestamps: joined.timestamps, columns: joined.columns)
  }

  /// CSV files directly in `folder` (`.csv` or `.csv.gz`, regular files or links to them; not
  /// hidden), in natural order. A subfolder named `x.csv` is a folder, not one of them.
  ///
  /// - Throws: `CSVError.unreadable` when the folder cannot be listed.
  static func csvFiles(in folder: String) throws -> [String] {
    try folderEntries(folder).filter { name in
      !name.hasPrefix(".") && InputFile.isCSVName(name)
        && InputFile.kind((folder as NSString).appendingPathComponent(name)) == .regularFile
    }.sorted(by: naturalOrder)
  }

  /// The first of `files` (names in one folder) whose gzip copy is there too: `x.csv` and
  /// `x.csv.gz`, one sensor's file twice (a reader would take one and pass over the other).
  static func compressedTwin(in files: [String]) -> (text: String, compressed: String)? {
    let names = Set(files)
    for file in files {
      let text = InputFile.textName(file)
      if text != file && names.contains(text) { return (text, file) }
    }
    return nil
  }

  /// The names in `folder`.
  ///
  /// - Throws: `CSVError.unreadable` with the system's reason when it cannot be listed.
  static func folderEntries(_ folder: String) throws -> [String] {
    do {
      return try FileManager.default.contentsOfDirectory(atPath: folder)
    } catch {
      throw CSVError.unreadable(file: folder, reason: "the folder cannot be listed")
    }
  }

  /// The text of `path`, as `InputFile.readText` gives it (gzip inflated).
  ///
  /// - Throws: `CSVError.unreadable` naming the file and the system's reason;
  ///   `CompressedInputError` for gzip cut short or damaged.
  static func readBytes(_ path: String) throws -> [UInt8] {
    do {
      return try InputFile.readText(path)
    } catch let error as InputFileError {
      throw CSVError.unreadable(file: error.file, reason: error.reason)
    }
  }

  /// The header fields of a CSV file (after a `sep=` line), quotes removed; empty for an
  /// empty file or one that is not text.
  ///
  /// - Throws: `CSVError.unreadable` when the file cannot be read.
  static func header(of path: String) throws -> [String] {
    let bytes = try prefix(of: path, count: 1 << 16)
    guard bytes.withUnsafeBufferPointer({ TextEncoding.problem($0) }) == nil else { return [] }
    return AppTextFormat(bytes)?.header ?? []
  }

  /// The first `count` bytes of a regular file's text (fewer when it is shorter; gzip
  /// inflated), read through the one opening rule (`InputFile.readTextPrefix`). Only regular
  /// files are looked into: opening a FIFO would wait for a writer.
  private static func prefix(of path: String, count: Int) throws -> [UInt8] {
    switch InputFile.kind(path) {
    case .regularFile, nil: break  // a missing file: the read says why
    case .folder: throw CSVError.unreadable(file: path, reason: "it is a folder, not a file")
    default: throw CSVError.unreadable(file: path, reason: "not a regular file")
    }
    do {
      return try InputFile.readTextPrefix(path, count: count)
    } catch let error as InputFileError {
      throw CSVError.unreadable(file: error.file, reason: error.reason)
    }
  }

  /// The first line of a file, for recognising it.
  static func firstLine(of path: String) throws -> String {
    try header(of: path).joined(separator: ",")
  }
}
