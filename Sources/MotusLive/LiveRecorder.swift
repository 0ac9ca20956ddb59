// `--record DIR`: each session's samples (`<device>-<session>.csv`, long layout) and its
// prediction lines (`<device>-<session>.predictions.jsonl`), appended with one write per batch,
// so after a crash the files hold every batch but the one being written.

import Foundation
import MotusData
import MotusOutput

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class LiveRecorder {
  let samplesPath: String
  let predictionsPath: String
  private var samples: Int32
  private var predictions: Int32

  /// Opens (creating or appending to) both files of `device`'s `session` in `folder`; the
  /// header goes to a new or empty samples file only.
  init(folder: String, device: String, session: String, header: String) throws(LiveInputError) {
    let base = (folder as NSString).appendingPathComponent(Self.fileName(device: device, session: session))
    samplesPath = base + ".csv"
    predictionsPath = base + ".predictions.jsonl"
    samples = try Self.openForAppending(samplesPath)
    do {
      predictions = try Self.openForAppending(predictionsPath)
    } catch {
      closeDescriptor(samples)
      throw error
    }
    // Bodies of a new session can race to make its stream (one is kept): looking for an
    // empty file and writing the header are one step under an advisory lock, so two
    // recorders of one file write one header.
    try Self.lock(samples, path: samplesPath)
    defer { flock(samples, LOCK_UN) }
    if lseek(samples, 0, SEEK_END) == 0 {
      try append(samples: Array((header + "\n").utf8), predictions: [])
    }
  }

  /// Takes `fd`'s exclusive advisory lock, waiting for it (again when a signal interrupts).
  /// - Throws: A 500 naming the file when the file system refuses locks (some network ones):
  ///   unlocked, two racing bodies could each write a header.
  private static func lock(_ fd: Int32, path: String) throws(LiveInputError) {
    while flock(fd, LOCK_EX) != 0 {
      let code = errno
      guard code == EINTR else {
        throw LiveInputError(
          status: 500,
          "cannot lock \(path) to write its header: \(String(cString: strerror(code))).",
          hint: "record to a folder on a local disk (--record DIR).")
      }
    }
  }

  /// A descriptor appending to `path`, created if missing. A symbolic link there is refused
  /// (`O_NOFOLLOW`): the recording never writes through a link planted in the folder.
  private static func openForAppending(_ path: String) throws(LiveInputError) -> Int32 {
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd < 0 else { return fd }
    let code = errno
    if code == ELOOP {
      throw LiveInputError(
        status: 500, "cannot record to \(path): it is a symbolic link; not followed.",
        hint: "remove the link from the --record folder, or record to a folder of its own.")
    }
    throw LiveInputError(
      status: 500, "cannot record to \(path): \(String(cString: strerror(code))).",
      hint: "check that the --record folder exists and is writable.")
  }

  /// Appends one batch's sample lines and prediction lines.
  ///
  /// - Throws: A 507 naming the file and the reason when a write fails (a full disk): the
  ///   batch was classified, but the recording no longer holds it, and the page says so.
  func append(samples lines: [UInt8], predictions made: [UInt8]) throws(LiveInputError) {
    for (fd, bytes, path) in [(samples, lines, samplesPath), (predictions, made, predictionsPath)] {
      guard bytes.withUnsafeBytes({ writeAll(fd, $0) }) else {
        throw LiveInputError(
          status: 507, "cannot record to \(path): \(String(cString: strerror(errno))).",
          hint: "free space in the --record folder; the stream goes on, the recording misses it.")
      }
    }
  }

  func close() {
    if samples >= 0 { closeDescriptor(samples) }
    if predictions >= 0 { closeDescriptor(predictions) }
    samples = -1
    predictions = -1
  }

  deinit { close() }

  /// The file name (without extension) of `device`'s `session`: `<device>-<session>` when that
  /// is a plain name (ASCII letters, digits, `-`, `_` and `.`, no leading dot, 120 characters at
  /// most) and the device holds no `-`; otherwise made plain (anything else as `_`, a leading
  /// `_` before a dot, cut to 120) and followed by `~` and the FNV-1a digest of the raw device
  /// and session, so sessions whose plain names coincide ("a/b", "a_b") never share a file. A
  /// device without `-` makes the first `-` the one between device and session, so device
  /// "a-b" with session "c" and device "a" with session "b-c" cannot both be "a-b-c". No plain
  /// name holds a `~`.
  static func fileName(device: String, session: String) -> String {
    let raw = "\(device)-\(session)"
    let plain = plainName(raw)
    guard plain != raw || device.contains("-") else { return raw }
    var digest = FNV1a64()
    digest.combine(device)
    digest.combine(session)
    return plain + "~" + digest.hex
  }

  static func plainName(_ name: String) -> String {
    var out = String(
      name.unicodeScalars.map { s -> Character in
        let keep = (s.isASCII && (CharacterSet.alphanumerics.contains(s))) || "-_.".unicodeScalars.contains(s)
        return keep ? Character(s) : "_"
      })
    if out.isEmpty || out.hasPrefix(".") { out = "_" + out }
    return String(out.prefix(120))
  }
}

private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
