// Turns `--channels` patterns into the recipe list of a `ChannelPlan`: which raw columns are
// copied (and negated), which channels are derived, in what order.

/// Builds `ChannelRecipe`s from channel names and glob patterns.
///
/// Candidates, in order: the raw numeric columns; `acceleration.x/y/z` derived as
/// `gravity.<axis> + userAcceleration.<axis>` when the raw columns are absent (matched only
/// by patterns that start with `acceleration`); and `|group|`, the magnitude of
/// `group.x/y/z` (matched only by patterns that start with `|`).
public enum ChannelSelector {
  public static let axes = ["x", "y", "z"]

  /// - Parameters:
  ///   - patterns: Names or globs (`*` any run, `?` one character); empty selects every raw
  ///     channel. Each channel appears once, at its first match.
  ///   - rawChannels: The numeric columns of the data, in file order.
  ///   - negateAcceleration: Scale raw `acceleration.*` copies by -1 (Android sign).
  /// - Returns: Recipes (outputs in order) and notes worth reporting.
  /// - Throws: `CSVError.noChannelMatches`, `.negateWithoutAcceleration`.
  public static func recipes(
    patterns: [String], rawChannels: [String], negateAcceleration: Bool
  ) throws -> (recipes: [ChannelRecipe], notes: [String]) {
    let raw = Set(rawChannels)
    let hasRawAcceleration = axes.allSatisfy { raw.contains("acceleration.\($0)") }
    let canDeriveAcceleration = !hasRawAcceleration && DerivedAcceleration.isAvailable(in: raw)
    let derived = canDeriveAcceleration ? axes.map { "acceleration.\($0)" } : []
    var groups: [String] = []
    for name in rawChannels + derived where name.hasSuffix(".x") {
      let group = String(name.dropLast(2))
      let members = axes.map { "\(group).\($0)" }
      if members.allSatisfy({ raw.contains($0) || derived.contains($0) }) { groups.append(group) }
    }
    let selected = try select(
      patterns, rawChannels: rawChannels, derived: derived, magnitudes: groups.map { "|\($0)|" })
    var recipes: [ChannelRecipe] = []
    var notes: [String] = []
    var outputNames: Set<String> = []
    func add(_ recipe: ChannelRecipe) {
      if outputNames.insert(recipe.name).inserted { recipes.append(recipe) }
    }
    var negatedSomething = false
    for name in selected {
      if raw.contains(name) {
        let negate = negateAcceleration && name.hasPrefix("acceleration.")
        negatedSomething = negatedSomething || negate
        add(.copy(name, scale: negate ? -1 : 1))
      } else if derived.contains(name) {
        add(DerivedAcceleration.recipe(axis: String(name.dropFirst("acceleration.".count))))
      } else {
        // A magnitude `|group|`.
        let group = String(name.dropFirst().dropLast())
        let members = axes.map { "\(group).\($0)" }
        if group == "acceleration" && canDeriveAcceleration {
          let missing = members.filter { !outputNames.contains($0) }
          if !missing.isEmpty {
            notes.append(
              "added \(missing.joined(separator: ", ")) (gravity + userAcceleration) "
                + "because \(name) is computed from them")
          }
          for axis in axes { add(DerivedAcceleration.recipe(axis: axis)) }
        } else if group == "acceleration" && negateAcceleration {
          negatedSomething = true  // a magnitude does not depend on the sign
        }
        add(ChannelRecipe(name: name, operation: .magnitude, inputs: members))
      }
    }
    if negateAcceleration && !negatedSomething {
      throw CSVError.negateWithoutAcceleration(available: rawChannels)
    }
    return (recipes, notes)
  }

  /// The channels `patterns` name, in pattern order without repeats (every raw channel when
  /// there is no pattern); `acceleration*` patterns also match derived acceleration and
  /// `|...|` patterns match magnitudes only.
  private static func select(
    _ patterns: [String], rawChannels: [String], derived: [String], magnitudes: [String]
  ) throws -> [String] {
    guard !patterns.isEmpty else { return rawChannels }
    var selected: [String] = []
    var seen: Set<String> = []
    for pattern in patterns {
      var candidates = rawChannels
      if pattern.hasPrefix("acceleration") { candidates += derived }
      if pattern.hasPrefix("|") { candidates = magnitudes }
      let matches = candidates.filter { globMatches(pattern, $0) }
      guard !matches.isEmpty else {
        throw CSVError.noChannelMatches(
          pattern: pattern, available: rawChannels + derived + magnitudes)
      }
      for m in matches where seen.insert(m).inserted { selected.append(m) }
    }
    return selected
  }

  /// Raw columns the recipes read (inputs that are not outputs of earlier recipes), in
  /// first-use order.
  public static func rawInputs(of recipes: [ChannelRecipe]) -> [String] {
    var outputs: Set<String> = []
    var seen: Set<String> = []
    var result: [String] = []
    for r in recipes {
      for input in r.inputs where !outputs.contains(input) && seen.insert(input).inserted {
        result.append(input)
      }
      outputs.insert(r.name)
    }
    return result
  }

  /// Shell-style match: `*` any run of characters, `?` exactly one, everything else literal.
  public static func globMatches(_ pattern: String, _ name: String) -> Bool {
    let p = Array(pattern)
    let s = Array(name)
    var pi = 0
    var si = 0
    var starP = -1
    var starS = 0
    while si < s.count {
      if pi < p.count && (p[pi] == "?" || (p[pi] != "*" && p[pi] == s[si])) {
        pi += 1
        si += 1
      } else if pi < p.count && p[pi] == "*" {
        starP = pi
        starS = si
        pi += 1
      } else if starP >= 0 {
        pi = starP + 1
        starS += 1
        si = starS
      } else {
        return false
      }
    }
    while pi < p.count && p[pi] == "*" { pi += 1 }
    return pi == p.count
  }
}
