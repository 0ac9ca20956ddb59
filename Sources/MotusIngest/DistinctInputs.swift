// The one rule against reading a file twice: every input of a load (command-line paths, the
// files of folders, app-export folders, every source of a manifest) is recorded by device and
// inode, so the same file named twice (two paths, a link, a folder and a file in it, two
// manifest sources) is refused instead of being read, and its rows counted, twice.

import Foundation
import MotusData

/// The files a load has taken so far, by `FileIdentity`, with how each was named.
struct DistinctInputs {
  /// How an input was named: the path read, and what named it (a command-line argument, a
  /// folder given, a manifest key).
  struct Naming: Equatable {
    var path: String
    /// The argument or manifest key that led to `path`.
    var origin: String
    /// Whether `origin` is a manifest key (`sources[1].files[0]`) rather than a path.
    var isKey = false

    /// The path as messages show it (a manifest's relative to its data root).
    var shown: String

    /// `'d/a.csv' (in 'd')`, `'a.csv'`, or `'d/a.csv' (sources[0].files[0])`.
    var description: String {
      let quoted = "'\(Excerpt.text(InputFile.displayName(shown), limit: 120))'"
      if isKey { return "\(quoted) (\(origin))" }
      return path == origin ? quoted : "\(quoted) (in '\(Excerpt.text(origin, limit: 120))')"
    }
  }

  private var first: [FileIdentity: Naming] = [:]
  /// The folder a manifest's paths lie under; messages show them relative to it.
  private let root: String?

  init(root: String? = nil) { self.root = root }

  /// Records the files `input` reads; returns the earlier naming and this one when one of
  /// them was taken already. Paths that do not exist are left to the reader to report.
  mutating func insert(_ input: FoundInput, origin: String, isKey: Bool = false)
    -> (earlier: Naming, again: Naming)?
  {
    for path in input.filesRead {
      guard let identity = FileIdentity(path: path) else { continue }
      var shown = path
      if let root, case let prefix = root.hasSuffix("/") ? root : root + "/",
        path.hasPrefix(prefix)
      {
        shown = String(path.dropFirst(prefix.count))
      }
      let naming = Naming(path: path, origin: origin, isKey: isKey, shown: shown)
      if let earlier = first[identity] { return (earlier, naming) }
      first[identity] = naming
    }
    return nil
  }
}

/// One input a load found: a file or stream, or an app-export recording (a file or a folder).
struct FoundInput {
  var path: String
  var isApp: Bool

  /// Every file reading it takes: the path itself, and for an app-export folder the CSV files
  /// in it (a folder given with one of its files reads that file twice).
  var filesRead: [String] {
    guard isApp, InputFile.kind(path) == .folder else { return [path] }
    return [path]
      + ((try? AppExport.csvFiles(in: path)) ?? []).map {
        (path as NSString).appendingPathComponent($0)
      }
  }
}
