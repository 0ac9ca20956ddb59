// A physically motivated generator of SYNTHETIC labelled IMU recordings for the six activity
// classes, for the demo and for tests. Nothing here is real data; every session name it makes
// starts with "synthetic-".
//
// Model: a body-frame acceleration a_b(t) (g, gravity removed) and angular rate w_b(t) (rad/s)
// per activity, a per-subject device orientation R (a fixed random rotation plus a slow wobble)
// and per-subject gait parameters. The device reads, in Core Motion's sign convention
// (a phone lying face up reads (0, 0, -1) g):
//   acceleration = R · (a_b + (0, 0, -1)) + noise,    rotationRate = R · w_b + noise.
// Amplitudes and cadences come from the gait and activity-recognition literature
// (walking 1.6-2.1 steps/s with about 0.2-0.4 g vertical, running 2.5-3.1 steps/s with about
// 1 g, pedalling 1.0-1.5 rev/s, vehicle road vibration 5-15 Hz at a few hundredths of g,
// push-ups 0.4-0.7 reps/s).

import Foundation
import MotusData

/// The six classes Motus models, in the order the demo uses.
public enum SimulatedActivity: String, CaseIterable, Sendable {
  case stationary, walking, running, cycling, automotive
  case pushUp = "push-up"
}

/// Generates deterministic synthetic recordings from a seed.
///
///     var simulator = ActivitySimulator(seed: 7)
///     let walk = simulator.recording(.walking, subject: 3, seconds: 30)
///     print(walk.channels)   // ["acceleration.x", ..., "rotationRate.z"]
public struct ActivitySimulator: Sendable {
  /// The raw channels every synthetic recording has.
  public static let channels = [
    "acceleration.x", "acceleration.y", "acceleration.z",
    "rotationRate.x", "rotationRate.y", "rotationRate.z",
  ]

  public var sampleRateHz: Double
  private var random: SplitMix64

  public init(seed: UInt64, sampleRateHz: Double = 50) {
    precondition(sampleRateHz > 0, "sampleRateHz must be positive, got \(sampleRateHz)")
    self.sampleRateHz = sampleRateHz
    self.random = SplitMix64(seed: seed)
  }

  /// One labelled synthetic recording of `activity` by `subject`.
  public mutating func recording(
    _ activity: SimulatedActivity, subject: Int, seconds: Double, session: String? = nil
  ) -> SimulatedRecording {
    recording(segments: [(activity, seconds)], subject: subject, session: session)
  }

  /// A synthetic recording that moves through `segments` in order (for streaming demos).
  ///
  /// Repetitions of push-ups are counted exactly, so `pushUpCount` is the ground truth.
  public mutating func recording(
    segments: [(SimulatedActivity, Double)], subject: Int, session: String? = nil
  ) -> SimulatedRecording {
    var subjectRandom = SplitMix64(seed: 0x5EED_0000 &+ UInt64(subject))
    let person = Person(random: &subjectRandom)
    let orientation = Rotation.random(using: &random)
    let name = session ?? "synthetic-" + segments.map(\.0.rawValue).joined(separator: "+")
      + "-s\(subject)-\(random.next() % 10_000)"
    var timestamps: [Double] = []
    var columns = [[Float]](repeating: [], count: 6)
    var labels: [String] = []
    var pushUps = 0
    var t0 = 0.0
    let dt = 1 / sampleRateHz
    for (activity, seconds) in segments {
      let motion = Motion(activity: activity, person: person, random: &random)
      let count = Int((seconds * sampleRateHz).rounded())
      for i in 0..<count {
        let t = Double(i) * dt
        let (bodyAcceleration, bodyRate) = motion.sample(at: t, random: &random)
        let wobble = Rotation.about(axis: 0, angle: 0.05 * sin(2 * .pi * 0.07 * (t0 + t)))
        let r = orientation.then(wobble).then(motion.posture)
        let specific = r.apply(
          (bodyAcceleration.0, bodyAcceleration.1, bodyAcceleration.2 - 1))
        let rate = r.apply(bodyRate)
        let noiseG = person.noiseG, noiseRate = person.noiseG * 2
        timestamps.append(t0 + t)
        columns[0].append(Float(specific.0 + noiseG * random.gaussian()))
        columns[1].append(Float(specific.1 + noiseG * random.gaussian()))
        columns[2].append(Float(specific.2 + noiseG * random.gaussian()))
        columns[3].append(Float(rate.0 + noiseRate * random.gaussian()))
        columns[4].append(Float(rate.1 + noiseRate * random.gaussian()))
        columns[5].append(Float(rate.2 + noiseRate * random.gaussian()))
        labels.append(activity.rawValue)
      }
      if activity == .pushUp { pushUps += motion.completedRepetitions(in: Double(count) * dt) }
      t0 += Double(count) * dt
    }
    return SimulatedRecording(
      session: name, subject: String(subject), timestamps: timestamps, columns: columns,
      labels: labels, pushUpCount: pushUps)
  }
}

