// The wearer's side of a perturbation: a recording played at another tempo, and its motion
// scaled about the slowly varying part of each vector (gravity, for acceleration).

import MotusData

extension DevicePerturbation {
  /// Seconds of the zero-phase moving average that separates a vector's slow part (gravity and
  /// posture) from its motion: longer than a stride or pedal stroke.
  static let slowPartSeconds = 1.0

  /// `recording` with every 3-axis vector `v` replaced by `s + factor (v - s)`, where `s` is
  /// `v` averaged over `slowPartSeconds` centred on each sample. Magnitudes are left to the
  /// device step, which recomputes them from the axes; other channels are unchanged.
  static func scaledMotion(_ recording: Recording, by factor: Double, channels: [String])
    -> Recording
  {
    guard factor != 1, recording.sampleCount > 1 else { return recording }
    var result = recording
    let half = max(1, Int((slowPartSeconds * recording.sampleRateHz / 2).rounded()))
    let scale = Float(factor)
    for vector in vectorColumns(channels) {
      for c in vector.axes {
        let v = recording.columns[c]
        let slow = centredMean(v, halfWidth: half)
        var out = v
        for t in v.indices { out[t] = slow[t] + scale * (v[t] - slow[t]) }
        result.columns[c] = out
      }
    }
    return result
  }

  /// The mean of `values[t - halfWidth ... t + halfWidth]` (clipped at the ends), per `t`,
  /// summed in Double.
  static func centredMean(_ values: [Float], halfWidth: Int) -> [Float] {
    var prefix = [Double](repeating: 0, count: values.count + 1)
    for (i, v) in values.enumerated() { prefix[i + 1] = prefix[i] + Double(v) }
    return values.indices.map { t in
      let lo = max(0, t - halfWidth)
      let hi = min(values.count - 1, t + halfWidth)
      return Float((prefix[hi + 1] - prefix[lo]) / Double(hi - lo + 1))
    }
  }

  /// `recording` played `tempo` times faster (cadences multiply by `tempo`, the recording
  /// lasts `1 / tempo` as long), resampled by linear interpolation onto the same rate; labels
  /// take the nearest original sample's.
  static func playedAt(tempo: Double, _ recording: Recording) -> Recording {
    let n = recording.sampleCount
    guard tempo != 1, n > 1 else { return recording }
    let count = Int(Double(n - 1) / tempo) + 1
    var result = recording
    let start = recording.timestamps[0]
    let period = 1 / recording.sampleRateHz
    result.timestamps = (0..<count).map { start + Double($0) * period }
    result.columns = recording.columns.map { column in
      (0..<count).map { k in
        let position = Double(k) * tempo
        let i = min(Int(position), n - 2)
        let w = Float(position - Double(i))
        return column[i] + w * (column[i + 1] - column[i])
      }
    }
    result.labelIndices = (0..<count).map { k in
      recording.labelIndices[min(Int((Double(k) * tempo).rounded()), n - 1)]
    }
    return result
  }
}
