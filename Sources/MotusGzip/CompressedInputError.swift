// What can be wrong with a gzip-compressed input once it is open: data that ends early, data
// that is damaged, bytes after it that are not gzip, or more text than one input may hold.
// Each names the file, where the read had got to (the line of the text and the byte of the
// compressed file), and a hint.

import MotusData

/// A gzip-compressed input that cannot be read to its end.
public struct CompressedInputError: Error, Equatable, CustomStringConvertible {
  public enum Problem: Sendable, Equatable {
    /// The file ends inside a gzip member.
    case truncated
    /// zlib's reason (a bad block, a CRC-32 or length that does not match).
    case damaged(reason: String)
    /// After the last whole member come bytes that do not start another.
    case trailingData
    /// The text is longer than `limitBytes` (a gzip bomb, or a file too large for memory).
    case tooLarge(limitBytes: Int)
  }

  /// The path as given (`<stdin>` for `-`).
  public var file: String
  public var problem: Problem
  /// The line of the decompressed text the read had reached (1-based).
  public var line: Int
  /// Bytes of the compressed file read before the problem.
  public var compressedOffset: Int

  public init(file: String, problem: Problem, line: Int, compressedOffset: Int) {
    self.file = file
    self.problem = problem
    self.line = line
    self.compressedOffset = compressedOffset
  }

  /// Why, without the file name (for errors that add their own context).
  public var reason: String {
    let place = "line \(line) of its text, byte \(compressedOffset) of the compressed file"
    switch problem {
    case .truncated:
      return "the file ends inside its compressed data (gzip), at \(place)"
    case .damaged(let reason):
      return "its compressed data (gzip) is damaged at \(place) (\(reason))"
    case .trailingData:
      return "after its compressed data (gzip), at byte \(compressedOffset), come bytes that "
        + "are not gzip"
    case .tooLarge(let limit):
      return "it decompresses to more than \(LimitError.bytes(Double(limit))), the most one "
        + "input may have on this machine (three quarters of its memory)"
    }
  }

  public var hint: String {
    let name = InputFile.standardInputPath == file || file == "<stdin>" ? "FILE" : "'\(file)'"
    switch problem {
    case .truncated:
      return "was it copied whole? `gzip -t \(name)` checks it."
    case .damaged:
      return "the file changed after it was compressed; `gzip -t \(name)` checks it. "
        + "Compress it again from the original."
    case .trailingData:
      return "something was appended to the file; `gzip -t \(name)` names it. Keep only the "
        + "compressed data, or decompress it (`gzip -dc`) and pass the text."
    case .tooLarge:
      return "is it a data file? `gzip -l \(name)` shows the size it decompresses to."
    }
  }

  public var description: String { "\(file): cannot read (\(reason)). HINT: \(hint)" }
}
