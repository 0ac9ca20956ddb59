// A perturbation applied: every recording a copy as if recorded by another device, drawn from a
// seed (the settings and their text form are `DevicePerturbation` in MotusData).

import Foundation
import MotusData

extension DevicePerturbation {
  /// The 3-axis vectors among `channels`: column indices of each `name.x/.y/.z`, and of
  /// `|name|` when present.
  static func vectorColumns(_ channels: [String]) -> [(axes: [Int], magnitude: Int?)] {
    var found: [(axes: [Int], magnitude: Int?)] = []
    for channel in channels where channel.hasSuffix(".x") {
      let prefix = channel.dropLast(2)
      let axes = ["x", "y", "z"].compactMap { channels.firstIndex(of: "\(prefix).\($0)") }
      guard axes.count == 3 else { continue }
      found.append((axes, channels.firstIndex(of: "|\(prefix)|")))
    }
    return found
  }

  /// A copy of `recording` as if recorded by another device; `seed` picks the device.
  public func apply(to recording: Recording, channels: [String], seed: UInt64) -> Recording {
    var generator = SplitMix64(seed: seed)
    let rotation = randomRotation(using: &generator)
    let gain = Float(1 + gainSpread * (2 * generator.uniform() - 1))
    let noise = noiseStandardDeviation * generator.uniform()
    // Drawn after the draws above so that sway = 0 leaves earlier devices unchanged.
    let sway = maxSwayDegrees > 0 ? Sway(level: maxSwayDegrees, using: &generator) : nil
    // Likewise for intensity and tempo, in that order.
    let intensity = intensitySpread > 0 ? 1 + intensitySpread * (2 * generator.uniform() - 1) : 1
    let tempo = tempoSpread > 0 ? 1 + tempoSpread * (2 * generator.uniform() - 1) : 1
    let step = Float(quantizationStep > 0 ? quantizationStep * generator.uniform() : 0)
    // The wearer's motion changes first, then the device that records it.
    let recording = Self.scaledMotion(
      Self.playedAt(tempo: tempo, recording), by: intensity, channels: channels)
    // One wobble per device: its angles at each sample serve every vector of the recording.
    let start = recording.timestamps.first ?? 0
    let swayAngles = sway.map { sway in recording.timestamps.map { sway.angles(at: $0 - start) } }
    var result = recording
    for vector in Self.vectorColumns(channels) {
      let (ix, iy, iz) = (vector.axes[0], vector.axes[1], vector.axes[2])
      var x = recording.columns[ix], y = recording.columns[iy], z = recording.columns[iz]
      for t in 0..<recording.sampleCount {
        let (a, b, c) = (x[t], y[t], z[t])
        x[t] = gain * (rotation[0] * a + rotation[1] * b + rotation[2] * c)
        y[t] = gain * (rotation[3] * a + rotation[4] * b + rotation[5] * c)
        z[t] = gain * (rotation[6] * a + rotation[7] * b + rotation[8] * c)
      }
      if let swayAngles {
        for t in 0..<recording.sampleCount {
          (x[t], y[t], z[t]) = Sway.rotate((x[t], y[t], z[t]), by: swayAngles[t])
        }
      }
      if noise > 0 {
        for t in 0..<recording.sampleCount {
          x[t] += Float(noise * generator.gaussian())
          y[t] += Float(noise * generator.gaussian())
          z[t] += Float(noise * generator.gaussian())
        }
      }
      if step > 0 {
        for t in 0..<recording.sampleCount {
          x[t] = (x[t] / step).rounded() * step
          y[t] = (y[t] / step).rounded() * step
          z[t] = (z[t] / step).rounded() * step
        }
      }
      if let im = vector.magnitude {
        var magnitude = recording.columns[im]
        for t in 0..<recording.sampleCount {
          magnitude[t] = (x[t] * x[t] + y[t] * y[t] + z[t] * z[t]).squareRoot()
        }
        result.columns[im] = magnitude
      }
      result.columns[ix] = x
      result.columns[iy] = y
      result.columns[iz] = z
    }
    return result
  }

  /// Every recording perturbed, each by its own device drawn from `seed` and its index; the
  /// first's index is `firstIndex` (a part of a larger dataset gets the devices its
  /// recordings get in the whole).
  public func apply(to dataset: Dataset, seed: UInt64, firstIndex: Int = 0) -> Dataset {
    var result = dataset
    for i in dataset.recordings.indices {
      result.recordings[i] = apply(
        to: dataset.recordings[i], channels: dataset.channels,
        seed: seed &+ UInt64(firstIndex + i) &* 0x9E37_79B9_7F4A_7C15)
    }
    return result
  }

