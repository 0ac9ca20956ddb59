// Failures reported by LAPACK through its `info` result.

/// A LAPACK routine rejected its input.
public enum LinearAlgebraError: Error, CustomStringConvertible, Equatable {
  /// `U(pivot, pivot)` is exactly zero (1-based, as LAPACK reports it): the matrix is singular.
  case singular(pivot: Int)
  /// LAPACK's argument at `position` (1-based) had an illegal value: a bug in the caller.
  case illegalArgument(position: Int)
  /// An eigenvalue iteration failed to converge (`count` off-diagonal elements remained).
  case noConvergence(count: Int)

  public var description: String {
    switch self {
    case .singular(let pivot):
      return "matrix is singular: U(\(pivot),\(pivot)) is exactly zero. "
        + "HINT: remove duplicated or constant columns, or add an L2 penalty."
    case .noConvergence(let count):
      return "the eigenvalue iteration did not converge (\(count) elements left). "
        + "HINT: check the features for huge or constant values."
    case .illegalArgument(let position):
      return "LAPACK rejected argument \(position). HINT: this is a bug in Motus; please report it."
    }
  }
}
