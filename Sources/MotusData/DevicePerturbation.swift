// Simulated changes of device and placement, applied to whole recordings: a rotation of the
// sensor frame, a gain error and white noise. Training on perturbed copies teaches a model the
// activity rather than the one phone and pocket it was recorded with; evaluating on perturbed
// data measures how much a model leans on them. Units are the channels' own (g for
// acceleration); rotations are in degrees.

import Foundation

/// One random device per recording: every 3-axis vector (`name.x/.y/.z`) is rotated by the
/// same rotation (the sensors share one frame) and scaled by one gain, then white noise of one
/// level is added to each axis, and magnitude channels `|name|` are recomputed from the new
/// axes. Rotation angle, gain and noise level are drawn per recording up to the given limits.
///
/// Other channels (attitude angles, single columns) are left as they are.
public struct DevicePerturbation: Codable, Sendable, Equatable, CustomStringConvertible {
  /// Largest rotation angle, in degrees, about an axis uniform on the sphere. 180 or more
  /// draws a rotation uniform over all orientations. 0 = no rotation.
  public var maxRotationDegrees: Double
  /// The gain is uniform in `1 ± gainSpread` (a 0.1 spread is a ±10 % scale error).
  public var gainSpread: Double
  /// The largest standard deviation of the white noise added to each vector axis, in channel
  /// units; each device draws its own, uniform in `0...noiseStandardDeviation`, as phones
  /// differ in noise floor.
  public var noiseStandardDeviation: Double

  public init(
    maxRotationDegrees: Double = 0, gainSpread: Double = 0, noiseStandardDeviation: Double = 0
  ) {
    self.maxRotationDegrees = maxRotationDegrees
    self.gainSpread = gainSpread
    self.noiseStandardDeviation = noiseStandardDeviation
  }

  public var isIdentity: Bool {
    maxRotationDegrees == 0 && gainSpread == 0 && noiseStandardDeviation == 0
  }

  /// `rotation=180,gain=0.1,noise=0.01`, the form `init(parsing:)` reads.
  public var description: String {
    "rotation=\(Self.format(maxRotationDegrees)),gain=\(Self.format(gainSpread)),"
      + "noise=\(Self.format(noiseStandardDeviation))"
  }

  private static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
  }

  /// Parses `rotation=DEG,gain=SPREAD,noise=STD` (any subset, any order).
  ///
  /// - Throws: `DevicePerturbation.ParseError` naming the bad item.
  public init(parsing text: String) throws {
    self.init()
    for item in text.split(separator: ",") {
      let parts = item.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard parts.count == 2, let value = Double(parts[1]), value.isFinite, value >= 0 else {
        throw ParseError(item: String(item))
      }
      switch parts[0] {
      case "rotation": maxRotationDegrees = value
      case "gain":
        guard value < 1 else { throw ParseError(item: String(item)) }
        gainSpread = value
      case "noise": noiseStandardDeviation = value
      default: throw ParseError(item: String(item))
      }
    }
  }

  public struct ParseError: Error, CustomStringConvertible {
    public var item: String
    public var description: String {
      "'\(item)' is not a perturbation. HINT: write rotation=DEGREES,gain=SPREAD,noise=STD "
        + "with non-negative numbers and gain below 1, e.g. rotation=180,gain=0.1,noise=0.01"
    }
  }

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
      if noise > 0 {
        for t in 0..<recording.sampleCount {
          x[t] += Float(noise * generator.gaussian())
          y[t] += Float(noise * generator.gaussian())
          z[t] += Float(noise * generator.gaussian())
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

  /// Every recording perturbed, each by its own device drawn from `seed` and its index.
  public func apply(to dataset: Dataset, seed: UInt64) -> Dataset {
    var result = dataset
    for i in dataset.recordings.indices {
      result.recordings[i] = apply(
        to: dataset.recordings[i], channels: dataset.channels,
        seed: seed &+ UInt64(i) &* 0x9E37_79B9_7F4A_7C15)
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
