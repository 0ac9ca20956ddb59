// Whole reads of an input's text, gzip inflated as it is read (`InputReader`): what every
// reader of recordings calls instead of `InputFile.read`, which reads bytes as they are
// (model files, manifests).

import MotusData

extension InputFile {
  /// The text of `path` (`-` reads standard input): its bytes, or for gzip input (recognised
  /// by its first bytes) the bytes it inflates to. One buffer of the text's size is filled as
  /// the input is read; no copy of the compressed file is kept.
  ///
  /// - Parameters:
  ///   - limit: Most bytes of text accepted; more is an error, not an allocation.
  ///   - lineLimit, blankLimit: The line rule (`LineCheck`), applied as the text is read.
  /// - Throws: `InputFileError` naming the file, with the system's reason;
  ///   `CompressedInputError` for gzip that is cut short, damaged or inflates beyond `limit`;
  ///   `LimitError.lineTooLong`, `.blankLines` once the text read passes the line rule.
  public static func readText(
    _ path: String, limit: Int = Limits.inputFileBytes, lineLimit: Int = Limits.lineBytes,
    blankLimit: Int = Limits.blankLineRun
  ) throws -> [UInt8] {
    let reader = try InputReader(path: path, limit: limit)
    let compressed = try reader.isCompressed()
    let expected = try reader.expectedSize()
    if !compressed && expected > limit {
      throw InputFileError.tooLarge(file: reader.name, limitBytes: limit)
    }
    var lines = LineCheck(file: reader.name, lineLimit: lineLimit, blankLimit: blankLimit)
    // A buffer of the expected size, filled in place (for gzip, whose size is a claim of its
    // trailer, at most 64 MiB at first); then chunks for what is beyond it (a pipe, a file
    // that grew, a gzip file of several members). Reads of at most 4 MiB, each checked.
    let size = min(expected, limit, compressed ? 64 << 20 : Int.max)
    var bytes = try [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      count = 0
      guard let base = buffer.baseAddress else { return }
      while count < size {
        guard let n = try reader.read(into: base + count, count: min(size - count, 4 << 20))
        else { continue }
        if n == 0 { break }
        try lines.check(UnsafeBufferPointer(start: base + count, count: n))
        count += n
      }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let read = try chunk.withUnsafeMutableBytes { raw in
        try raw.baseAddress.flatMap { try reader.read(into: $0, count: raw.count) }
      }
      guard let n = read else { continue }
      if n == 0 { break }
      try chunk.withUnsafeBufferPointer {
        try lines.check(UnsafeBufferPointer(rebasing: $0[0..<n]))
      }
      bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
  }

  /// Up to `count` bytes from the start of the text of `path` (a header to recognise), read
  /// as `readText` reads: what `openForReading` refuses and read errors throw, never trap.
  public static func readTextPrefix(_ path: String, count: Int) throws -> [UInt8] {
    let reader = try InputReader(path: path, limit: Int.max)
    return try [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
      filled = 0
      guard let base = buffer.baseAddress else { return }
      while filled < count {
        guard let n = try reader.read(into: base + filled, count: count - filled) else { continue }
        if n == 0 { break }
        filled += n
      }
    }
  }

  /// The size of the text of a regular file (`InputReader.expectedSize`), for progress and
  /// estimates; 0 for anything else or a file that cannot be opened.
  public static func textSizeHint(_ path: String) -> Int {
    guard path != standardInputPath, kind(path) == .regularFile,
      let reader = try? InputReader(path: path)
    else { return 0 }
    return (try? reader.expectedSize()) ?? 0
  }

  /// Whether a folder's entry is read as a CSV file: `.csv`, or `.csv.gz` (compressed), in any
  /// case. Inside a file gzip is recognised by its bytes; in a listing only the name is known.
  public static func isCSVName(_ name: String) -> Bool {
    let lowered = name.lowercased()
    return lowered.hasSuffix(".csv") || lowered.hasSuffix(".csv.gz")
  }

  /// A folder entry's name as its text is named: `.gz` dropped from a `.csv.gz` name
  /// (`Accelerometer.csv.gz` is `Accelerometer.csv`), so that readers that look for a file
  /// by its name find a compressed one by the same rule.
  public static func textName(_ name: String) -> String {
    name.lowercased().hasSuffix(".csv.gz") ? String(name.dropLast(3)) : name
  }
}
