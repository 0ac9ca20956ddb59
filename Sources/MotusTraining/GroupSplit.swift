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
  /// With `labels`, validation first takes, in shuffled order, one group of each class that
  /// two or more groups hold, and no group is held out if that would leave one of its classes
  /// without a training group. Without this, pooled sources whose classes live in a few
  /// groups (cycling only in two subjects of one dataset) often get a validation part that
  /// lacks those classes, and early stopping and calibration never see them.
  ///
  /// - Parameters:
  ///   - groups: One group name per row.
  ///   - labels: Optional class index per row (same count as `groups`).
  ///   - validationFraction: In `(0, 1)`. Default 0.2.
  ///   - seed: Seeds the group shuffle.
  /// - Returns: Row indices of each part and the held-out group names.
  /// - Throws: `TrainingError.tooFewGroups` with fewer than 2 distinct groups.
  public static func split(
    groups: [String], labels: [Int]? = nil, validationFraction: Double = 0.2, seed: UInt64
  ) throws -> Result {
    guard validationFraction > 0 && validationFraction < 1 else {
      throw TrainingError.invalidHyperparameter(
        name: "validationFraction", value: "\(validationFraction)", expected: "in (0, 1)")
    }
    precondition(
      labels == nil || labels?.count == groups.count,
      "expected one label per row (\(groups.count)), got \(labels?.count ?? 0)")
    var rowsByGroup: [String: [Int]] = [:]
    for (row, group) in groups.enumerated() { rowsByGroup[group, default: []].append(row) }
    var names = rowsByGroup.keys.sorted()
    guard names.count >= 2 else { throw TrainingError.tooFewGroups(count: names.count) }
    var generator = SplitMix64(seed: seed)
    generator.shuffle(&names)

    // Classes of each group, and how many groups are left on the training side per class.
    var classesByGroup: [String: Set<Int>] = [:]
    var trainingGroupsPerClass: [Int: Int] = [:]
    if let labels {
      for (group, rows) in rowsByGroup {
        let classes = Set(rows.map { labels[$0] })
        classesByGroup[group] = classes
        for c in classes { trainingGroupsPerClass[c, default: 0] += 1 }
      }
    }
    let target = validationFraction * Double(groups.count)
    var held = Set<String>()
    var heldRows = 0
    func canHold(_ name: String) -> Bool {
      !held.contains(name) && held.count < names.count - 1
        && classesByGroup[name, default: []].allSatisfy {
          trainingGroupsPerClass[$0, default: 0] > 1
        }
    }
    func hold(_ name: String) {
      held.insert(name)
      heldRows += rowsByGroup[name, default: []].count
      for c in classesByGroup[name, default: []] { trainingGroupsPerClass[c, default: 0] -= 1 }
    }
    for c in trainingGroupsPerClass.keys.sorted()
    where !held.contains(where: { classesByGroup[$0, default: []].contains(c) }) {
      let holds = { (name: String) in classesByGroup[name, default: []].contains(c) }
      if let holder = names.first(where: { holds($0) && canHold($0) }) { hold(holder) }
    }
    for name in names where Double(heldRows) < target && canHold(name) { hold(name) }
    var training: [Int] = []
    var validation: [Int] = []
    for (row, group) in groups.enumerated() {
      if held.contains(group) { validation.append(row) } else { training.append(row) }
    }
    return Result(training: training, validation: validation, validationGroups: held.sorted())
  }
}
