// Loads labelled long-layout CSV files (`timestamp,session,subject,label,<channels>`) into a
// `Dataset`. Order of operations: parse raw columns -> label map / filters -> fill missing
// cells -> split sessions at time gaps -> `ChannelPlan` (recipes) -> optional resampling.
// Times are seconds (Double); channel values are parsed as Double and stored as Float.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loaded dataset, the recipes that computed its channels, and what happened on the way.
public struct LoadResult: Sendable {
  public var dataset: Dataset
  /// `dataset.channels == recipes.map(\.name)`; streaming runs the same recipes.
  public var recipes: [ChannelRecipe]
  public var report: LoadReport

  public init(dataset: Dataset, recipes: [ChannelRecipe], report: LoadReport) {
    self.dataset = dataset
    self.recipes = recipes
    self.report = report
  }
}

/// Reads labelled CSV files. See `LoadOptions` for what can be chosen.
public enum DatasetLoader {
  /// Loads `paths` (files, or folders whose `.csv` files are read in natural order).
  ///
  /// - Parameters:
  ///   - progress: Called now and then with (bytes parsed, total bytes) of all files.
  /// - Throws: `CSVError` naming file, line and column, with a hint.
  /// - Complexity: O(bytes) parsing, plus O(n log n) per session for the median time step.
  public static func load(
    _ paths: [String], options: LoadOptions,
    progress: ((_ bytesDone: Int, _ bytesTotal: Int) -> Void)? = nil
  ) throws -> LoadResult {
    let files = try expand(paths)
    var state = LoadState(options: options)
    let sizes = files.map { fileSize($0) }
    let total = sizes.reduce(0, +)
    var done = 0
    for (index, file) in files.enumerated() {
      let bytes = try readAll(file)
      try state.parse(file: file, fileIndex: index, bytes: bytes) { fileDone in
        progress?(done + fileDone, total)
      }
      done += bytes.count
      progress?(done, total)
    }
    return try state.finish(files: files)
  }

  /// Files named by `paths`: files as given, folders expanded to their `.csv` files.
  ///
  /// - Throws: `CSVError.noFiles`, `.noCSVFiles`, `.unreadable` (missing path).
  public static func expand(_ paths: [String]) throws -> [String] {
    guard !paths.isEmpty else { throw CSVError.noFiles }
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw CSVError.unreadable(file: path, reason: "no such file or folder")
      }
      if isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let csv = names.filter { $0.lowercased().hasSuffix(".csv") }.sorted(by: naturalOrder)
        guard !csv.isEmpty else { throw CSVError.noCSVFiles(folder: path) }
        files += csv.map { (path as NSString).appendingPathComponent($0) }
      } else {
        files.append(path)
      }
    }
    return files
  }

  static func fileSize(_ path: String) -> Int {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.size] as? NSNumber)?.intValue ?? 0
  }

  /// The whole file in one buffer (one `read` loop; no per-line allocation).
  static func readAll(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      throw CSVError.unreadable(file: path, reason: String(cString: strerror(errno)))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw CSVError.unreadable(file: path, reason: String(cString: strerror(errno)))
    }
    let size = Int(info.st_size)
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      var filled = 0
      while filled < size, let base = buffer.baseAddress {
        let n = read(fd, base + filled, size - filled)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
          if n < 0 { failure = errno }
          break
        }
        filled += n
      }
      count = filled
    }
    if failure != 0 {
      throw CSVError.unreadable(file: path, reason: String(cString: strerror(failure)))
    }
    return bytes
  }
}

/// Maps byte strings to small integers, remembering the last one (rows repeat it).
struct Interner {
  private(set) var names: [String] = []
  private var ids: [String: Int32] = [:]
  private var lastBytes: [UInt8] = []
  private var lastID: Int32 = -1

  mutating func id(of name: String) -> Int32 {
    if let id = ids[name] { return id }
    let id = Int32(names.count)
    names.append(name)
    ids[name] = id
    return id
  }

  @inline(__always)
  mutating func id(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int32 {
    let length = end - start
    if lastID >= 0 && length == lastBytes.count {
      let same = lastBytes.withUnsafeBufferPointer { b -> Bool in
        guard let p = b.baseAddress else { return length == 0 }
        return memcmp(p, base + start, length) == 0
      }
      if same { return lastID }
    }
    let buffer = UnsafeBufferPointer(start: base + start, count: length)
    lastBytes = Array(buffer)
    lastID = id(of: String(decoding: buffer, as: UTF8.self))
    return lastID
  }
}
