// Recognises input that is not UTF-8 text before it is parsed: UTF-16 and UTF-32 (with or
// without a byte order mark), compressed data (bzip2, xz, zstd, zlib, and gzip found inside
// gzip, whose outer layer is inflated as it is read) and other binary data. Such input would
// otherwise give one huge, garbled "column name" and errors full of raw bytes.

/// What the first bytes of an input say about its encoding.
public enum TextEncoding {
  /// Bytes looked at: enough for a header line and a few rows.
  static let sampleLength = 4096

  /// nil for ASCII or UTF-8 text; else a name for what it looks like, such as
  /// `"UTF-16 (little-endian)"` or `"binary data"`.
  public static func problem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let n = min(bytes.count, sampleLength)
    guard n > 0 else { return nil }
    func starts(_ prefix: [UInt8]) -> Bool {
      n >= prefix.count && prefix.indices.allSatisfy { bytes[$0] == prefix[$0] }
    }
    if starts([0xFF, 0xFE, 0, 0]) { return "UTF-32 (little-endian)" }
    if starts([0, 0, 0xFE, 0xFF]) { return "UTF-32 (big-endian)" }
    if starts([0xFF, 0xFE]) { return "UTF-16 (little-endian)" }
    if starts([0xFE, 0xFF]) { return "UTF-16 (big-endian)" }
    if let compressed = compression(starts, level: n > 3 ? bytes[3] : 0) { return compressed }
    var zerosAtEven = 0
    var zerosAtOdd = 0
    var control = 0
    for i in 0..<n {
      let b = bytes[i]
      if b == 0 {
        if i % 2 == 0 { zerosAtEven += 1 } else { zerosAtOdd += 1 }
      } else if b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D {
        control += 1
      }
    }
    let zeros = zerosAtEven + zerosAtOdd
    // ASCII text in UTF-16 has a NUL beside every character, all at odd or all at even offsets.
    if zeros >= n / 4 && zeros > 0 {
      if zerosAtOdd >= 9 * zeros / 10 { return "UTF-16 (little-endian, no byte order mark)" }
      if zerosAtEven >= 9 * zeros / 10 { return "UTF-16 (big-endian, no byte order mark)" }
    }
    guard zeros > 0 || control > n / 10 else { return nil }
    // Two bytes only: named only when the rest is binary too.
    if n >= 2, bytes[0] == 0x78, [0x01, 0x5E, 0x9C, 0xDA].contains(bytes[1]) { return zlib }
    return "binary data"
  }

  static let zlib = "zlib-compressed data"

  /// The compressed format whose magic bytes the input starts with.
  /// `level`: the fourth byte (bzip2's block size, `1`-`9`).
  private static func compression(_ starts: ([UInt8]) -> Bool, level: UInt8) -> String? {
    if starts([0x1F, 0x8B, 0x08]) { return "gzip-compressed data (inside gzip: compressed twice)" }
    if starts(Array("BZh".utf8)), (0x31...0x39).contains(level) { return "bzip2-compressed data" }
    if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "xz-compressed data" }
    if starts([0x28, 0xB5, 0x2F, 0xFD]) { return "zstd-compressed data" }
    return nil
  }

  /// `problem` for a byte array.
  public static func problem(_ bytes: [UInt8]) -> String? {
    bytes.withUnsafeBufferPointer { problem($0) }
  }

  /// The hint that goes with a `problem`.
  public static func hint(for problem: String) -> String {
    if problem.hasPrefix("UTF") {
      return "save the file as UTF-8 (in a spreadsheet: CSV UTF-8), or convert it with "
        + "`iconv -f \(problem.hasPrefix("UTF-16") ? "UTF-16" : "UTF-32") -t UTF-8`."
    }
    let decompress: String? =
      switch problem.prefix(while: { $0 != "-" }) {
      case "gzip": "`gzip -dc FILE > ONCE.csv.gz` (Motus inflates the one layer left)"
      case "bzip2": "`bzip2 -dc FILE > FILE.csv`"
      case "xz": "`xz -dc FILE > FILE.csv`"
      case "zstd": "`zstd -dc FILE > FILE.csv`"
      case "zlib":
        "`python3 -c 'import sys,zlib; sys.stdout.buffer.write(zlib.decompress("
          + "sys.stdin.buffer.read()))' < FILE > FILE.csv`"
      default: nil
      }
    if let decompress {
      return "Motus reads CSV text and gzip; decompress it first: \(decompress)."
    }
    return "pass a CSV text file (a header line, then one row per sample)."
  }
}
