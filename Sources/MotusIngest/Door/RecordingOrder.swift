// The order in which motus reads the recordings of a folder, as a rule on their paths, so
// that a table whose recordings come in another order (a cluster writes its parts in any
// order) can be put back in the order `motus features FOLDER` gives them.

import MotusData

/// Orders recording paths relative to one folder (`walk/day-2.csv`) as `DatasetLoader` reads
/// that folder: the entries of each folder in natural order (`naturalOrder`: `day-2` before
/// `day-10`), files and subfolders together, a subfolder's recordings where its name falls.
public enum RecordingOrder {
  /// Whether recording `a` comes before `b`: their path components compared in turn by
  /// natural order, the first that differs deciding; names natural order calls equal
  /// (`a1`, `a01`) by their bytes, so that every order of the input gives one order.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    let first = a.split(separator: "/", omittingEmptySubsequences: true)
    let second = b.split(separator: "/", omittingEmptySubsequences: true)
    for (x, y) in zip(first, second) where x != y {
      return precedesName(String(x), String(y))
    }
    if first.count != second.count { return first.count < second.count }
    return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
  }

  /// Natural order, and byte order between names natural order calls equal: a total order.
  public static func precedesName(_ a: String, _ b: String) -> Bool {
    if naturalOrder(a, b) { return true }
    if naturalOrder(b, a) { return false }
    return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
  }
}
