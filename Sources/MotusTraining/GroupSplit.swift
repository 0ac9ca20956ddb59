// Train/validation split by group (subject or session): rows of one group are never on both
// sides, so validation measures generalisation to unseen people or recordings, not to
// neighbouring (overlapping) windows.

import MotusData

/// Splits rows into training and validation parts by group.
public enum GroupSplit {
  public struct Result: Sendable, Equatable {
    /// Row indices, ascending.
    public var training: [Int]
    public var validation: [Int]
    /// Groups held out, sorted.
    public var validationGroups: [String]
  }

  /// Shuffles the distinct groups (sorted first, then `SplitMix64(seed)`) and moves whole groups to
  /// validation until it holds at least `validationFraction` of the rows; at least one group
  /// stays on each side.
  ///
  /// - Parameters:
  ///   - groups: One group name per row.
  ///   - validationFraction: In `(0, 1)`. Default 0.2.
  ///   - seed: Seeds the group shuffle.
  /// - Returns: Row indices of each part and the held-out group names.
  /// - Throws: `TrainingError.tooFewGroups` with fewer than 2 distinct groups.
  public static func split(
    groups: [String], validationFraction: Double = 0.2, seed: UInt64
  ) throws -> Result {
    guard validationFraction > 0 && validationFraction < 1 else {
      throw TrainingError.invalidHyperparameter(
        name: "validationFraction", value: "\(validationFraction)", expected: "in (0, 1)")
    }
    var rowsByGroup: [String: [Int]] = [:]
    for (row, group) in groups.enumerated() { rowsByGroup[group, default: []].append(row) }
    var names = rowsByGroup.keys.sorted()
    guard names.count >= 2 else { throw TrainingError.tooFewGroups(count: names.count) }
    var generator = SplitMix64(seed: seed)
    generator.shuffle(&names)
    let target = validationFraction * Double(groups.count)
    var held: [String] = []
    var heldRows = 0
    for name in names.dropLast() where Double(heldRows) < target {
      held.append(name)
      heldRows += rowsByGroup[name, default: []].count
    }
    let heldSet = Set(held)
    var training: [Int] = []
    var validation: [Int] = []
    for (row, group) in groups.enumerated() {
      if heldSet.contains(group) { validation.append(row) } else { training.append(row) }
    }
    return Result(training: training, validation: validation, validationGroups: held.sorted())
  }
}
