import Foundation
import MotusData

/// A source that cannot be read as asked.
public enum DataSourceError: Error, Equatable, CustomStringConvertible {
  /// `--sample-rate` asks for another rate than the model's (`reading(recipes:sampleRateHz:)`).
  case sampleRateMismatch(requestedHz: Double, modelHz: Double)

  public var description: String {
    switch self {
    case .sampleRateMismatch(let requested, let model):
      return "--sample-rate \(requested) Hz differs from the model's rate \(model) Hz; the "
        + "windows must be sampled as in training. HINT: drop --sample-rate (the data is "
        + "resampled to \(model) Hz when its rate differs) or pass --sample-rate \(model)."
    }
  }
}
