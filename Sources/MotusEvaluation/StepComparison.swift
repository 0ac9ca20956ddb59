// Step counts against the phone's own pedometer, for every evaluated recording that carries
// one (SensorLog and Sensor Logger exports): the same `StepCounter` the stream runs, on the
// recording's |acceleration| at the rate it was evaluated at.

import MotusData
import MotusStreaming

/// Motus's step count beside the phone's over one recording.
public struct StepComparison: Sendable, Equatable {
  public var session: String
  /// The phone's steps over the recording's first to last sample.
  public var phone: Double
  public var motus: Int

  /// (motus - phone) / phone; nil when the phone counted no step.
  public var relativeError: Double? {
    phone >= 1 ? (Double(motus) - phone) / phone : nil
  }

  /// One comparison per recording of `dataset` with a pedometer, when the dataset has a
  /// magnitude channel to count on (`|acceleration|`, else `|userAcceleration|`). A phone count
  /// that is not finite or beyond `PedometerReference.maximumSteps` gives none.
  public static func all(in dataset: Dataset) -> [StepComparison] {
    guard
      let channel = dataset.channels.firstIndex(of: "|acceleration|")
        ?? dataset.channels.firstIndex(of: "|userAcceleration|")
    else { return [] }
    return dataset.recordings.compactMap { r in
      guard let pedometer = r.pedometer, r.sampleCount > 1, r.sampleRateHz > 2,
        let phone = pedometer.steps(from: r.timestamps[0], to: r.timestamps[r.sampleCount - 1]),
        phone.isFinite, abs(phone) <= PedometerReference.maximumSteps
      else { return nil }
      var counter = StepCounter(sampleRateHz: r.sampleRateHz)
      for t in 0..<r.sampleCount {
        counter.push(time: r.timestamps[t], magnitude: r.columns[channel][t])
      }
      return StepComparison(session: r.session, phone: phone, motus: counter.wholeSteps)
    }
  }

  /// `steps (phone pedometer): <session>: phone N, motus M (+e %)`.
  public var line: String {
    let error = relativeError.map { String(format: " (%+.1f %%)", 100 * $0) } ?? ""
    let phone = String(format: "%.0f", self.phone)
    return "steps (phone pedometer): \(session): phone \(phone), motus \(motus)\(error)"
  }
}
