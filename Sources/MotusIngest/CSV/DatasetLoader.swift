// Loads labelled long-layout CSV files (`timestamp,session,subject,label,<channels>`) into a
// `Dataset`. Order of operations: parse raw columns -> label map / filters -> fill missing
// cells -> split sessions at time gaps -> `ChannelPlan` (recipes) -> optional resampling.
// Times are seconds (Double); channel values are parsed as Double and stored as Float.

import Foundation
import MotusData
import MotusGzip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads labelled CSV files (callers go through `DataSource`). See `LoadOptions` for what can
/// be chosen.
public enum DatasetLoader {
  /// Loads `paths`: files, folders (whose `.csv` and `.csv.gz` files are read in natural
  /// order), pipes, FIFOs and `-` (standard input); gzip input is inflated as it is read.
  ///
  /// - Parameters:
  ///   - progress: Called now and then with (bytes parsed, total bytes) of all files; the
  ///     total counts regular files only.
  /// - Throws: `CSVError` naming file, line and column, with a hint; `InputAdapterError` when
  ///   `options.modelRecipes` needs a column the data lacks; `LimitError` for a resampling
  ///   out of bounds.
  /// - Complexity: O(bytes) parsing, plus O(n log n) per session for the median time step.
  static func load(
    _ paths: [String], options: LoadOptions,
    progress: ((_ bytesDone: Int, _ bytesTotal: Int) -> Void)? = nil
  ) throws -> LoadResult {
    let inputs = try inputs(paths, options: options)
    let total = inputs.map(\.sizeHint).reduce(0, +)
    var apps: [AppExportRecording] = []
    var result = try load(
      inputs.map(\.name), options: options, totalBytes: total, progress: progress
    ) { index in
      switch inputs[index] {
      case .file(let path):
        do {
          // Regular files are read a block at a time; streams whole.
          if let blocks = try InputBlocks(path: path) { return .blocks(blocks) }
        } catch let error as InputFileError {
          throw CSVError.unreadable(file: error.file, reason: error.reason)
        }
        return .bytes(try readAll(path))
      case .app(let path, let label):
        let recording = try readApp(path: path, label: label, options: options)
        apps.append(recording.outline)
        return .app(recording)
      }
    }
    attach(apps, to: &result)
    return result
  }

  /// Where one input's bytes come from.
  enum Source {
    case bytes([UInt8])
    case blocks(InputBlocks)
    case app(AppExportRecording)
  }

  /// Loads inputs already read (see `read(_:)`): the same data can be parsed twice, as
  /// `DataSource` does when it resamples for a model, even when it came from a pipe.
  package static func load(
    inputs: [InputBytes], options: LoadOptions,
    progress: ((_ bytesDone: Int, _ bytesTotal: Int) -> Void)? = nil
  ) throws -> LoadResult {
    var result = try load(
      inputs.map(\.name), options: options, totalBytes: inputs.reduce(0) { $0 + $1.bytes.count },
      progress: progress
    ) { index in
      inputs[index].appExport.map { .app($0) } ?? .bytes(inputs[index].bytes)
    }
    attach(inputs.compactMap { $0.appExport?.outline }, to: &result)
    return result
  }

  /// Every input `paths` names, read whole (see `load(_:options:progress:)` for what a path
  /// may be); phone-app recordings are converted to the long layout with `options`' labels
  /// and gap rule.
  static func read(_ paths: [String], options: LoadOptions = LoadOptions()) throws
    -> [InputBytes]
  {
    try inputs(paths, options: options).map { input in
      switch input {
      case .file(let path):
        return InputBytes(name: InputFile.displayName(path), bytes: try readAll(path))
      case .app(let path, let label):
        return InputBytes(
          name: path, bytes: [], appExport: try readApp(path: path, label: label, options: options))
      }
    }
  }

  private static func load(
    _ names: [String], options: LoadOptions, totalBytes: Int,
    progress: ((_ bytesDone: Int, _ bytesTotal: Int) -> Void)?, sourceOf: (Int) throws -> Source
  ) throws -> LoadResult {
    var state = LoadState(options: options)
    var done = 0
    for (index, file) in names.enumerated() {
      let report = { (fileDone: Int) -> Void in progress?(done + fileDone, totalBytes) }
      switch try sourceOf(index) {
      case .bytes(let bytes):
        try state.parse(file: file, fileIndex: index, bytes: bytes, progress: report)
        done += bytes.count
      case .blocks(let blocks):
        try state.parse(file: file, fileIndex: index, blocks: blocks, progress: report)
        done += blocks.bytesRead
      case .app(var recording):
        try state.parse(app: &recording, file: file, fileIndex: index)
        done += AppExportRecording.sizeHint(path: recording.path)
      }
      progress?(done, totalBytes)
    }
    return try state.finish(files: names)
  }

  /// Files named by `paths`: files, streams and `-` as given, folders expanded to their
  /// `.csv` and `.csv.gz` files.
  ///
  /// - Throws: `CSVError.noFiles`, `.noCSVFiles`, `.unreadable` (a missing path, or `-` twice).
  public static func expand(_ paths: [String]) throws -> [String] {
    guard !paths.isEmpty else { throw CSVError.noFiles }
    var files: [String] = []
    for path in paths {
      if path == InputFile.standardInputPath && files.contains(path) {
        throw CSVError.unreadable(
          file: InputFile.displayName(path), reason: "standard input can be read only once")
      }
      switch InputFile.kind(path) {
      case nil where path.isEmpty:
        throw CSVError.unreadable(file: "''", reason: InputFile.emptyName)
      case nil:
        throw CSVError.unreadable(file: path, reason: "no such file or folder")
      case .folder:
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let csv = names.filter(InputFile.isCSVName).sorted(by: naturalOrder)
        guard !csv.isEmpty else { throw CSVError.noCSVFiles(folder: path) }
        files += csv.map { (path as NSString).appendingPathComponent($0) }
      default:
        files.append(path)
      }
    }
    return files
  }

  /// The whole text of an input (a file, stream or `-`, gzip inflated) in one buffer.
  static func readAll(_ path: String) throws -> [UInt8] {
    do {
      return try InputFile.readText(path)
    } catch let error as InputFileError {
      throw CSVError.unreadable(file: error.file, reason: error.reason)
    }
  }
}