/// A synthetic recording in the long layout: raw channels `ActivitySimulator.channels`.
public struct SimulatedRecording: Sendable {
  public var session: String
  public var subject: String
  public var timestamps: [Double]
  /// `columns[c][t]` in the order of `ActivitySimulator.channels`.
  public var columns: [[Float]]
  public var labels: [String]
  /// Completed push-up repetitions in the recording (ground truth).
  public var pushUpCount: Int

  public var channels: [String] { ActivitySimulator.channels }

  /// CSV rows `timestamp,session,subject,label,<channels>` with a header, as the datasets use.
  public func csv(includeHeader: Bool = true) -> String {
    var out = includeHeader
      ? "timestamp,session,subject,label," + channels.joined(separator: ",") + "\n" : ""
    for t in timestamps.indices {
      out += String(format: "%.4f", timestamps[t]) + ",\(session),\(subject),\(labels[t])"
      for c in columns.indices { out += "," + String(format: "%.6f", columns[c][t]) }
      out += "\n"
    }
    return out
  }
}

// MARK: - The physics

/// Per-person gait parameters, fixed by the subject number.
private struct Person {
  var cadenceScale: Double  // relative step frequency
  var gain: Double  // relative amplitude
  var noiseG: Double  // sensor noise standard deviation, g

  init(random: inout SplitMix64) {
    cadenceScale = 0.9 + 0.2 * random.uniform()
    gain = 0.8 + 0.4 * random.uniform()
    noiseG = 0.004 + 0.008 * random.uniform()
  }
}

/// One activity's body-frame motion for one stretch of time.
private struct Motion {
  var activity: SimulatedActivity
  var frequencyHz: Double
  var amplitudeG: Double
  var phase: Double
  var posture: Rotation
  var vibration: [(Double, Double, Double)]  // (frequency Hz, amplitude g, phase) per component

  init(activity: SimulatedActivity, person: Person, random: inout SplitMix64) {
    self.activity = activity
    let jitter = 0.95 + 0.1 * random.uniform()
    phase = 2 * .pi * random.uniform()
    posture = .identity
    vibration = []
    switch activity {
    case .stationary:
      frequencyHz = 0.25 * jitter  // breathing and postural sway
      amplitudeG = 0.004 * person.gain
    case .walking:
      frequencyHz = 1.85 * person.cadenceScale * jitter
      amplitudeG = 0.3 * person.gain
    case .running:
      frequencyHz = 2.8 * person.cadenceScale * jitter
      amplitudeG = 1.0 * person.gain
    case .cycling:
      frequencyHz = 1.25 * person.cadenceScale * jitter
      amplitudeG = 0.15 * person.gain
      vibration = (0..<3).map { _ in
        (4 + 8 * random.uniform(), 0.03 + 0.02 * random.uniform(), 2 * .pi * random.uniform())
      }
    case .automotive:
      frequencyHz = 0.15 * jitter  // slow speed changes and turns
      amplitudeG = 0.06 * person.gain
      vibration = (0..<4).map { _ in
        (5 + 10 * random.uniform(), 0.01 + 0.02 * random.uniform(), 2 * .pi * random.uniform())
      }
    case .pushUp:
      frequencyHz = 0.55 * person.cadenceScale * jitter
      amplitudeG = 0.15 * person.gain
      // Prone: the torso is horizontal, so the chest-worn device is pitched by about 90°.
      posture = .about(axis: 0, angle: -.pi / 2 + 0.2 * (random.uniform() - 0.5))
    }
  }

