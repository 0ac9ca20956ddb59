// Every open stream of a server: bodies in (a Sensor Logger push or CSV rows), each routed to
// its device and session's stream; limits; the state the page shows. Thread-safe: one lock
// for the table, one per stream, so devices are classified in parallel and a bad body from
// one never touches another's stream.

import Foundation
import MotusData
import MotusIngest
import MotusModels
import MotusStreaming

/// The live classification of everything pushed to one server.
public final class LiveHub: @unchecked Sendable {
  /// An answer to a body: its HTTP status and a JSON object saying what happened.
  public struct Reply: Sendable, Equatable {
    public var status: Int
    public var json: String

    public init(status: Int, json: String) { (self.status, self.json) = (status, json) }
  }

  public let model: TrainedModel
  public let configuration: StreamConfiguration
  public let limits: LiveLimits
  public let recordFolder: String?

  private final class Entry {
    let lock = NSLock()
    let stream: LiveStream
    init(_ stream: LiveStream) { self.stream = stream }
  }

  /// Closed sessions whose summaries the page keeps.
  public static let maxClosed = 50
  /// Refused bodies no open session could be named for that the page keeps.
  public static let maxNotes = 20

  private let lock = NSLock()
  private var entries: [LiveKey: Entry] = [:]
  /// Keys whose stream is being made, by how many bodies: each holds a slot of the limits.
  private var making: [LiveKey: Int] = [:]
  /// Streams taken out of `entries` by `closeIdle` and not yet closed and released.
  private var closing = 0
  private var buckets: [String: (tokens: Double, at: Double)] = [:]
  private var closed: [LiveState] = []
  private var notes: [LiveState.Note] = []
  private var arrivalToPrediction = SampleTimeHistogram()
  private var counters = (accepted: 0, refused: 0, refusedForLoad: 0)
  private var changes: UInt64 = 0

  public init(
    model: TrainedModel, configuration: StreamConfiguration, limits: LiveLimits = .init(),
    recordFolder: String? = nil
  ) {
    self.model = model
    self.configuration = configuration
    self.limits = limits
    self.recordFolder = recordFolder
  }

  /// Bumped by every body and every close; a watcher sends a new snapshot when it moved.
  public var version: UInt64 { lock.withLock { changes } }

  /// Time from a body's arrival to the predictions it made, over every such body.
  public var latency: SampleTimeHistogram { lock.withLock { arrivalToPrediction } }

  /// Bodies accepted, refused, and refused for a limit of load (429).
  public var counts: (accepted: Int, refused: Int, refusedForLoad: Int) {
    lock.withLock { counters }
  }

  /// Open streams, those being closed included (until their files are complete and their
  /// memory returned).
  public var openStreams: Int { lock.withLock { entries.count + closing } }

  /// Reads a Sensor Logger push. `platform` ("ios" or "android") overrides the rule that a
  /// device sending `totalacceleration` is Android. `arrival`: when the body arrived
  /// (`DispatchTime` ns), for the latency figures.
  public func push(
    _ body: [UInt8], platform: String? = nil, arrival: UInt64 = DispatchTime.now().uptimeNanoseconds
  ) -> Reply {
    let now = Date().timeIntervalSince1970
    let batch: SensorLoggerPush
    do {
      batch = try SensorLoggerPush.parse(body)
    } catch {
      return refuse(error, key: nil, now: now)
    }
    let key = LiveKey(device: batch.deviceId, session: batch.sessionId)
    do {
      try spend(Double(batch.readings.count), device: key.device, now: now)
      let entry = try entry(key) { () throws(LiveInputError) in
        try makePushStream(key, first: batch, platform: platform)
      }
      let made = try locked(entry.lock) { () throws(LiveInputError) -> Int in
        try entry.stream.push(batch, now: now)
      }
      return accept(made, readings: batch.readings.count, arrival: arrival)
    } catch {
      return refuse(error, key: key, now: now)
    }
  }

  /// Reads CSV rows in motus's long layout (a header first); each `session` value is a stream
  /// of `device`.
  public func samples(
    _ body: [UInt8], device: String, arrival: UInt64 = DispatchTime.now().uptimeNanoseconds
  ) -> Reply {
    let now = Date().timeIntervalSince1970
    do {
      let parsed = try LiveCSVBody(body, device: device, model: model)
      try spend(Double(parsed.rows), device: device, now: now)
      var made = 0
      for (session, lines) in parsed.sessions {
        let key = LiveKey(device: device, session: session)
        let entry = try entry(key) { () throws(LiveInputError) in
          try LiveStream(
            key: key, header: parsed.header, model: model, configuration: configuration,
            groups: [], originNanos: 0, recordFolder: recordFolder, platform: nil, source: "csv")
        }
        made += try locked(entry.lock) { () throws(LiveInputError) -> Int in
          try parsed.check(lines, against: entry.stream)
          return try entry.stream.feed(lines: lines.bytes, now: now)
        }
      }
      return accept(made, readings: parsed.rows, arrival: arrival)
    } catch {
      return refuse(error, key: nil, now: now, device: device)
    }
  }

