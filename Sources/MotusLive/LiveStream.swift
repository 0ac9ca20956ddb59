// One device's session: rows as CSV text in motus's long layout (what `--record` keeps), read by
// `StreamRowReader` and classified by a `StreamSession`, exactly as `motus stream` reads and
// classifies the recorded file. Not thread-safe: the hub serialises each stream's batches.

import Foundation
import MotusData
import MotusIngest
import MotusModels
import MotusOutput
import MotusStreaming

final class LiveStream {
  let key: LiveKey
  let header: String
  private(set) var state: LiveState
  private var reader: StreamRowReader
  private let engine: StreamSession
  private let lines: StreamLines
  /// The session as a JSON string literal, as every line of the stream names it.
  private let sessionJSON: [UInt8]
  private var values: [Float]
  private var recorder: LiveRecorder?
  /// A Sensor Logger session's join and the groups of its rows; nil for CSV.
  private(set) var join: SensorJoin?
  let groups: [SensorLoggerConversion]
  /// Time zero of the stream (the first reading of its first batch), UTC epoch ns.
  let originNanos: Int64
  private(set) var lastMessageId: Int?
  /// The last row's time, to refuse a body whose clock went backwards.
  private(set) var lastRowTime = -Double.infinity
  private(set) var failure: LiveInputError?

  init(
    key: LiveKey, header: String, model: TrainedModel, configuration: StreamConfiguration,
    groups: [SensorLoggerConversion], originNanos: Int64, recordFolder: String?,
    platform: String?, source: String
  ) throws(LiveInputError) {
    self.key = key
    self.header = header
    self.groups = groups
    self.originNanos = originNanos
    do {
      reader = try StreamRowReader(
        header: Array(header.utf8), file: key.description, model: model)
    } catch {
      throw LiveInputError(
        status: 422, "\(error)",
        hint: "`motus model-info MODEL` lists the channels the model needs; Sensor Logger "
          + "sends them with Accelerometer (uncalibrated on iOS, total on Android) switched on.")
    }
    engine = StreamSession(model: model, inputChannels: reader.inputs, configuration: configuration)
    lines = StreamLines(classes: model.classes)
    sessionJSON = Array(StreamLines.json(key.session).utf8)
    values = [Float](repeating: 0, count: reader.inputs.count)
    join = groups.isEmpty ? nil : SensorJoin(groups: groups.count)
    state = LiveState(device: key.device, session: key.session, source: source)
    state.platform = platform
    if let recordFolder {
      recorder = try LiveRecorder(
        folder: recordFolder, device: key.device, session: key.session, header: header)
    }
  }

  /// The header's columns used by the model: the groups a row needs.
  var usedColumns: [Int] { reader.adapter.columns }

  func refuse(_ error: LiveInputError, at now: Double) { state.note(error, at: now) }

  /// Checks a push's order (messageId) and clock, then feeds its readings; throws (4xx)
  /// before anything is fed when the batch is refused. Returns the predictions it made.
  func push(_ batch: SensorLoggerPush, now: Double) throws(LiveInputError) -> Int {
    if let failure { throw failure }
    if let last = lastMessageId, batch.messageId <= last {
      throw LiveInputError(
        status: 409,
        "messageId \(batch.messageId) after \(last): a duplicate or out-of-order batch, "
          + "not read.", hint: "Sensor Logger numbers each batch; it is sent again after a retry.")
    }
    var join = self.join!
    var byGroup: [[SensorLoggerPush.Reading]] = Array(repeating: [], count: groups.count)
    for reading in batch.readings {
      guard let g = groups.firstIndex(where: { $0.pushName == reading.sensor }) else { continue }
      let previous = byGroup[g].last?.timeNanos ?? join.lastTime(g)
      if let previous, reading.timeNanos <= previous {
        throw LiveInputError(
          status: 422,
          "\(reading.sensor) time \(reading.timeNanos) ns is not after \(previous) ns: the clock "
            + "went backwards or a reading repeats; batch not read.")
      }
      byGroup[g].append(reading)
    }
    lastMessageId = batch.messageId
    for (g, readings) in byGroup.enumerated() {
      let scale = groups[g].scale
      for r in readings {
        join.add(group: g, time: r.timeNanos, value: SIMD3(r.x, r.y, r.z) * scale)
      }
    }
    var text = TextBuffer(capacity: 8192)
    join.drain { time, values in
      text.append(Double(time - originNanos) / 1e9, fractionDigits: 6)
      text.append(UInt8(ascii: ","))
      text.append(CSVText.field(key.session))
      for v in values {
        text.append(UInt8(ascii: ","))
        text.append(v, fractionDigits: 6)
      }
      text.append(UInt8(ascii: "\n"))
    }
    self.join = join
    return try feed(lines: text.bytes, now: now)
  }

  /// Feeds CSV lines of this stream (already checked: every one a sample in time order).
  func feed(lines bytes: [UInt8], now: Double) throws(LiveInputError) -> Int {
    if let failure { throw failure }
    var made = TextBuffer(capacity: 4096)
    let before = state.predictions
    var start = 0
    var failed: LiveInputError?
    while start < bytes.count, failed == nil {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
      let row = bytes[start..<end].withUnsafeBufferPointer { line in
        values.withUnsafeMutableBufferPointer { reader.read(bytes: line, into: $0) }
      }
      start = end + 1
      if case .sample(let time, _) = row {
        lastRowTime = time
        state.samples += 1
      }
      do {
        _ = try values.withUnsafeBufferPointer { v in
          try engine.append(row, values: v) { handle($0, into: &made) }
        }
      } catch {
        failed = LiveInputError(status: 422, "\(key): \(error)")
      }
    }
    state.rateHz = engine.inputRateHz
    state.batches += 1
    state.lastSeen = now
    do {
      try recorder?.append(samples: bytes, predictions: made.bytes)
    } catch {
      failed = failed ?? error
    }
    if let failed {
      failure = failed
      throw failed
    }
    return state.predictions - before
  }

  /// Ends the stream: the open segment closes, the files are complete.
  func close() {
    var made = TextBuffer(capacity: 1024)
    if failure == nil { try? engine.finish { handle($0, into: &made) } }
    try? recorder?.append(samples: [], predictions: made.bytes)  // closing: nobody to tell
    recorder?.close()
    recorder = nil
    state.closed = true
  }

  private func handle(_ output: StreamSession.Output, into made: inout TextBuffer) -> Bool {
    guard case .event(let event, _) = output else { return true }
    state.apply(event, classes: engine.model.classes)
    if case .segment = event { return true }  // the state keeps segments; `--steps` prints none
    lines.appendJSON(event, sessionJSON: sessionJSON, to: &made)
    made.append(UInt8(ascii: "\n"))
    return true
  }
}

/// A stream's identity: the device and its session.
public struct LiveKey: Hashable, Sendable, CustomStringConvertible {
  public var device: String
  public var session: String
  public init(device: String, session: String) { (self.device, self.session) = (device, session) }
  public var description: String { "device '\(device)' session '\(session)'" }
}
