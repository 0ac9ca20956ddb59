import Foundation

/// CSV text rules shared by every writer (features tables, evaluation reports, app-export
/// conversion).
public enum CSVText {
  /// The field as is, or quoted with inner quotes doubled when it holds a comma, quote or line
  /// break (RFC 4180).
  public static func field(_ text: String) -> String {
    // Bytes, not characters: "\r\n" is one Character, equal to neither "\r" nor "\n", and a
    // combining mark after a quote hides it the same way.
    guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D })
    else { return text }
    var bytes: [UInt8] = [0x22]
    for byte in text.utf8 {
      bytes.append(byte)
      if byte == 0x22 { bytes.append(0x22) }
    }
    bytes.append(0x22)
    return String(decoding: bytes, as: UTF8.self)
  }
}
