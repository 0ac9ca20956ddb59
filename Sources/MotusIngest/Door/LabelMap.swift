// Renames dataset labels to the toolkit's classes: "sitting=stationary,standing=stationary".

/// Parses and applies a label renaming. Labels not in the map keep their name.
public enum LabelMap {
  /// Parses `"a=b,c=d"` into `["a": "b", "c": "d"]`.
  ///
  /// - Parameter flag: Named in the error message (for example `--map`).
  /// - Throws: `LabelMap.ParseError` for an item without `=`, an empty side, or a label
  ///   mapped twice to different names.
  public static func parse(_ text: String, flag: String = "--map") throws -> [String: String] {
    var map: [String: String] = [:]
    for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
      let item = String(raw)
      let sides = item.split(separator: "=", omittingEmptySubsequences: false)
      guard sides.count == 2 else {
        throw ParseError(flag: flag, text: text, item: item, reason: "expected `from=to`")
      }
      let from = String(sides[0]).trimmingASCIISpaces()
      let to = String(sides[1]).trimmingASCIISpaces()
      guard !from.isEmpty, !to.isEmpty else {
        throw ParseError(flag: flag, text: text, item: item, reason: "a label name is empty")
      }
      if let earlier = map[from], earlier != to {
        throw ParseError(
          flag: flag, text: text, item: item,
          reason: "'\(from)' is already mapped to '\(earlier)'")
      }
      map[from] = to
    }
    return map
  }

  public struct ParseError: Error, Equatable, CustomStringConvertible {
    public var flag: String
    public var text: String
    public var item: String
    public var reason: String
    public var description: String {
      "\(flag) '\(text)': item '\(item)': \(reason). "
        + "HINT: write `sitting=stationary,standing=stationary`."
    }
  }
}
