// The one rule every command writes its outputs by (model, features, report):
//
// - `-` is standard output, written through `StandardOutput` (checked like every other write).
// - An output that is one of the inputs (the same file by device and inode, whatever the path
//   says) is refused, before any work; so is an output that is another output of the same run
//   (by inode, or for a file not yet there by its folder and name, however either is spelled).
//   A command declares all its outputs to each other, folders of outputs included.
// - A character device or FIFO (`/dev/null`, `>(…)`) is written in place; a folder, block
//   device or socket is refused; a symbolic link is followed to the file it names.
// - A regular file is written to a temporary file in the same folder, created exclusively
//   (O_EXCL, a random name, no symbolic link followed), then renamed over the target, so a
//   failed or interrupted run leaves the earlier file intact. The temporary file is removed
//   on error, at exit and on SIGINT/SIGTERM (see `TemporaryFiles`).

import Foundation
import MotusData

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output being written.
///
///     let output = try OutputFile(path: "windows.csv", flag: "--output", inputs: ["data.csv"])
///     try output.write(Array(text.utf8))
///     try output.commit()   // or nothing: deinit discards an uncommitted output
///
/// Open outputs before reading inputs: a bad output then fails before minutes of work.
public final class OutputFile {
  /// The path as given.
  public let path: String
  /// Names the output in errors (`--output`, `--report`, `model file`).
  public let flag: String

  private enum Target {
    case standardOutput
    case inPlace(fd: Int32)
    case replace(fd: Int32, temporary: String, final: String, slot: Int)
    case done
  }
  private var target: Target

  /// Checks the rule above and opens the temporary file (or the device).
  ///
  /// - Parameters:
  ///   - inputs: Paths the command reads; an output that is one of them is refused.
  ///   - otherOutputs: Outputs of the same run, and folders that will hold outputs (one file
  ///     cannot be two outputs).
  /// - Throws: `OutputFileError`.
  public init(path: String, flag: String, inputs: [String], otherOutputs: [String] = []) throws {
    self.path = path
    self.flag = flag
    guard !path.isEmpty else {
      throw OutputFileError.notAFile(
        path: "''", flag: flag, kind: "an empty name (an empty argument, or a variable not set)")
    }
    if path == InputFile.standardInputPath {
      if let other = otherOutputs.first(where: { $0 == path }) {
        throw OutputFileError.sameAsOtherOutput(path: path, flag: flag, other: other)
      }
      target = .standardOutput
      return
    }
    var info = stat()
    var linkInfo = stat()
    let exists = stat(path, &info) == 0
    if !exists, lstat(path, &linkInfo) == 0 {
      throw OutputFileError.danglingLink(path: path, flag: flag)
    }
    if exists {
      if let device = try Self.existingTarget(
        path: path, flag: flag, info: info, inputs: inputs, otherOutputs: otherOutputs)
      {
        target = device
        return
      }
    } else {
      for other in otherOutputs where Self.sameName(path, other) {
        throw OutputFileError.sameAsOtherOutput(path: path, flag: flag, other: other)
      }
    }
    target = try Self.replacement(path: path, flag: flag, existing: exists ? info : nil)
  }

