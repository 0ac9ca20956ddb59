import MotusData
import MotusFeatures

/// A length typed as seconds or as samples.
public enum WindowSpan: Codable, Sendable, Equatable, CustomStringConvertible {
  case seconds(Double)
  case samples(Int)

  /// `2.56s` or `128`, the form the command line takes.
  public var description: String {
    switch self {
    case .seconds(let s): "\(s)s"
    case .samples(let n): "\(n)"
    }
  }

  public var isPositive: Bool {
    switch self {
    case .seconds(let s): s > 0 && s.isFinite
    case .samples(let n): n > 0
    }
  }

  /// Samples at `rateHz`, rounded to the nearest (saturating at ±`Int.max / 2`).
  public func samples(atRate rateHz: Double) -> Int {
    switch self {
    case .seconds(let s):
      let n = (s * rateHz).rounded()
      let cap = Int.max / 2
      return n.isFinite && abs(n) < Double(cap) ? Int(n) : n < 0 ? -cap : cap
    case .samples(let n): return n
    }
  }
}
