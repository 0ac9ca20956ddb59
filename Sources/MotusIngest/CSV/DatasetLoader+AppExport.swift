// Where the loader meets phone-app exports: each path is a long-layout CSV, or an app
// recording (`AppExport`) converted to the long layout in memory; after loading, each app
// recording's pedometer is attached to its recordings and its conversion notes reported.

import Foundation
import MotusData
import MotusGzip
import MotusOutput

extension AppExportRecording {
  /// The bytes progress counts for a recording: its files' sizes, as for a CSV file.
  static func sizeHint(path: String) -> Int {
    guard InputFile.kind(path) == .folder else { return InputFile.textSizeHint(path) }
    let names = (try? AppExport.csvFiles(in: path)) ?? []
    return names.reduce(0) {
      $0 + InputFile.sizeHint((path as NSString).appendingPathComponent($1))
    }
  }

  /// The recording without its samples: what the report and the pedometer need after loading.
  var outline: AppExportRecording {
    var light = self
    light.timestamps = []
    light.columns = []
    return light
  }
}

extension DatasetLoader {
  /// The inputs `paths` name. A folder is one app recording when it is a Sensor Logger or
  /// phyphox export; otherwise its CSV files are read one by one (or, when it holds none, its
  /// subfolders). A CSV without the time column is read as an app export when its header is
  /// one (`AppExport.recognise`).
  ///
  /// - Throws: `CSVError` as `expand`, `.sameFileTwice` when two paths lead to one file and
  ///   `.compressedTwin` for a file and its gzip copy (`DistinctInputs`); `AppExportError` for an app recording without a label when labels
  ///   are required, or a `--label-map` key that names no recording.
  static func inputs(_ paths: [String], options: LoadOptions) throws -> [LoadInput] {
    guard !paths.isEmpty else { throw CSVError.noFiles }
    var found: [FoundInput] = []
    var distinct = DistinctInputs()
    for path in paths {
      for input in try collect(path, options: options) {
        if let conflict = distinct.insert(input, origin: path) {
          let (earlier, again) = (conflict.earlier.description, conflict.again.description)
          if conflict.isTwin { throw CSVError.compressedTwin(first: earlier, again: again) }
          if conflict.again.path == InputFile.standardInputPath {
            throw CSVError.unreadable(
              file: InputFile.displayName(path), reason: "standard input can be read only once")
          }
          throw CSVError.sameFileTwice(first: earlier, again: again)
        }
        found.append(input)
      }
    }
    if options.appLabels.label != nil, !found.contains(where: \.isApp) {
      throw AppExportError(
        path: paths.joined(separator: " "),
        message: "--label labels phone-app recordings, and none is among these inputs.",
        hint: "long-layout files carry their own label column (--label-column); rename "
          + "labels with --map.")
    }
    var usedKeys: Set<String> = []
    let inputs: [LoadInput] = try found.map { item in
      guard item.isApp else { return .file(item.path) }
      let chosen = options.appLabels.label(forPath: item.path)
      if let key = chosen?.key { usedKeys.insert(key) }
      if chosen == nil && options.requireLabels {
        throw AppExportError(
          path: item.path, message: "a phone-app recording carries no activity label.",
          hint: "add --label ACTIVITY (e.g. --label walking), or --label-map NAME=ACTIVITY,... "
            + "naming its folder or file.")
      }
      return .app(path: item.path, label: chosen?.label ?? LoadOptions.unlabelled)
    }
    if let unused = options.appLabels.byName.keys.sorted().first(where: { !usedKeys.contains($0) })
    {
      throw AppExportError(
        path: unused, message: "--label-map names no phone-app recording read here.",
        hint: "keys are folder or file names of the recordings given ("
          + Excerpt.list(found.filter(\.isApp).map { PathName.last($0.path) }) + ").")
    }
    return inputs
  }

  /// The phone-app recordings `paths` name or hold, found as `load` finds them (a recording
  /// folder or file, or a folder searched to four levels), in order; long-layout files are
  /// left out.
  ///
  /// - Throws: `CSVError` for a path that does not exist, a folder with no CSV file, or an
  ///   entry that cannot be read.
  public static func appRecordingPaths(_ paths: [String]) throws -> [String] {
    let options = LoadOptions()
    return try paths.flatMap { try collect($0, options: options) }.filter(\.isApp).map(\.path)
  }

  /// The inputs one path names (see `inputs`), unread but for headers.
  ///
  /// - Throws: `CSVError` as `expand`; `AppExportError` for a zip archive.
  static func collect(_ path: String, options: LoadOptions) throws -> [FoundInput] {
    if path.lowercased().hasSuffix(".zip") {
      throw AppExportError(
        path: path, message: "a zip archive; Motus reads the folder inside it.",
        hint: "unzip it (unzip '\(Excerpt.text(path))') and pass the folder.")
    }
    var found: [FoundInput] = []
    if InputFile.kind(path) == .folder {
      try collect(folder: path, options: options, depth: 0, into: &found)
    } else {
      found = try expand([path]).map {
        FoundInput(path: $0, isApp: try isAppFile($0, options: options))
      }
    }
    return found
  }