  /// Refuses an existing `path` that is an input, another output or not a file; a device or a
  /// FIFO is written in place (returned), a regular file replaced (nil).
  private static func existingTarget(
    path: String, flag: String, info: stat, inputs: [String], otherOutputs: [String]
  ) throws -> Target? {
    for input in inputs where OutputFile.sameFile(info, input) {
      throw OutputFileError.sameAsInput(path: path, flag: flag, input: input)
    }
    for other in otherOutputs where OutputFile.sameFile(info, other) {
      throw OutputFileError.sameAsOtherOutput(path: path, flag: flag, other: other)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFCHR, S_IFIFO:
      let fd = open(path, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else {
        throw OutputFileError.cannotCreate(path: path, flag: flag, reason: InputFile.lastError())
      }
      return .inPlace(fd: fd)
    case S_IFDIR: throw OutputFileError.notAFile(path: path, flag: flag, kind: "a folder")
    case S_IFBLK: throw OutputFileError.notAFile(path: path, flag: flag, kind: "a block device")
    default: throw OutputFileError.notAFile(path: path, flag: flag, kind: "a socket")
    }
  }

  /// A new temporary file beside `path`, renamed over it on commit; `existing` is the file it
  /// replaces, whose permissions it keeps.
  private static func replacement(path: String, flag: String, existing: stat?) throws -> Target {
    // A symbolic link is replaced at the file it names, not by a regular file of its own.
    let final = existing != nil ? (InputFile.realPath(path) ?? path) : path
    let folder = PathName.folder(final)
    let directory = folder.isEmpty ? "." : folder
    var folderInfo = stat()
    guard stat(directory, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
      throw OutputFileError.noFolder(path: path, flag: flag, folder: directory)
    }
    let name = PathName.last(final)
    var fd: Int32 = -1
    var temporary = ""
    var failure: Int32 = EEXIST
    for _ in 0..<16 where failure == EEXIST {
      let random = String(UInt64.random(in: 0...UInt64.max), radix: 36)
      temporary = (directory as NSString).appendingPathComponent(".\(name).\(random).tmp")
      fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
      failure = fd >= 0 ? 0 : errno
    }
    guard fd >= 0 else {
      throw OutputFileError.cannotCreate(
        path: path, flag: flag, reason: InputFile.describe(failure))
    }
    if let existing { _ = fchmod(fd, existing.st_mode & 0o7777) }
    let slot = TemporaryFiles.register(temporary)
    return .replace(fd: fd, temporary: temporary, final: final, slot: slot)
  }

  deinit { discard() }

  /// Whether the output is a regular file written by temporary file and rename.
  public var isReplacedAtomically: Bool {
    if case .replace = target { return true }
    return false
  }

  /// Appends `bytes`.
  ///
  /// - Throws: `OutputFileError.writeFailed` (the temporary file is removed);
  ///   `StandardOutputError` for `-`, as every write to standard output.
  public func write(_ bytes: [UInt8]) throws {
    let fd: Int32
    switch target {
    case .standardOutput: return try StandardOutput.write(bytes)
    case .inPlace(let f), .replace(let f, _, _, _): fd = f
    case .done: return
    }
    guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else {
      let reason = InputFile.lastError()
      discard()
      throw OutputFileError.writeFailed(path: path, flag: flag, reason: reason)
    }
  }

  /// Appends UTF-8 text.
  public func write(_ text: String) throws { try write(Array(text.utf8)) }

  /// Makes the output final: flushes a regular file and renames it over the target.
  ///
  /// - Throws: `OutputFileError.writeFailed` (the earlier file stays as it was).
  public func commit() throws {
    switch target {
    case .standardOutput, .done:
      target = .done
    case .inPlace(let fd):
      close(fd)
      target = .done
    case .replace(let fd, let temporary, let final, let slot):
      let synced = fsync(fd) == 0 || errno == EINVAL
      let reason = synced ? "" : InputFile.lastError()
      close(fd)
      target = .done
      guard synced, rename(temporary, final) == 0 else {
        let why = synced ? InputFile.lastError() : reason
        unlink(temporary)
        TemporaryFiles.unregister(slot)
        throw OutputFileError.writeFailed(path: path, flag: flag, reason: why)
      }
      TemporaryFiles.unregister(slot)
    }
  }

  /// Drops an uncommitted output: the temporary file is removed, the target untouched.
  public func discard() {
    switch target {
    case .replace(let fd, let temporary, _, let slot):
      close(fd)
      unlink(temporary)
      TemporaryFiles.unregister(slot)
    case .inPlace(let fd):
      close(fd)
    case .standardOutput, .done:
      break
    }
    target = .done
  }

  /// Writes `bytes` to `path` by the rule, in one step.
  public static func write(
    _ bytes: [UInt8], to path: String, flag: String, inputs: [String] = []
  ) throws {
    let output = try OutputFile(path: path, flag: flag, inputs: inputs)
    try output.write(bytes)
    try output.commit()
  }

  /// Whether `path` and `other`, neither of which exists, name one file: the same name in the
  /// same folder, the folders compared by device and inode (`out/x`, `./out/x`, `/abs/out/x`),
  /// or, where a folder is not there yet, by the absolute path with `.` and `..` resolved.
  static func sameName(_ path: String, _ other: String) -> Bool {
    var otherInfo = stat()
    guard other != InputFile.standardInputPath, lstat(other, &otherInfo) != 0 else { return false }
    let name = PathName.last(path)
    guard !name.isEmpty, name == PathName.last(other) else { return false }
    func folder(_ p: String) -> stat? {
      let parent = PathName.folder(p)
      var info = stat()
      return stat(parent.isEmpty ? "." : parent, &info) == 0 ? info : nil
    }
    guard let a = folder(path), let b = folder(other) else {
      return absolute(path) == absolute(other)
    }
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino
  }

  /// `path` from the root, `.` and `..` resolved by name.
  private static func absolute(_ path: String) -> String {
    let full =
      path.hasPrefix("/")
      ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    return (full as NSString).standardizingPath
  }

  /// Whether `path` is the file `info` describes (same device and inode).
  static func sameFile(_ info: stat, _ path: String) -> Bool {
    var other = stat()
    let found =
      path == InputFile.standardInputPath ? fstat(0, &other) == 0 : stat(path, &other) == 0
    return found && other.st_mode & S_IFMT == S_IFREG && other.st_dev == info.st_dev
      && other.st_ino == info.st_ino
  }
}

/// `write(2)` under a name that `OutputFile.write` does not shadow.
@inline(__always)
func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}

/// Writes all of `bytes` to `fd`, again after an interrupted or partial write; false when a
/// write fails (`errno` says why).
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
  guard let base = bytes.baseAddress else { return true }
  var offset = 0
  while offset < bytes.count {
    let n = systemWrite(fd, base + offset, bytes.count - offset)
    if n < 0 && errno == EINTR { continue }
    guard n > 0 else { return false }
    offset += n
  }
  return true
}
