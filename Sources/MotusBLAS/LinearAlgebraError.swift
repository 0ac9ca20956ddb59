// Failures reported by LAPACK through its `info` result.

/// A LAPACK routine rejected its input.
public enum LinearAlgebraError: Error, CustomStringConvertible, Equatable {
  /// `U(pivot, pivot)` is exactly zero (1-based, as LAPACK reports it): the matrix is singular.
  case singular(pivot: Int)
  /// LAPACK's argument at `position` (1-based) had an illegal value: a bug in the caller.
  case illegalArgument(position: Int)

  public var description: String {
    switch self {
    case .singular(let pivot):
      return "matrix is singular: U(\(pivot),\(pivot)) is exactly zero. "
        + "HINT: remove duplicated or constant columns, or add an L2 penalty."
    case .illegalArgument(let position):
      return "LAPACK rejected argument \(position). HINT: this is a bug in Motus; please report it."
    }
  }
}
