// Simulated changes of device and placement, applied to whole recordings: a rotation of the
// sensor frame, a gain error, white noise and the slow tilt of a body-worn phone. Training on
// perturbed copies teaches a model the activity rather than the one phone and pocket it was
// recorded with; evaluating on perturbed data measures how much a model leans on them. Units
// are the channels' own (g for acceleration); rotations are in degrees.

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
  /// The largest RMS tilt, in degrees, of a slow wobble (0.05-0.5 Hz) added on top of the
  /// fixed rotation: a phone in a pocket or on a belt sways with the body even when its wearer
  /// stands or sits still, which a phone on a table does not. Tilt moves gravity between the
  /// axes, so it shows in per-axis and horizontal features but leaves magnitudes unchanged.
  /// Each device draws its level uniform in `0...maxSwayDegrees`. 0 = no wobble.
  public var maxSwayDegrees: Double
  /// The motion about the slowly varying part of each vector (gravity, for acceleration) is
  /// scaled by a factor uniform in `1 ± intensitySpread`: the same activity moves a sensor on
  /// another body part, or a person of another build, more or less. 0 = unchanged.
  public var intensitySpread: Double
  /// The recording is played faster or slower by a factor uniform in `1 ± tempoSpread`:
  /// people walk, run and pedal at other cadences. 0 = unchanged.
  public var tempoSpread: Double
  /// The largest resolution, in channel units, a device records its vector axes with: each
  /// device draws a step uniform in `0...quantizationStep` and rounds every axis to a
  /// multiple of it, as coarse sensors (an 8-bit ±8 g watch: 0.08-0.16 g steps) do, so that a
  /// model does not take their rounding noise for motion. 0 = full resolution.
  public var quantizationStep: Double

  public init(
    maxRotationDegrees: Double = 0, gainSpread: Double = 0, noiseStandardDeviation: Double = 0,
    maxSwayDegrees: Double = 0, intensitySpread: Double = 0, tempoSpread: Double = 0,
    quantizationStep: Double = 0
  ) {
    self.maxRotationDegrees = maxRotationDegrees
    self.gainSpread = gainSpread
    self.noiseStandardDeviation = noiseStandardDeviation
    self.maxSwayDegrees = maxSwayDegrees
    self.intensitySpread = intensitySpread
    self.tempoSpread = tempoSpread
    self.quantizationStep = quantizationStep
  }

  // Files written before `quantizationStep` existed decode with it 0.
  private enum CodingKeys: String, CodingKey {
    case maxRotationDegrees, gainSpread, noiseStandardDeviation, maxSwayDegrees,
      intensitySpread, tempoSpread, quantizationStep
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      maxRotationDegrees: try c.decode(Double.self, forKey: .maxRotationDegrees),
      gainSpread: try c.decode(Double.self, forKey: .gainSpread),
      noiseStandardDeviation: try c.decode(Double.self, forKey: .noiseStandardDeviation),
      maxSwayDegrees: try c.decodeIfPresent(Double.self, forKey: .maxSwayDegrees) ?? 0,
      intensitySpread: try c.decodeIfPresent(Double.self, forKey: .intensitySpread) ?? 0,
      tempoSpread: try c.decodeIfPresent(Double.self, forKey: .tempoSpread) ?? 0,
      quantizationStep: try c.decodeIfPresent(Double.self, forKey: .quantizationStep) ?? 0)
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(maxRotationDegrees, forKey: .maxRotationDegrees)
    try c.encode(gainSpread, forKey: .gainSpread)
    try c.encode(noiseStandardDeviation, forKey: .noiseStandardDeviation)
    try c.encode(maxSwayDegrees, forKey: .maxSwayDegrees)
    try c.encode(intensitySpread, forKey: .intensitySpread)
    try c.encode(tempoSpread, forKey: .tempoSpread)
    if quantizationStep > 0 { try c.encode(quantizationStep, forKey: .quantizationStep) }
  }

  public var isIdentity: Bool {
    maxRotationDegrees == 0 && gainSpread == 0 && noiseStandardDeviation == 0
      && maxSwayDegrees == 0 && intensitySpread == 0 && tempoSpread == 0
      && quantizationStep == 0
  }

  /// `rotation=180,gain=0.1,noise=0.01` (with `,sway=DEG` when set), the form
  /// `init(parsing:)` reads.
  public var description: String {
    "rotation=\(Self.format(maxRotationDegrees)),gain=\(Self.format(gainSpread)),"
      + "noise=\(Self.format(noiseStandardDeviation))"
      + (maxSwayDegrees > 0 ? ",sway=\(Self.format(maxSwayDegrees))" : "")
      + (intensitySpread > 0 ? ",intensity=\(Self.format(intensitySpread))" : "")
      + (tempoSpread > 0 ? ",tempo=\(Self.format(tempoSpread))" : "")
      + (quantizationStep > 0 ? ",quantize=\(Self.format(quantizationStep))" : "")
  }

  private static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
  }

  /// Each name `init(parsing:)` takes: the field it sets and the largest value it allows.
  /// Noise above 10 g is far beyond any sensor's and would only bury the signal (or overflow).
  /// (Computed: key paths are not Sendable, so a stored static table would not be either.)
  private typealias Setting = (
    field: WritableKeyPath<DevicePerturbation, Double>, largest: Double, largestAllowed: Bool
  )
  private static var settings: [String: Setting] {
    [
      "rotation": (\.maxRotationDegrees, 180, true), "gain": (\.gainSpread, 1, false),
      "noise": (\.noiseStandardDeviation, 10, true), "sway": (\.maxSwayDegrees, 45, true),
      "intensity": (\.intensitySpread, 1, false), "tempo": (\.tempoSpread, 0.5, true),
      "quantize": (\.quantizationStep, 1, true),
    ]
  }

  /// Parses `rotation=DEG,gain=SPREAD,noise=STD,sway=DEG` (any subset, any order).
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
      guard let setting = Self.settings[parts[0]], value <= setting.largest,
        setting.largestAllowed || value < setting.largest
      else { throw ParseError(item: String(item)) }
      self[keyPath: setting.field] = value
    }
  }

  public struct ParseError: Error, CustomStringConvertible {
    public var item: String
    public var description: String {
      "'\(Excerpt.text(item))' is not a perturbation. HINT: write rotation=DEGREES,"
        + "gain=SPREAD,noise=STD,sway=DEGREES,intensity=SPREAD,tempo=SPREAD,quantize=STEP with "
        + "non-negative numbers, rotation at most 180, gain and intensity below 1, noise at most "
        + "10, sway at most 45, tempo at most 0.5 and quantize at most 1, e.g. "
        + "rotation=180,gain=0.1,noise=0.01,sway=2"
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
