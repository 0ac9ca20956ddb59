// What a manifest may ask for: value bounds (rates, weights, list sizes), file paths kept
// inside the data root, and the line and column of a bad key.

import Foundation
import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Manifest {
  /// A manifest is a small JSON file; a larger one is not a manifest.
  public static let maximumFileBytes = 16 << 20
  /// Largest source weight: a relative weight, and a larger one would swamp the loss.
  public static let maximumWeight = 1000.0
  /// Smallest source weight, the inverse of the largest: a smaller one all but removes the
  /// source's windows from the loss (1e-300 makes them vanish), which leaving it out says
  /// plainly.
  public static let minimumWeight = 1 / maximumWeight
  /// List sizes beyond any real composition of datasets.
  public static let maximumSources = 1000
  public static let maximumChannels = 256
  public static let maximumLabels = 1024

  /// Checks the values `check` does not bound, with the limit and its reason.
  func checkBounds(file: String) throws {
    func bad(_ key: String, _ reason: String, _ hint: String) -> ManifestError {
      .invalidValue(file: file, key: key, reason: reason, hint: hint)
    }
    if !(Limits.sampleRateHz.contains(sampleRateHz)) {
      throw bad(
        "sampleRateHz",
        "\(sampleRateHz) Hz is outside \(Limits.sampleRateHz.lowerBound)..."
          + "\(Limits.sampleRateHz.upperBound) Hz, the rates inertial sensors record at",
        "e.g. 15")
    }
    if sources.count > Self.maximumSources {
      throw bad(
        "sources", "lists \(sources.count) sources, more than \(Self.maximumSources)",
        "split the composition into several manifests")
    }
    if channels.count > Self.maximumChannels {
      throw bad(
        "channels", "lists \(channels.count) channels, more than \(Self.maximumChannels)",
        "list the channels a model needs")
    }
    if labels.count > Self.maximumLabels {
      throw bad(
        "labels", "lists \(labels.count) labels, more than \(Self.maximumLabels)",
        "list the classes a model tells apart")
    }
    var paths = [("dataRoot", dataRoot)]
    for (i, source) in sources.enumerated() {
      paths += source.files.enumerated().map { j, path in ("sources[\(i)].files[\(j)]", path) }
    }
    for case let (key, path?) in paths where path.utf8.contains(0) {
      throw bad(
        key,
        "'\(Excerpt.text(path))' holds a NUL character (\\u0000), which no file name can hold; "
          + "the system would read the path only up to it",
        "remove the \\u0000 from the path")
    }
    for (i, source) in sources.enumerated() {
      if let weight = source.weight, weight > Self.maximumWeight {
        throw bad(
          "sources[\(i)].weight",
          "\(weight) is above \(Self.maximumWeight), the largest relative weight of a source",
          "weights are relative; default is 1")
      }
      if let weight = source.weight, weight > 0, weight < Self.minimumWeight {
        throw bad(
          "sources[\(i)].weight",
          "\(weight) is below \(Self.minimumWeight), the smallest relative weight of a source: "
            + "a smaller one all but removes its windows from training",
          "weights are relative, default 1; to train without the source, leave it out")
      }
    }
  }

  /// The path of a source file: `path` under `root`, which it must not leave (by an absolute
  /// path, `..` or a symbolic link) unless `allowOutside`.
  ///
  /// - Throws: `ManifestError.invalidValue` naming the key, the path and the root.
  public static func confinedPath(
    _ path: String, root: String, allowOutside: Bool, file: String, key: String
  ) throws -> String {
    // Bytes, not characters: a combining mark after "/" would otherwise hide the separator.
    let slash = UInt8(ascii: "/")
    if path.utf8.first == slash {
      if allowOutside { return path }
      throw outside(path, root: root, file: file, key: key, why: "is an absolute path")
    }
    let joined = (root as NSString).appendingPathComponent(path)
    if allowOutside { return joined }
    // Lexically first (the file may not exist), then through symbolic links when it does.
    var depth = 0
    for part in path.utf8.split(separator: slash) {
      if part.elementsEqual("..".utf8) { depth -= 1 } else if !part.elementsEqual(".".utf8) {
        depth += 1
      }
      if depth < 0 {
        throw outside(path, root: root, file: file, key: key, why: "climbs out of the data root")
      }
    }
    if let realRoot = InputFile.realPath(root), let realFile = InputFile.realPath(joined),
      realFile != realRoot, !Self.isInside(realFile, folder: realRoot)
    {
      throw outside(
        path, root: root, file: file, key: key,
        why: "leads out of the data root through a symbolic link")
    }
    return joined
  }

  /// System folders a manifest's data root may neither be nor lie in: the data of no recording
  /// lives there, and through them a manifest could read any file of the system.
  public static let systemFolders = [
    "/etc", "/proc", "/sys", "/dev", "/boot", "/run", "/usr", "/bin", "/sbin", "/lib", "/lib32",
    "/lib64", "/libx32", "/var/lib", "/var/log", "/var/run", "/private/etc",
  ]

  /// Checks the data root a manifest names (its `dataRoot`, or the default) before any file is
  /// read under it: a manifest from elsewhere must not make the file system's root, a system
  /// folder, the home folder (or one holding it) or a hidden folder of it (`~/.ssh`) its data
  /// root, through an absolute path, `..` or a link. `--data-root`, which the user names, is
  /// not checked; `allowOutside` (`--allow-outside-data-root`) lets any root through.
  ///
  /// - Parameter root: The resolved data root (see `resolvedDataRoot`), an existing folder.
  /// - Throws: `ManifestError.invalidValue` for the key `dataRoot`, with the reason.
  public func checkDataRoot(_ root: String, file: String, allowOutside: Bool) throws {
    guard !allowOutside, let real = InputFile.realPath(root) else { return }
    let homes = Self.homeFolders()
    var why: String?
    if real == "/" {
      why = "is the root of the file system"
    } else if let folder = Self.systemFolders.first(where: {
      real == $0 || Self.isInside(real, folder: $0)
    }) {
      why = "lies in the system folder \(folder)"
    } else if homes.contains(real) {
      why = "is the home folder"
    } else if homes.contains(where: { Self.isInside($0, folder: real) }) || real == "/home"
      || real == "/Users"
    {
      why = "holds home folders"
    } else if let home = homes.first(where: { Self.isInside(real, folder: $0) }),
      real.dropFirst(home.count + 1).hasPrefix(".")
    {
      why = "is a hidden folder of the home folder, where keys and settings are kept"
    }
    guard let why else { return }
    let named = dataRoot.map { "'\(Excerpt.text($0))'" } ?? "the default"
    throw ManifestError.invalidValue(
      file: file, key: "dataRoot",
      reason: "the data root \(named) resolves to '\(Excerpt.text(real))', which \(why); no file "
        + "is read under it",
      hint: "keep the data in a folder of its own (dataRoot relative to the manifest, e.g. "
        + "\"../../shared/datasets\"), pass --data-root FOLDER, or --allow-outside-data-root to "
        + "read it anyway")
  }

  /// The user's home folder, from HOME and from the password database, links resolved.
  private static func homeFolders() -> Set<String> {
    var candidates: [String] = []
    if let home = getenv("HOME") { candidates.append(String(cString: home)) }
    if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
      candidates.append(String(cString: directory))
    }
    return Set(candidates.compactMap(InputFile.realPath).filter { $0 != "/" })
  }

  /// Whether `path` lies under `folder`, comparing bytes.
  static func isInside(_ path: String, folder: String) -> Bool {
    let prefix = folder.utf8.last == UInt8(ascii: "/") ? folder : folder + "/"
    return path.utf8.starts(with: prefix.utf8)
  }

  private static func outside(
    _ path: String, root: String, file: String, key: String, why: String
  ) -> ManifestError {
    .invalidValue(
      file: file, key: key,
      reason: "'\(Excerpt.text(path))' \(why) ('\(Excerpt.text(root))'); it is not read",
      hint: "keep source files under the data root (paths relative to it), or pass "
        + "--allow-outside-data-root to read them anyway")
  }

}

extension ManifestError {
  /// The error with the line and column of its key in `bytes`, when it names one.
  func locating(in bytes: [UInt8]) -> ManifestError {
    switch self {
    case .invalidValue(let file, let key, let reason, let hint, nil):
      guard let path = JSONKeyPath(key) else { return self }
      let at = JSONLocator.position(of: path.keys, in: bytes)
      return .invalidValue(file: file, key: key, reason: reason, hint: hint, at: at)
    default:
      return self
    }
  }
}