  /// Row-major 3x3 rotation matrix.
  func randomRotation(using generator: inout SplitMix64) -> [Float] {
    // A unit quaternion: uniform over all rotations from four normals, or an angle up to
    // the limit about a uniformly drawn axis.
    var (w, qx, qy, qz): (Double, Double, Double, Double)
    if maxRotationDegrees >= 180 {
      (w, qx, qy, qz) = (
        generator.gaussian(), generator.gaussian(), generator.gaussian(), generator.gaussian()
      )
    } else {
      let angle = maxRotationDegrees * .pi / 180 * generator.uniform()
      var (ax, ay, az) = (generator.gaussian(), generator.gaussian(), generator.gaussian())
      let n = max((ax * ax + ay * ay + az * az).squareRoot(), 1e-12)
      (ax, ay, az) = (ax / n, ay / n, az / n)
      let s = sin(angle / 2)
      (w, qx, qy, qz) = (cos(angle / 2), ax * s, ay * s, az * s)
    }
    let norm = max((w * w + qx * qx + qy * qy + qz * qz).squareRoot(), 1e-12)
    (w, qx, qy, qz) = (w / norm, qx / norm, qy / norm, qz / norm)
    let m: [Double] = [
      1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - w * qz), 2 * (qx * qz + w * qy),
      2 * (qx * qy + w * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - w * qx),
      2 * (qx * qz - w * qy), 2 * (qy * qz + w * qx), 1 - 2 * (qx * qx + qy * qy),
    ]
    return m.map { Float($0) }
  }
}

/// A slow random wobble of the sensor frame: each of three small rotation angles is a sum of
/// sinusoids between 0.05 and 0.5 Hz (body sway and fidgeting), scaled so the total RMS tilt is
/// the drawn level.
struct Sway: Sendable {
  private static let sinusoidsPerAxis = 3
  /// Amplitude, in radians, shared by every sinusoid.
  private let amplitude: Double
  /// (frequency in Hz, phase in radians) of each sinusoid, per axis.
  private var sinusoids: [[(hz: Double, phase: Double)]] = []

  init(level maxDegrees: Double, using generator: inout SplitMix64) {
    let rmsRadians = maxDegrees * generator.uniform() * .pi / 180
    // A sinusoid of amplitude A has RMS A/sqrt(2); 3 axes x 3 sinusoids share the total.
    amplitude = rmsRadians * (2.0 / Double(3 * Self.sinusoidsPerAxis)).squareRoot()
    for _ in 0..<3 {
      sinusoids.append(
        (0..<Self.sinusoidsPerAxis).map { _ in
          let hz = 0.05 * pow(10, generator.uniform())  // log-uniform in 0.05...0.5 Hz
          return (hz, 2 * .pi * generator.uniform())
        })
    }
  }

  /// The rotation angles (radians, about x, y and z) `seconds` into the recording.
  func angles(at seconds: Double) -> (Double, Double, Double) {
    func angle(_ axis: Int) -> Double {
      sinusoids[axis].reduce(0) { $0 + amplitude * sin(2 * .pi * $1.hz * seconds + $1.phase) }
    }
    return (angle(0), angle(1), angle(2))
  }

  /// `vector` rotated by `angles` (Rodrigues' formula, so lengths are kept exactly).
  static func rotate(
    _ vector: (Float, Float, Float), by angle: (Double, Double, Double)
  ) -> (Float, Float, Float) {
    let theta = (angle.0 * angle.0 + angle.1 * angle.1 + angle.2 * angle.2).squareRoot()
    guard theta > 1e-12 else { return vector }
    let k = (angle.0 / theta, angle.1 / theta, angle.2 / theta)
    let v = (Double(vector.0), Double(vector.1), Double(vector.2))
    let (c, s) = (cos(theta), sin(theta))
    let cross = (k.1 * v.2 - k.2 * v.1, k.2 * v.0 - k.0 * v.2, k.0 * v.1 - k.1 * v.0)
    let dot = k.0 * v.0 + k.1 * v.1 + k.2 * v.2
    return (
      Float(v.0 * c + cross.0 * s + k.0 * dot * (1 - c)),
      Float(v.1 * c + cross.1 * s + k.1 * dot * (1 - c)),
      Float(v.2 * c + cross.2 * s + k.2 * dot * (1 - c))
    )
  }
}
