// Which subjects to keep or drop: "1-16", "17-20", "1-3,7", names such as "alice,bob", and
// source-prefixed forms for manifests ("motionsense:17-20,qrowd:3,gains_pushup:Eric").

/// A set of subjects given as comma-separated numbers, inclusive ranges and names.
///
/// A subject whose name is an integer matches a range (`"7"` is in `1-16`); a subject
/// `source:7` matches `source:1-16`; any other subject matches only an identical name.
public struct SubjectFilter: Sendable, Equatable, CustomStringConvertible {
  public var ranges: [ClosedRange<Int>]
  public var names: Set<String>
  /// Ranges that apply to subjects named `prefix:<number>` (a manifest's source prefix).
  public var prefixedRanges: [PrefixedRange]

  public struct PrefixedRange: Sendable, Equatable {
    public var prefix: String
    public var range: ClosedRange<Int>

    public init(prefix: String, range: ClosedRange<Int>) {
      self.prefix = prefix
      self.range = range
    }
  }

  public init(
    ranges: [ClosedRange<Int>] = [], names: Set<String> = [], prefixedRanges: [PrefixedRange] = []
  ) {
    self.ranges = ranges
    self.names = names
    self.prefixedRanges = prefixedRanges
  }

  /// Parses `"1-16,18"`.
  ///
  /// - Parameter flag: Named in the error message (for example `--subjects`).
  /// - Throws: `SubjectFilter.ParseError` for an empty list, an empty item or a range whose
  ///   end is below its start.
  public init(parsing text: String, flag: String = "--subjects") throws {
    var ranges: [ClosedRange<Int>] = []
    var names: Set<String> = []
    var prefixed: [PrefixedRange] = []
    let items = text.split(separator: ",", omittingEmptySubsequences: false)
    for raw in items {
      let item = String(raw).trimmingASCIISpaces()
      guard !item.isEmpty else { throw ParseError(flag: flag, text: text, item: item) }
      if let n = Int(item) {
        ranges.append(n...n)
        continue
      }
      // `source:17-20` or `source:3`: a range within one manifest source.
      if let colon = item.lastIndex(of: ":") {
        let prefix = String(item[..<colon])
        let body = item[item.index(after: colon)...]
        let bounds = body.split(separator: "-", omittingEmptySubsequences: false)
        if let n = Int(body) {
          prefixed.append(PrefixedRange(prefix: prefix, range: n...n))
          continue
        }
        if bounds.count == 2, let lo = Int(bounds[0]), let hi = Int(bounds[1]) {
          guard lo <= hi else { throw ParseError(flag: flag, text: text, item: item) }
          prefixed.append(PrefixedRange(prefix: prefix, range: lo...hi))
          continue
        }
      }
      let parts = item.split(separator: "-", omittingEmptySubsequences: false)
      if parts.count == 2, let lo = Int(parts[0].trimmingCharacters()),
        let hi = Int(parts[1].trimmingCharacters())
      {
        guard lo <= hi else { throw ParseError(flag: flag, text: text, item: item) }
        ranges.append(lo...hi)
      } else {
        names.insert(item)
      }
    }
    self.init(ranges: ranges, names: names, prefixedRanges: prefixed)
  }

  public func contains(_ subject: String) -> Bool {
    if names.contains(subject) { return true }
    if let colon = subject.lastIndex(of: ":"), let n = Int(subject[subject.index(after: colon)...]) {
      let prefix = subject[..<colon]
      return prefixedRanges.contains { $0.prefix == prefix && $0.range.contains(n) }
    }
    guard let n = Int(subject) else { return false }
    return ranges.contains { $0.contains(n) }
  }

  public var description: String {
    let r = ranges.map {
      $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)"
    }
    let p = prefixedRanges.map {
      $0.range.lowerBound == $0.range.upperBound
        ? "\($0.prefix):\($0.range.lowerBound)"
        : "\($0.prefix):\($0.range.lowerBound)-\($0.range.upperBound)"
    }
    return (r + p + names.sorted()).joined(separator: ",")
  }

  public struct ParseError: Error, Equatable, CustomStringConvertible {
    public var flag: String
    public var text: String
    public var item: String
    public var description: String {
      "\(flag) '\(text)': cannot read item '\(item)'. "
        + "HINT: give numbers, ranges and names separated by commas, e.g. `1-16,18`."
    }
  }
}

extension Substring {
  fileprivate func trimmingCharacters() -> String { String(self).trimmingASCIISpaces() }
}
