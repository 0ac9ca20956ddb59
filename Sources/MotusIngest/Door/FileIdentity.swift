// What a file is whatever path names it: its device and inode. Two paths (a symbolic link,
// `./a.csv` and `a.csv`, `-` and /dev/stdin) name one file when these agree.

import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file's device and inode.
public struct FileIdentity: Hashable, Sendable {
  public var device: UInt64
  public var inode: UInt64

  /// The identity `info` (from `stat` or `fstat`) describes.
  public init(_ info: stat) {
    device = UInt64(truncatingIfNeeded: info.st_dev)
    inode = UInt64(truncatingIfNeeded: info.st_ino)
  }

  /// The identity of the file `path` names, links followed (`-`: standard input's); nil when
  /// there is none.
  public init?(path: String) {
    var info = stat()
    let found =
      path == InputFile.standardInputPath ? fstat(0, &info) == 0 : stat(path, &info) == 0
    guard found else { return nil }
    self.init(info)
  }
}
