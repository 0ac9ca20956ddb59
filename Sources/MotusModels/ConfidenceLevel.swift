// Coarse confidence of a prediction from its calibrated top-class probability p in [0, 1],
// like Core Motion's CMMotionActivityConfidence.

/// How far a prediction can be trusted.
public enum ConfidenceLevel: String, Codable, Sendable, CaseIterable, Comparable {
  case low, medium, high

  private var rank: Int {
    switch self {
    case .low: return 0
    case .medium: return 1
    case .high: return 2
    }
  }

  public static func < (a: ConfidenceLevel, b: ConfidenceLevel) -> Bool { a.rank < b.rank }
}

/// Probability cut-offs between confidence levels, stored in the model file.
///
/// A calibrated top-class probability `p` is `.high` when `p >= high`, `.medium` when
/// `p >= medium`, otherwise `.low`. `0 <= medium <= high`; a cut-off above every observed
/// probability simply means that level is never given.
public struct ConfidenceCutoffs: Codable, Sendable, Equatable {
  public var medium: Float
  public var high: Float

  public init(medium: Float, high: Float) {
    precondition(
      0 <= medium && medium <= high,
      "cut-offs must satisfy 0 <= medium <= high, got \(medium), \(high)")
    self.medium = medium
    self.high = high
  }

  @inlinable
  public func level(for probability: Float) -> ConfidenceLevel {
    probability >= high ? .high : probability >= medium ? .medium : .low
  }
}
