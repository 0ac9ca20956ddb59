// Why a model file could not be read or written; every message names the file and gives a hint.

/// A model file is missing, damaged, of another kind or from another version.
public enum ModelFileError: Error, CustomStringConvertible, Equatable {
  case unreadable(file: String, reason: String)
  case unwritable(file: String, reason: String)
  /// The file ends before `expected` bytes (it has `actual`).
  case truncated(file: String, expected: Int, actual: Int)
  /// The first 8 bytes are not `MOTUSMDL`.
  case badMagic(file: String)
  case unsupportedVersion(file: String, version: UInt32, supported: ClosedRange<UInt32>)
  /// The JSON header does not decode.
  case malformedHeader(file: String, reason: String)
  /// A tensor's declared shape disagrees with the model structure.
  case shapeMismatch(file: String, tensor: String, expected: [Int], actual: [Int])
  /// Bytes after the last tensor.
  case trailingBytes(file: String, count: Int)
  /// The CRC-32 at the end of a version 2 file does not match its contents.
  case checksumMismatch(file: String)

  public var description: String {
    let retrain = "HINT: re-run `motus train` with this build to write a fresh model file."
    switch self {
    case .unreadable(let file, let reason):
      return "\(file): cannot read model file (\(reason)). HINT: check the path; a model is a "
        + ".motus file written by `motus train`."
    case .unwritable(let file, let reason):
      return "\(file): cannot write model file (\(reason)); any previous file is unchanged. "
        + "HINT: check that the directory exists and is writable."
    case .truncated(let file, let expected, let actual):
      return "\(file): model file is truncated: \(actual) bytes, expected at least \(expected). "
        + retrain
    case .badMagic(let file):
      return "\(file): not a Motus model file (it does not start with MOTUSMDL). "
        + "HINT: pass a file written by `motus train` (usually *.motus)."
    case .unsupportedVersion(let file, let version, let supported):
      return "\(file): model file version \(version) is not supported by this build "
        + "(supported: \(supported.lowerBound)...\(supported.upperBound)). "
        + (version > supported.upperBound
          ? "HINT: upgrade Motus, or re-run `motus train` with this build."
          : retrain)
    case .malformedHeader(let file, let reason):
      return "\(file): model file header is damaged (\(reason)). " + retrain
    case .shapeMismatch(let file, let tensor, let expected, let actual):
      return "\(file): tensor '\(tensor)' has shape \(actual), expected \(expected). " + retrain
    case .trailingBytes(let file, let count):
      return "\(file): \(count) unexpected bytes after the last tensor. " + retrain
    case .checksumMismatch(let file):
      return "\(file): model file is damaged: its checksum does not match its contents (a byte "
        + "was changed or lost). HINT: copy the file again from where it came from, or re-run "
        + "`motus train` to write a fresh one."
    }
  }
}