  /// A folder: one app recording, or its CSV files and its subfolders' inputs (to four
  /// levels), in natural order. Hidden entries are left out; a subfolder with no CSV file
  /// anywhere (documents next to the recordings) is passed over.
  ///
  /// - Throws: `CSVError.noCSVFiles` when nothing is found, `.unreadable` for an entry named
  ///   `.csv` that is neither a file nor a folder (a FIFO, a socket, a link to nothing).
  private static func collect(
    folder: String, options: LoadOptions, depth: Int, into found: inout [FoundInput]
  ) throws {
    if try AppExport.recognise(path: folder) != nil {
      found.append(FoundInput(path: folder, isApp: true))
      return
    }
    let before = found.count
    for name in try AppExport.folderEntries(folder).sorted(by: naturalOrder)
    where !name.hasPrefix(".") {
      let path = (folder as NSString).appendingPathComponent(name)
      switch InputFile.kind(path) {
      case .regularFile where InputFile.isCSVName(name):
        found.append(FoundInput(path: path, isApp: try isAppFile(path, options: options)))
      case .folder where depth < 4:
        let had = found.count
        do {
          try collect(folder: path, options: options, depth: depth + 1, into: &found)
        } catch CSVError.noCSVFiles {
          found.removeSubrange(had...)
        }
      case let kind where InputFile.isCSVName(name) && kind != .folder:
        throw CSVError.unreadable(
          file: path,
          reason: kind == nil
            ? "a link to nothing" : "not a regular file (a FIFO, a socket or a device)")
      default:
        continue
      }
    }
    if found.count == before { throw CSVError.noCSVFiles(folder: folder) }
  }

  /// Whether a CSV file is an app export: its header lacks the time column and is one.
  ///
  /// - Throws: `CSVError.unreadable` when its first bytes cannot be read.
  public static func isAppFile(_ path: String, options: LoadOptions) throws -> Bool {
    guard InputFile.kind(path) == .regularFile else { return false }
    let header = try AppExport.header(of: path)
    return !header.contains(options.timeColumn) && AppExport.recognise(header: header) != nil
  }

  /// The phone-app recording at `path`, converted with `options`' gap rule and value range.
  static func readApp(path: String, label: String, options: LoadOptions) throws
    -> AppExportRecording
  {
    try AppExport.read(
      path: path, label: label, gapRule: options.gapRule,
      valueLimit: options.checkValueRange
        ? Limits.channelMagnitude : Double(Float.greatestFiniteMagnitude))
  }

  /// Adds each app recording's notes to the report and its pedometer to its recordings.
  static func attach(_ apps: [AppExportRecording], to result: inout LoadResult) {
    guard !apps.isEmpty else { return }
    for app in apps {
      result.report.notes += app.notes
      result.report.warnings += app.warnings
      guard let pedometer = app.pedometer else { continue }
      for i in result.dataset.recordings.indices
      where result.dataset.recordings[i].source == app.path {
        result.dataset.recordings[i].pedometer = pedometer
      }
    }
  }
}

extension LoadState {
  /// Adds a phone-app recording as one session, as `parse(file:...)` adds a file's: the first
  /// input chooses the channels, later ones must have them; empty (NaN) cells are counted as
  /// missing and filled when the session is finished. The recording's samples move into the
  /// session (`app` keeps its notes and pedometer).
  mutating func parse(app: inout AppExportRecording, file: String, fileIndex: Int) throws {
    files.append(file)
    let rows = app.timestamps.count
    guard rows > 0 else { throw CSVError.noDataRows(file: file) }
    if files.count == 1 {
      let present = app.channels.indices.filter { c in app.columns[c].contains { !$0.isNaN } }
      try pickChannels(
        file: file, numericColumns: present.map { app.channels[$0] },
        ignored: app.channels.indices.filter { !present.contains($0) }.map { app.channels[$0] },
        candidates: app.channels)
    }
    let slots = try rawChannels.map { name -> Int in
      guard let c = app.channels.firstIndex(of: name) else {
        throw channelUnavailable(name, file: file)
      }
      return c
    }
    let width = slots.count
    var counts = [Int](repeating: 0, count: width)
    let values = [Float](unsafeUninitializedCapacity: rows * width) { out, filled in
      for (k, c) in slots.enumerated() {
        app.columns[c].withUnsafeBufferPointer { column in
          for r in 0..<rows {
            let v = column[r]
            out[r * width + k] = v
            if v.isNaN { counts[k] += 1 }
          }
        }
      }
      filled = rows * width
    }
    app.columns = []
    var data = SessionData(
      name: sessionNames.id(of: app.name), fileIndex: fileIndex,
      subject: subjectNames.id(of: app.name))
    data.timestamps = app.timestamps
    app.timestamps = []
    data.values = values
    data.labels = [Int32](
      repeating: app.label.isEmpty ? -1 : labelNames.id(of: app.label), count: rows)
    sessions.append(data)
    report.rowsRead += rows
    for k in 0..<width { missing[k] += counts[k] }
  }
}
