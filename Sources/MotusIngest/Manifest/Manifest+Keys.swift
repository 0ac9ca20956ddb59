// The keys a manifest may hold. JSONDecoder ignores keys it does not know, so a misspelt one
// ("lables", "negateAccelration") would silently leave its setting at the default; every
// object's keys are checked against the format before decoding.

import Foundation
import MotusData

extension Manifest {
  /// Keys of the top-level object (datasets/README.md, "Format").
  public static let keys = [
    "name", "description", "dataRoot", "sampleRateHz", "channels", "labels", "negativeLabels",
    "sources",
  ]
  /// Keys of a `sources[]` object; its `labels` maps source labels, any names.
  public static let sourceKeys = [
    "name", "files", "channels", "negateAcceleration", "labels", "subjects", "excludeSubjects",
    "joinClips", "weight", "placementSeparator", "label", "licence",
  ]
  /// Keys of a source's `joinClips` object.
  public static let clipJoinKeys = ["runSeparator", "oneRepetitionPerClip"]

  /// Refuses the first key, in the text's order, that the format does not have, with its path,
  /// line and column and the known key it is closest to.
  ///
  /// - Throws: `ManifestError.invalidValue`.
  static func checkKeys(_ bytes: [UInt8], file: String) throws {
    guard let top = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
      return  // not an object: the decoder says what it expected
    }
    typealias Key = JSONKeyPath.Key
    var unknown: [(path: [Key], known: [String], what: String)] = []
    func collect(_ object: [String: Any], known: [String], path: [Key], what: String) {
      for key in object.keys where !known.contains(key) {
        unknown.append((path + [Key(stringValue: key)], known, what))
      }
    }
    collect(top, known: keys, path: [], what: "a manifest")
    for (i, element) in ((top["sources"] as? [Any]) ?? []).enumerated() {
      guard let source = element as? [String: Any] else { continue }
      let path = [Key(stringValue: "sources"), Key(intValue: i)]
      collect(source, known: sourceKeys, path: path, what: "a source")
      if let join = source["joinClips"] as? [String: Any] {
        collect(
          join, known: clipJoinKeys, path: path + [Key(stringValue: "joinClips")],
          what: "joinClips")
      }
    }
    let placed = unknown.map { ($0, JSONLocator.keyPosition(of: $0.path, in: bytes)) }
    guard
      let (first, position) = placed.min(by: { a, b in
        (a.1?.line ?? .max, a.1?.column ?? .max) < (b.1?.line ?? .max, b.1?.column ?? .max)
      })
    else { return }
    let name = first.path.last?.stringValue ?? ""
    let suggestion = SpellingSuggestion.closest(to: name, among: first.known)
    throw ManifestError.invalidValue(
      file: file, key: JSONKeyPath.text(first.path),
      reason: "\(first.what) has no key '\(Excerpt.text(name))', so its value would be ignored",
      hint: (suggestion.map { "did you mean '\($0)'? The" } ?? "the")
        + " keys of \(first.what) are \(first.known.joined(separator: ", ")) (datasets/README.md)",
      at: position)
  }
}
