// Errors reading a dataset manifest: each names the manifest file and the JSON key.

import MotusData

/// A manifest that cannot be read, decoded or applied.
public enum ManifestError: Error, Equatable, CustomStringConvertible {
  case unreadable(file: String, reason: String)
  /// Not JSON, or a key has the wrong type or is missing. `key` is a path like
  /// `sources[2].labels`; `at` is where in the text, when known.
  case invalidJSON(file: String, key: String, reason: String, at: JSONPosition? = nil)
  case invalidValue(
    file: String, key: String, reason: String, hint: String, at: JSONPosition? = nil)
  /// Loading a source's CSV files failed; `reason` is the loader's message.
  case sourceFailed(file: String, key: String, reason: String)
  /// The subject filters (`LoadOptions.subjects`, `.excludeSubjects`, source-prefixed) left
  /// no recording.
  case noRecordingLeft

  public var description: String {
    switch self {
    case .unreadable(let file, let reason):
      return "\(file): cannot read the manifest: \(reason). HINT: check the --manifest path."
    case .invalidJSON(let file, let key, let reason, let at):
      return "\(file)\(at.map { ":\($0)" } ?? ""): key '\(Excerpt.text(key))': \(reason). "
        + "HINT: see datasets/README.md for the manifest format."
    case .invalidValue(let file, let key, let reason, let hint, let at):
      return "\(file)\(at.map { ":\($0)" } ?? ""): key '\(Excerpt.text(key))': \(reason). "
        + "HINT: \(hint)"
    case .sourceFailed(let file, let key, let reason):
      return "\(file): key '\(key)': \(reason)"
    case .noRecordingLeft:
      return "no recording of the manifest is left after --subjects/--exclude-subjects. HINT: "
        + "subjects are source-prefixed there: e.g. --subjects motionsense:1-16,qrowd:1-2 "
        + "(motus inspect --manifest FILE lists them)."
    }
  }
}
