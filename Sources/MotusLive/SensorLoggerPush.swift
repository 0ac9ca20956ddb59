// One body of Sensor Logger's HTTP Push: `{"messageId", "sessionId", "deviceId", "payload":
// [{"name", "time" (UTC epoch ns), "values": {"x","y","z"}}, ...]}`. Readings of sensors
// Motus does not read (location, battery, ...) are counted and dropped; a motion reading
// without a finite x, y and z is refused with its place in the payload.

import Foundation
import MotusIngest

/// A decoded push: who sent it, in what order, and its motion readings.
public struct SensorLoggerPush: Sendable, Equatable {
  public struct Reading: Sendable, Equatable {
    /// The reading's `name`, lowercased (`accelerometer`, `totalacceleration`, ...).
    public var sensor: String
    /// UTC epoch nanoseconds.
    public var timeNanos: Int64
    public var x: Double
    public var y: Double
    public var z: Double
  }

  public var messageId: Int
  public var sessionId: String
  public var deviceId: String
  public var readings: [Reading]
  /// Readings of sensors Motus does not read.
  public var otherReadings: Int

  /// The reading names Motus reads (`SensorLoggerConversion.pushName`).
  public static let motionSensors: Set<String> = [
    "accelerometer", "gravity", "gyroscope", "totalacceleration", "accelerometeruncalibrated",
  ]

  /// The longest device or session identifier accepted, in bytes.
  public static let maxIdentifierBytes = 128

  /// Decodes a body; throws `LiveInputError` (400) naming what is missing or malformed.
  public static func parse(_ bytes: [UInt8]) throws(LiveInputError) -> SensorLoggerPush {
    let body: Body
    do {
      body = try JSONDecoder().decode(Body.self, from: Data(bytes))
    } catch let error as DecodingError {
      throw LiveInputError(
        "not a Sensor Logger push: \(describe(error)).",
        hint: "the body is Sensor Logger's HTTP Push JSON (messageId, sessionId, deviceId, "
          + "payload); CSV goes to POST /samples.")
    } catch {
      throw LiveInputError("not a Sensor Logger push: \(error).")
    }
    for (name, value) in [("sessionId", body.sessionId), ("deviceId", body.deviceId)] {
      guard !value.isEmpty, value.utf8.count <= maxIdentifierBytes,
        value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
      else {
        throw LiveInputError(
          "\(name) must be 1 to \(maxIdentifierBytes) bytes of printable text.")
      }
    }
    var readings: [Reading] = []
    readings.reserveCapacity(body.payload.count)
    var others = 0
    for (index, entry) in body.payload.enumerated() {
      let sensor = entry.name.lowercased()
      guard motionSensors.contains(sensor) else {
        others += 1
        continue
      }
      guard let time = entry.time else {
        throw LiveInputError("payload[\(index)] (\(sensor)): no time (UTC epoch nanoseconds).")
      }
      guard let x = entry.x, let y = entry.y, let z = entry.z, x.isFinite, y.isFinite, z.isFinite
      else {
        throw LiveInputError(
          "payload[\(index)] (\(sensor)): values need finite x, y and z.",
          hint: "Sensor Logger sends {\"values\": {\"x\": ..., \"y\": ..., \"z\": ...}}.")
      }
      readings.append(Reading(sensor: sensor, timeNanos: time, x: x, y: y, z: z))
    }
    return SensorLoggerPush(
      messageId: body.messageId, sessionId: body.sessionId, deviceId: body.deviceId,
      readings: readings, otherReadings: others)
  }

  /// A decoding error as a place and a reason: `payload[3].time: expected a number`.
  static func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String { JSONKeyPath.text(keys, whenEmpty: "the body") }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])) is missing"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return "\(path(context.codingPath)): expected \(typeName(type))"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty
        ? "the body is not JSON" : "\(path(context.codingPath)): unreadable value"
    @unknown default:
      return "unreadable"
    }
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "text"
    case is Int.Type, is Int64.Type, is Double.Type: return "a number"
    case is [Entry].Type: return "a list"
    default: return "an object"
    }
  }

  private struct Body: Decodable {
    var messageId: Int
    var sessionId: String
    var deviceId: String
    var payload: [Entry]
  }

  /// One reading; its values under `values` (as the app sends them) or beside `name`.
  private struct Entry: Decodable {
    var name: String
    var time: Int64?
    var x: Double?
    var y: Double?
    var z: Double?

    enum Keys: String, CodingKey { case name, time, values, x, y, z }

    init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: Keys.self)
      name = try c.decode(String.self, forKey: .name)
      guard Self.motion(name) else { return }  // other sensors' fields are not read
      time = try Self.nanoseconds(c)
      let values =
        c.contains(.values) ? try c.nestedContainer(keyedBy: Keys.self, forKey: .values) : c
      x = try values.decodeIfPresent(Double.self, forKey: .x)
      y = try values.decodeIfPresent(Double.self, forKey: .y)
      z = try values.decodeIfPresent(Double.self, forKey: .z)
    }

    static func motion(_ name: String) -> Bool {
      SensorLoggerPush.motionSensors.contains(name.lowercased())
    }

    /// `time` as an integer, or as a number JSON wrote with an exponent (1.6985e18).
    static func nanoseconds(_ c: KeyedDecodingContainer<Keys>) throws -> Int64? {
      if let whole = try? c.decodeIfPresent(Int64.self, forKey: .time) { return whole }
      guard let real = try c.decodeIfPresent(Double.self, forKey: .time) else { return nil }
      guard real.isFinite, abs(real) < 9.2e18 else {
        throw DecodingError.dataCorruptedError(
          forKey: .time, in: c, debugDescription: "time beyond 64-bit nanoseconds")
      }
      return Int64(real)
    }
  }
}