  /// Body-frame acceleration (g, gravity removed) and angular rate (rad/s) at time `t`.
  func sample(at t: Double, random: inout SplitMix64) -> ((Double, Double, Double), (Double, Double, Double)) {
    let w = 2 * .pi * frequencyHz
    let s = sin(w * t + phase), c = cos(w * t + phase)
    let s2 = sin(2 * (w * t + phase))
    var vib = 0.0
    for (f, a, p) in vibration { vib += a * sin(2 * .pi * f * t + p) }
    let rough = vibration.isEmpty ? 0 : 0.5 * vibration[0].1 * random.gaussian()
    switch activity {
    case .stationary:
      return ((0.3 * amplitudeG * c, 0.3 * amplitudeG * s2, amplitudeG * s), (0.01 * c, 0.01 * s, 0))
    case .walking:
      // Heel strikes: vertical at the step rate with a harmonic, sideways sway at half of it.
      return (
        (0.5 * amplitudeG * c, 0.3 * amplitudeG * sin(w * t / 2 + phase),
         amplitudeG * (s + 0.4 * s2)),
        (0.6 * s, 0.3 * sin(w * t / 2 + phase), 0.2 * c)
      )
    case .running:
      // Flight and impact: a peaky vertical pulse train at the step rate (|sin(wt/2)|^3 has
      // period 1/f), minus its mean 4/(3π).
      let pulse = pow(abs(sin(w * t / 2 + phase)), 3) - 0.4244
      return (
        (0.4 * amplitudeG * c, 0.25 * amplitudeG * sin(w * t / 2 + phase),
         2.2 * amplitudeG * pulse),
        (1.5 * s, 0.8 * sin(w * t / 2 + phase), 0.5 * c)
      )
    case .cycling:
      // A thigh in the pedal stroke rotates about ±0.5 rad; the road adds vibration.
      return (
        (amplitudeG * s + vib, 0.4 * amplitudeG * c + rough, 0.6 * amplitudeG * s2 + vib),
        (0.5 * w * c, 0.1 * s, 0.05 * s2)
      )
    case .automotive:
      return (
        (amplitudeG * s + 0.5 * vib, 0.5 * amplitudeG * c + rough, vib),
        (0.02 * c, 0.02 * s, 0.08 * c)
      )
    case .pushUp:
      // Up and down along the (now horizontal) body axis, with a small torso rotation.
      return ((0.1 * amplitudeG * c, 0, amplitudeG * s), (0.25 * c, 0.02 * s, 0))
    }
  }

  func completedRepetitions(in seconds: Double) -> Int {
    activity == .pushUp ? Int((seconds * frequencyHz).rounded(.down)) : 0
  }
}

// MARK: - Small helpers

/// A 3×3 rotation, row-major.
private struct Rotation {
  var m: [Double]

  static let identity = Rotation(m: [1, 0, 0, 0, 1, 0, 0, 0, 1])

  static func about(axis: Int, angle: Double) -> Rotation {
    let c = cos(angle), s = sin(angle)
    switch axis {
    case 0: return Rotation(m: [1, 0, 0, 0, c, -s, 0, s, c])
    case 1: return Rotation(m: [c, 0, s, 0, 1, 0, -s, 0, c])
    default: return Rotation(m: [c, -s, 0, s, c, 0, 0, 0, 1])
    }
  }

  /// A device held in a pocket: any yaw, pitch within ±60°, roll within ±30°.
  static func random(using random: inout SplitMix64) -> Rotation {
    about(axis: 2, angle: 2 * .pi * random.uniform())
      .then(.about(axis: 0, angle: (random.uniform() - 0.5) * 2 * .pi / 3))
      .then(.about(axis: 1, angle: (random.uniform() - 0.5) * .pi / 3))
  }

  func then(_ other: Rotation) -> Rotation {
    var out = [Double](repeating: 0, count: 9)
    for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { out[i * 3 + j] += m[i * 3 + k] * other.m[k * 3 + j] } } }
    return Rotation(m: out)
  }

  func apply(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
    (m[0] * v.0 + m[1] * v.1 + m[2] * v.2,
     m[3] * v.0 + m[4] * v.1 + m[5] * v.2,
     m[6] * v.0 + m[7] * v.1 + m[8] * v.2)
  }
}
