// `--record DIR`: each session's samples (`<session>.csv`, long layout) and its prediction
// lines (`<session>.predictions.jsonl`), appended with one write per batch, so after a crash
// the files hold every batch but the one being written.

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

  /// Opens (creating or appending to) both files of `name` in `folder`; the header goes to a
  /// new or empty samples file only.
  init(folder: String, name: String, header: String) throws(LiveInputError) {
    let base = (folder as NSString).appendingPathComponent(Self.fileName(name))
    samplesPath = base + ".csv"
    predictionsPath = base + ".predictions.jsonl"
    samples = open(samplesPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    predictions = open(predictionsPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard samples >= 0, predictions >= 0 else {
      let reason = String(cString: strerror(errno))
      if samples >= 0 { closeDescriptor(samples) }
      if predictions >= 0 { closeDescriptor(predictions) }
      throw LiveInputError(
        status: 500, "cannot record to \(base).csv/.predictions.jsonl: \(reason).",
        hint: "check that the --record folder exists and is writable.")
    }
    if lseek(samples, 0, SEEK_END) == 0 {
      try append(samples: Array((header + "\n").utf8), predictions: [])
    }
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

  /// A session's name as a file name: letters, digits, `-`, `_` and `.` kept, anything else
  /// (a `/` above all) as `_`; never empty, never starting with a dot.
  static func fileName(_ name: String) -> String {
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
