// Simulated changes of device and placement, applied to whole recordings
// (`DevicePerturbation+Apply.swift`; a model file's training settings record them): a
// rotation of the sensor frame, a gain error, white noise and the slow tilt of a body-worn
// phone. Training on perturbed copies teaches a model the activity rather than the one phone
// and pocket it was recorded with; evaluating on perturbed data measures how much a model leans
// on them. Units are the channels' own (g for acceleration); rotations are in degrees.

import Foundation
import MotusData

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
}