  /// Closes every stream silent for `limits.idleSeconds` (all of them with `all`).
  public func closeIdle(now: Double = Date().timeIntervalSince1970, all: Bool = false) {
    var idle: [Entry] = lock.withLock {
      let keys = entries.filter { all || now - $0.value.stream.state.lastSeen > limits.idleSeconds }
        .map(\.key)
      closing += keys.count
      return keys.compactMap { entries.removeValue(forKey: $0) }
    }
    guard !idle.isEmpty else {
      lock.withLock { dropIdleAllowances() }
      return
    }
    var summaries: [LiveState] = []
    for entry in idle {
      entry.lock.withLock {
        entry.stream.close()
        var summary = entry.stream.state
        summary.timeline = []
        summaries.append(summary)
      }
    }
    let count = idle.count
    idle = []  // their memory is returned before they stop counting as open
    lock.withLock {
      closing -= count
      closed += summaries
      if closed.count > Self.maxClosed { closed.removeFirst(closed.count - Self.maxClosed) }
      dropIdleAllowances()
      changes += 1
    }
  }

  /// Drops the allowances of devices that never got or no longer have a stream, so a client
  /// naming ever new devices cannot grow them. Under `lock`.
  private func dropIdleAllowances() {
    let devices = Set(entries.keys.map(\.device)).union(making.keys.map(\.device))
    buckets = buckets.filter { devices.contains($0.key) }
  }

  /// How many of each the hub holds, for the tests of its bounds: streams open and being made,
  /// devices' allowances, closed sessions' summaries (`maxClosed`), notes (`maxNotes`).
  var storeSizes: (streams: Int, making: Int, allowances: Int, closed: Int, notes: Int) {
    lock.withLock { (entries.count + closing, making.count, buckets.count, closed.count, notes.count) }
  }

  /// Everything the page shows, as `GET /api/devices` answers.
  public func snapshot() -> LiveSnapshot {
    let (open, closedNow, notesNow) = lock.withLock {
      (Array(entries.values), closed, notes)
    }
    var states = open.map { entry in entry.lock.withLock { entry.stream.state } }
    states.sort { ($0.device, $0.session) < ($1.device, $1.session) }
    return LiveSnapshot(
      classes: model.classes, devices: states, closed: closedNow, notes: notesNow,
      sessionIdleSeconds: limits.idleSeconds)
  }

  /// The key's stream, made by `make` when it has none. The limits are checked and a slot is
  /// reserved in one step under the lock, and the stream (with its recording files) is made
  /// outside it: bodies of new devices racing each other cannot pass `maxDevices` or
  /// `maxSessionsPerDevice` together, and other devices are not held up meanwhile.
  private func entry(
    _ key: LiveKey, make: () throws(LiveInputError) -> LiveStream
  ) throws(LiveInputError) -> Entry {
    let found = try locked(lock) { () throws(LiveInputError) -> Entry? in
      if let found = entries[key] { return found }
      if making[key] == nil { try checkRoom(for: key) }
      making[key, default: 0] += 1
      return nil
    }
    if let found { return found }
    let made: Entry
    do {
      made = Entry(try make())
    } catch {
      lock.withLock { releaseSlot(key) }
      throw error
    }
    return lock.withLock {
      releaseSlot(key)
      if let raced = entries[key] { return raced }  // another body of the key made it first
      entries[key] = made
      return made
    }
  }

  /// Throws the 429 of the limit a new stream of `key` would pass; streams being made count.
  /// Under `lock`.
  private func checkRoom(for key: LiveKey) throws(LiveInputError) {
    let keys = Set(entries.keys).union(making.keys)
    let devices = Set(keys.map(\.device))
    if !devices.contains(key.device), devices.count >= limits.maxDevices {
      throw LiveInputError(
        status: 429, "\(devices.count) devices are connected, the limit (--max-devices).")
    }
    let sessions = keys.filter { $0.device == key.device }.count
    if sessions >= limits.maxSessionsPerDevice {
      throw LiveInputError(
        status: 429,
        "device '\(key.device)' has \(sessions) open sessions, the limit; a session closes "
          + "after \(Int(limits.idleSeconds)) s without a batch.")
    }
  }

  /// One body fewer making `key`'s stream. Under `lock`.
  private func releaseSlot(_ key: LiveKey) {
    if let n = making[key], n > 1 { making[key] = n - 1 } else { making[key] = nil }
  }

