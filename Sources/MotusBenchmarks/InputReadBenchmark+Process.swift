// `motus bench io`'s two kinds of work beside the timing: the gzip copy, written member by
// member and never past what the temporary folder can spare, and each timed run, a child
// process waited for so that a signal's handler can kill it (`BenchmarkInterruption`) and
// whose failure is told as the user would type the command.

import Foundation
import MotusData
import MotusGzip
import MotusIngest
import MotusOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension InputReadBenchmark {
  /// The gzip copy of what `reader` reads, at `copy` (a new file, removed unless finished); the
  /// sizes of the text and of the copy.
  ///
  /// - Throws: as `writeMembers`; `BenchmarkRunError` when the copy cannot be created.
  static func writeCompressedCopy(
    of reader: InputReader, named file: String, to copy: String, folder: String
  ) throws -> (Int, Int) {
    let fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw BenchmarkRunError(
        message: "cannot write the gzip copy \(copy): \(InputFile.describe(errno)). HINT: "
          + "point TMPDIR at a folder you can write to.")
    }
    var finished = false
    defer {
      close(fd)
      if !finished { unlink(copy) }
    }
    let sizes = try writeMembers(of: reader, named: file, to: fd, folder: folder)
    finished = true
    return sizes
  }

  /// Writes the text of `reader` to `fd` in gzip members of 16 MiB of text; the sizes of the
  /// text and of what was written. Each member is written only when `folder`'s disk keeps
  /// `reserveBytes` free after it.
  ///
  /// - Throws: `BenchmarkRunError.temporaryFolderFull` (the disk would keep too little, or a
  ///   write found it full), read errors, `BenchmarkInterrupted`.
  static func writeMembers(
    of reader: InputReader, named file: String, to fd: Int32, folder: String
  ) throws -> (Int, Int) {
    var chunk = [UInt8](repeating: 0, count: 16 << 20)
    var written = 0
    while true {
      let filled = try fill(&chunk, from: reader)
      if filled == 0 { break }
      try BenchmarkInterruption.checkpoint()
      let member = Gzip.compress(Array(chunk[..<filled]))
      let free = freeBytes(folder)
      if let free, free.available - member.count < reserveBytes(totalBytes: free.total) {
        throw BenchmarkRunError.temporaryFolderFull(
          folder: folder, file: file, needBytes: member.count, freeBytes: free.available)
      }
      guard member.withUnsafeBytes({ writeAll(fd, $0) }) else {
        let code = errno
        guard code == ENOSPC || code == EDQUOT else {
          throw BenchmarkRunError(
            message: "cannot write the gzip copy of \(file) in \(folder): "
              + "\(InputFile.describe(code)).")
        }
        throw BenchmarkRunError.temporaryFolderFull(
          folder: folder, file: file, needBytes: member.count, freeBytes: free?.available ?? 0)
      }
      written += member.count
    }
    return (reader.bytesRead, written)
  }

  /// What the copy leaves free on its folder's disk: 1% of the disk, at most 64 MiB, so that a
  /// copy never fills the disk that other programs write their temporary files to.
  public static func reserveBytes(totalBytes: Int) -> Int { min(totalBytes / 100, 64 << 20) }

  /// The size of `folder`'s file system and the bytes free to an unprivileged writer; nil when
  /// the system does not say.
  static func freeBytes(_ folder: String) -> (total: Int, available: Int)? {
    var info = statvfs()
    guard statvfs(folder, &info) == 0 else { return nil }
    let unit = Int(info.f_frsize)
    return (Int(info.f_blocks) * unit, Int(info.f_bavail) * unit)
  }

  /// Fills `chunk` from `reader`; the bytes read (0 at the end).
  private static func fill(_ chunk: inout [UInt8], from reader: InputReader) throws -> Int {
    var filled = 0
    while filled < chunk.count {
      let n = try chunk.withUnsafeMutableBytes { raw -> Int? in
        guard let base = raw.baseAddress else { return 0 }
        return try reader.read(into: base + filled, count: raw.count - filled)
      }
      guard let n else { continue }
      if n == 0 { break }
      filled += n
    }
    return filled
  }

  /// Runs one process to its end: wall time and peak resident memory. `shownAs` is the
  /// command as errors give it, `note` what they say after it.
  static func measure(
    _ executable: String, _ arguments: [String], shownAs: String, note: String = ""
  ) throws -> Run {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Output and progress to /dev/null: a failure says to run the command alone.
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // posix_spawn shares this process's memory until the child's exec, and exec records that
    // memory's peak as the child's: reset this process's peak to its present size first
    // (Linux's clear_refs; where it cannot be written, the figure may count this process).
    if let refs = fopen("/proc/self/clear_refs", "w") {
      fputs("5", refs)
      fclose(refs)
    }
    try BenchmarkInterruption.checkpoint()
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw BenchmarkRunError(message: "cannot start `\(shownAs)`: \(InputFile.describe(spawned))")
    }
    let (status, usage) = try reap(pid)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    try BenchmarkInterruption.checkpoint()
    // Exited with 0: the low byte (signal) and the exit code are both zero.
    guard status == 0 else {
      throw BenchmarkRunError.childFailed(command: shownAs, note: note, status: status)
    }
    // ru_maxrss is in kilobytes on Linux.
    return Run(seconds: seconds, peakResidentBytes: Int(usage.ru_maxrss) * 1024)
  }

  /// Waits for `pid`, which a signal's handler may kill meanwhile; its `wait` status and usage.
  private static func reap(_ pid: pid_t) throws -> (Int32, rusage) {
    BenchmarkInterruption.child = pid
    // A signal that came before the child was recorded kills it now.
    if BenchmarkInterruption.requested != nil { kill(pid, SIGKILL) }
    // Waited for without reaping first, so the pid stays this child's while the handler may
    // still kill it; then reaped with its usage.
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    BenchmarkInterruption.child = 0
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
      guard errno == EINTR else {
        throw BenchmarkRunError(message: "waiting for a run: \(InputFile.describe(errno))")
      }
    }
    return (status, usage)
  }

  /// `words` as a shell would take them: a word with anything but letters, digits and
  /// `-_./:=,+@%` is quoted.
  static func shellWords(_ words: [String]) -> String {
    let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%")
    return words.map { word in
      guard word.isEmpty || !word.allSatisfy(plain.contains) else { return word }
      return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }.joined(separator: " ")
  }
}
