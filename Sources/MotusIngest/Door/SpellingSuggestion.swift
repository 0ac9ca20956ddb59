// "Did you mean": the known name closest to a misspelt one, for errors about names a user
// typed (a manifest's keys).

/// The closest known name to a misspelt one.
public enum SpellingSuggestion {
  /// The name in `known` closest to `name` (letters compared without case; a swap of two
  /// neighbours counts as one edit), when it is within a third of its length, at least one
  /// edit and at most three; nil otherwise.
  ///
  ///     SpellingSuggestion.closest(to: "lables", among: ["labels", "files"])   // "labels"
  public static func closest(to name: String, among known: [String]) -> String? {
    let typed = Array(name.lowercased())
    let limit = min(3, max(1, typed.count / 3))
    var best: (name: String, distance: Int)?
    for candidate in known {
      let distance = editDistance(typed, Array(candidate.lowercased()))
      if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.name
  }

  /// Insertions, deletions, substitutions and swaps of neighbours that turn `a` into `b`
  /// (optimal string alignment).
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = [Int](repeating: 0, count: b.count + 1)
    var current = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      row[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        row[j] = min(current[j] + 1, row[j - 1] + 1, current[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          row[j] = min(row[j], previous[j - 2] + 1)
        }
      }
      (previous, current, row) = (current, row, previous)
    }
    return current[b.count]
  }
}