  /// Takes `samples` from the device's allowance (`maxSamplesPerSecondPerDevice`, refilled
  /// continuously, at most `burstSeconds` of it saved).
  private func spend(_ samples: Double, device: String, now: Double) throws(LiveInputError) {
    try locked(lock) { () throws(LiveInputError) in
      let rate = limits.maxSamplesPerSecondPerDevice
      let capacity = rate * limits.burstSeconds
      let bucket = buckets[device] ?? (capacity, now)
      let tokens = min(capacity, bucket.tokens + (now - bucket.at) * rate)
      guard samples <= tokens else {
        throw LiveInputError(
          status: 429,
          "device '\(device)' sends over \(Int(rate)) samples per second; batch not read.",
          hint: "lower the sampling rate in the app, or start the server with a higher limit.")
      }
      buckets[device] = (tokens - samples, now)
    }
  }

  private func makePushStream(
    _ key: LiveKey, first batch: SensorLoggerPush, platform: String?
  ) throws(LiveInputError) -> LiveStream {
    let present = Set(batch.readings.map(\.sensor))
    let android = platform.map { $0.lowercased() == "android" } ?? present.contains("totalacceleration")
    let order = ["acceleration", "userAcceleration", "gravity", "rotationRate"]
    let available = SensorLoggerConversion.all(android: android)
      .filter { present.contains($0.pushName) }
      .sorted { order.firstIndex(of: $0.group)! < order.firstIndex(of: $1.group)! }
    guard !available.isEmpty else {
      throw LiveInputError(
        status: 422,
        "the first batch of \(key) has no motion readings (" + (android
          ? "totalacceleration, accelerometer, gravity, gyroscope"
          : "accelerometeruncalibrated, accelerometer, gravity, gyroscope") + ").",
        hint: "switch on the Accelerometer in Sensor Logger's sensor list.")
    }
    func header(_ groups: [SensorLoggerConversion]) -> String {
      "timestamp,session," + groups.flatMap { g in ["x", "y", "z"].map { "\(g.group).\($0)" } }
        .joined(separator: ",")
    }
    func make(_ groups: [SensorLoggerConversion], record: String?) throws(LiveInputError)
      -> LiveStream
    {
      let origin = batch.readings.filter { r in groups.contains { $0.pushName == r.sensor } }
        .map(\.timeNanos).min() ?? 0
      return try LiveStream(
        key: key, header: header(groups), model: model, configuration: configuration,
        groups: groups, originNanos: origin, recordFolder: record,
        platform: android ? "Android" : "iOS", source: "sensor-logger")
    }
    // Only the groups the model reads join the rows: no row waits for a sensor it ignores.
    let trial = try make(available, record: nil)
    let used = Set(trial.usedColumns)
    let needed = available.indices.filter { k in (0..<3).contains { used.contains(2 + 3 * k + $0) } }
    return try make(needed.map { available[$0] }, record: recordFolder)
  }

  private func accept(_ predictions: Int, readings: Int, arrival: UInt64) -> Reply {
    let elapsed = DispatchTime.now().uptimeNanoseconds &- arrival
    lock.withLock {
      counters.accepted += 1
      changes += 1
      if predictions > 0 { arrivalToPrediction.record(elapsed) }
    }
    return Reply(
      status: 200, json: "{\"ok\":true,\"readings\":\(readings),\"predictions\":\(predictions)}")
  }

  private func refuse(
    _ error: LiveInputError, key: LiveKey?, now: Double, device: String? = nil
  ) -> Reply {
    let entry = key.flatMap { k in lock.withLock { entries[k] } }
    entry.map { e in e.lock.withLock { e.stream.refuse(error, at: now) } }
    lock.withLock {
      counters.refused += 1
      if error.status == 429 { counters.refusedForLoad += 1 }
      if entry == nil {
        let from = key.map { "\($0): " } ?? device.map { "device '\($0)': " } ?? ""
        notes.append(.init(at: now, status: error.status, reason: from + error.description))
        if notes.count > Self.maxNotes { notes.removeFirst(notes.count - Self.maxNotes) }
      }
      changes += 1
    }
    var json = "{\"ok\":false,\"error\":" + StreamLines.json(error.reason)
    if let hint = error.hint { json += ",\"hint\":" + StreamLines.json(hint) }
    return Reply(status: error.status, json: json + "}")
  }
}

/// What `GET /api/devices` answers.
public struct LiveSnapshot: Codable, Sendable, Equatable {
  public var classes: [String]
  /// Open sessions, by device then session.
  public var devices: [LiveState]
  /// The latest closed sessions (`LiveHub.maxClosed`, their timelines dropped).
  public var closed: [LiveState]
  /// The latest refused bodies no open session could be named for (`LiveHub.maxNotes`).
  public var notes: [LiveState.Note]
  public var sessionIdleSeconds: Double
}

/// `body` under `lock`, its typed error passed on (NSLock's `withLock` widens it to any Error).
func locked<T>(_ lock: NSLock, _ body: () throws(LiveInputError) -> T) throws(LiveInputError) -> T {
  lock.lock()
  defer { lock.unlock() }
  return try body()
}
