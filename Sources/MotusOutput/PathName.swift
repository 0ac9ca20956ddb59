// A path's last name and its folder, split here by hand: swift-corelibs-foundation's
// NSString `lastPathComponent` and `deletingLastPathComponent` trap on a path of one character
// (`-o m`, `--manifest m`, `a/`), so no Motus code calls them.

/// The parts of a path, as NSString's path methods give them.
///
///     PathName.last("data/walk.csv")    // "walk.csv"
///     PathName.folder("data/walk.csv")  // "data"
///     PathName.folder("m")              // "" (the current folder)
public enum PathName {
  /// The name after the last `/`, trailing slashes ignored (`/` for the root).
  public static func last(_ path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    return trimmed == "/" ? "/" : String(trimmed[trimmed.index(after: slash)...])
  }

  /// The path without its last name: empty for a bare name, `/` for a name in the root.
  public static func folder(_ path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else {
      return trimmed == "/" ? "/" : ""
    }
    let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
    return folder.isEmpty ? "/" : folder
  }

  private static func withoutTrailingSlashes(_ path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    return String(trimmed)
  }
}
