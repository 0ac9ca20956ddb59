// Where the loader meets phone-app exports: each path is a long-layout CSV, or an app
// recording (`AppExport`) converted to the long layout in memory; after loading, each app
// recording's pedometer is attached to its recordings and its conversion notes reported.

import Foundation

/// One input of a load: a file read as it is, or an app recording already converted.
enum LoadInput {
  case file(String)
  case app(AppExportRecording)

  var name: String {
    switch self {
    case .file(let path): return InputFile.displayName(path)
    case .app(let recording): return recording.path
    }
  }

  var sizeHint: Int {
    switch self {
    case .file(let path): return InputFile.sizeHint(path)
    case .app(let recording): return recording.longLayout.count
    }
  }
}

extension DatasetLoader {
  /// The inputs `paths` name. A folder is one app recording when it is a Sensor Logger or
  /// phyphox export; otherwise its CSV files are read one by one (or, when it holds none, its
  /// subfolders). A CSV without the time column is read as an app export when its header is
  /// one (`AppExport.recognise`).
  ///
  /// - Throws: `CSVError` as `expand`, and `.sameFileTwice` when two paths lead to one file
  ///   (`DistinctInputs`); `AppExportError` for an app recording without a label when labels
  ///   are required, or a `--label-map` key that names no recording.
  static func inputs(_ paths: [String], options: LoadOptions) throws -> [LoadInput] {
    guard !paths.isEmpty else { throw CSVError.noFiles }
    var found: [FoundInput] = []
    var distinct = DistinctInputs()
    for path in paths {
      for input in try collect(path, options: options) {
        if let (earlier, again) = distinct.insert(input, origin: path) {
          if again.path == InputFile.standardInputPath {
            throw CSVError.unreadable(
              file: InputFile.displayName(path), reason: "standard input can be read only once")
          }
          throw CSVError.sameFileTwice(first: earlier.description, again: again.description)
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
      return .app(
        try AppExport.read(
          path: item.path, label: chosen?.label ?? LoadOptions.unlabelled, gapRule: options.gapRule))
    }
    if let unused = options.appLabels.byName.keys.sorted().first(where: { !usedKeys.contains($0) }) {
      throw AppExportError(
        path: unused, message: "--label-map names no phone-app recording read here.",
        hint: "keys are folder or file names of the recordings given ("
          + Excerpt.list(found.filter(\.isApp).map { PathName.last($0.path) }) + ").")
    }
    return inputs
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
        FoundInput(path: $0, isApp: isAppFile($0, options: options))
      }
    }
    return found
  }

  /// A folder: one app recording, its CSV files, or (holding none) its subfolders' inputs.
  private static func collect(
    folder: String, options: LoadOptions, depth: Int, into found: inout [FoundInput]
  ) throws {
    if AppExport.recognise(path: folder) != nil {
      found.append(FoundInput(path: folder, isApp: true))
      return
    }
    let csv = AppExport.csvFiles(in: folder)
    if !csv.isEmpty {
      for name in csv {
        let path = (folder as NSString).appendingPathComponent(name)
        found.append(FoundInput(path: path, isApp: isAppFile(path, options: options)))
      }
      return
    }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
      .sorted(by: naturalOrder)
    let before = found.count
    if depth < 4 {
      for name in names where !name.hasPrefix(".") {
        let path = (folder as NSString).appendingPathComponent(name)
        guard InputFile.kind(path) == .folder else { continue }
        let had = found.count
        do {
          try collect(folder: path, options: options, depth: depth + 1, into: &found)
        } catch CSVError.noCSVFiles {
          found.removeSubrange(had...)  // a folder of documents next to the recordings
        }
      }
    }
    if found.count == before { throw CSVError.noCSVFiles(folder: folder) }
  }

  /// Whether a CSV file is an app export: its header lacks the time column and is one.
  public static func isAppFile(_ path: String, options: LoadOptions) -> Bool {
    guard InputFile.kind(path) == .regularFile else { return false }
    let header = AppExport.header(of: path)
    return !header.contains(options.timeColumn) && AppExport.recognise(header: header) != nil
  }

  /// Adds each app recording's notes to the report and its pedometer to its recordings.
  static func attach(_ apps: [AppExportRecording], to result: inout LoadResult) {
    guard !apps.isEmpty else { return }
    for app in apps {
      result.report.notes += app.notes
      guard let pedometer = app.pedometer else { continue }
      for i in result.dataset.recordings.indices where result.dataset.recordings[i].source == app.path {
        result.dataset.recordings[i].pedometer = pedometer
      }
    }
  }
}
