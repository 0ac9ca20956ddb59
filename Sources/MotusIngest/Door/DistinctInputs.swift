// The one rule against reading a file twice: every input of a load (command-line paths, the
// files of folders, app-export folders, every source of a manifest) is recorded by device and
// inode, so the same file named twice (two paths, a link, a folder and a file in it, two
// manifest sources) is refused instead of being read, and its rows counted, twice. A CSV file
// and its gzip copy side by side (`x.csv` beside `x.csv.gz`, what `gzip -k` leaves) are one
// recording twice: both are refused by the same rule, named, wherever they meet (a folder, the
// command line, a manifest, an app-export folder).

import Foundation
import MotusData
import MotusGzip
import MotusOutput

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

  /// Two namings of one recording: the same file, or a file and its gzip twin (`isTwin`).
  struct Conflict {
    var earlier: Naming
    var again: Naming
    var isTwin = false
  }

  private var first: [FileIdentity: Naming] = [:]
  /// Each file by its folder and its text's name (`InputFile.textName`): `x.csv` and
  /// `x.csv.gz` in one folder meet here.
  private var byTextName: [TextKey: Naming] = [:]

  private struct TextKey: Hashable {
    var folder: FileIdentity
    var textName: String
  }
  /// The folder a manifest's paths lie under; messages show them relative to it.
  private let root: String?

  init(root: String? = nil) { self.root = root }

  /// Records the files `input` reads; returns the earlier naming and this one when one of
  /// them, or its gzip twin, was taken already. Paths that do not exist are left to the reader
  /// to report.
  mutating func insert(_ input: FoundInput, origin: String, isKey: Bool = false) -> Conflict? {
    for path in input.filesRead {
      guard let identity = FileIdentity(path: path) else { continue }
      var shown = path
      if let root, case let prefix = root.hasSuffix("/") ? root : root + "/",
        path.hasPrefix(prefix)
      {
        shown = String(path.dropFirst(prefix.count))
      }
      let naming = Naming(path: path, origin: origin, isKey: isKey, shown: shown)
      if let earlier = first[identity] { return Conflict(earlier: earlier, again: naming) }
      first[identity] = naming
      guard let key = Self.textKey(path) else { continue }
      if let earlier = byTextName[key] {
        return Conflict(earlier: earlier, again: naming, isTwin: true)
      }
      byTextName[key] = naming
    }
    return nil
  }

  /// The folder and text name of a CSV file (`d/x.csv.gz`: d and `x.csv`); nil for standard
  /// input, a pipe or a name that is not a CSV file's.
  private static func textKey(_ path: String) -> TextKey? {
    let name = PathName.last(path)
    let folderName = PathName.folder(path)
    guard path != InputFile.standardInputPath, InputFile.isCSVName(name),
      InputFile.kind(path) == .regularFile,
      let folder = FileIdentity(path: folderName.isEmpty ? "." : folderName)
    else { return nil }
    return TextKey(folder: folder, textName: InputFile.textName(name))
  }
}
