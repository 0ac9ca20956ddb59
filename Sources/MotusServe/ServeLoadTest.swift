// `motus bench serve`: many devices push Sensor Logger batches to a server over loopback, as
// phones would: each device one batch of `rateHz` accelerometer readings per `batchSeconds`,
// spread over the second. The same server and hub take `rounds` rounds of every device pushing
// then leaving (its sessions closed by the idle rule), so memory left behind by closed
// sessions shows as growth from round to round. Reports batches refused, the time from a
// batch's arrival to its predictions (server side) and the client's round trip, and resident
// memory before, at the end of pushing and after every device has left, per round.
// The signal is synthetic (gravity plus a 1.8 Hz sway and seeded noise): the figures are
// about load, not accuracy.

import Foundation
import MotusData
import MotusLive
import MotusStreaming

#if canImport(Glibc)
  import Glibc
#endif

public struct ServeLoadTest: Sendable {
  public var devices = 200
  public var rateHz = 100
  public var batchSeconds = 1.0
  public var seconds = 60.0
  /// Rounds of every device pushing then leaving, on one server.
  public var rounds = 2
  public var clientThreads = 8
  public var seed: UInt64 = 1
  /// How far the last round's memory after leaving may lie above the first's and still be
  /// called flat: allocator arenas and the server's buffer pools settle within it, and 200
  /// devices leaving 10 KB each behind would pass it in one round. (Smaller leftovers are the
  /// unit tests' to find: they count what the hub keeps.)
  public var flatToleranceBytes = 2_000_000

  public init() {}

  /// One round: every device pushes for `seconds`, then stops until its session closes.
  public struct Round: Sendable, Codable, Equatable {
    public var batchesSent = 0
    public var refused = 0
    public var refusedForLoad = 0
    public var failedToSend = 0
    public var residentBytesBefore = 0
    public var residentBytesPushing = 0
    public var residentBytesAfter = 0
    /// Sessions the idle rule had not closed when the wait ended (0 unless something is stuck).
    public var openStreamsAfter = 0
  }

  public struct Result: Sendable {
    public var rounds: [Round] = []
    /// Server side, every round: arrival of a batch to the predictions it made, ns.
    public var arrivalToPrediction = SampleTimeHistogram()
    /// Client side, every round: request written to answer read, ns.
    public var roundTrip = SampleTimeHistogram()
    public var flatToleranceBytes = 0

    /// Growth of the resident memory after leaving from the first round to the last, per
    /// round, in bytes; nil with one round.
    public var afterLeaveGrowthBytesPerRound: Double? {
      guard let first = rounds.first, let last = rounds.last, rounds.count > 1 else { return nil }
      return Double(last.residentBytesAfter - first.residentBytesAfter) / Double(rounds.count - 1)
    }

    /// The last round's memory after leaving is within `flatToleranceBytes` of the first's;
    /// nil with one round.
    public var afterLeaveIsFlat: Bool? {
      guard let first = rounds.first, let last = rounds.last, rounds.count > 1 else { return nil }
      return last.residentBytesAfter - first.residentBytesAfter <= flatToleranceBytes
    }

    /// The figures in milliseconds and megabytes, as `motus bench serve` prints them.
    public var summary: Summary {
      func ms(_ h: SampleTimeHistogram, _ q: Double) -> Double { (h.quantile(q) / 1e4).rounded() / 100 }
      func mb(_ bytes: Int) -> Double { (Double(bytes) / 1e5).rounded() / 10 }
      return Summary(
        batchesSent: rounds.map(\.batchesSent).reduce(0, +),
        refused: rounds.map(\.refused).reduce(0, +),
        refusedForLoad: rounds.map(\.refusedForLoad).reduce(0, +),
        notSent: rounds.map(\.failedToSend).reduce(0, +),
        batchesWithPredictions: Int(arrivalToPrediction.count),
        arrivalToPredictionMs: .init(p50: ms(arrivalToPrediction, 0.5), p99: ms(arrivalToPrediction, 0.99)),
        roundTripMs: .init(p50: ms(roundTrip, 0.5), p99: ms(roundTrip, 0.99)),
        rounds: rounds.enumerated().map { k, r in
          .init(
            round: k + 1, batchesSent: r.batchesSent, refused: r.refused,
            residentMBBefore: mb(r.residentBytesBefore), residentMBPushing: mb(r.residentBytesPushing),
            residentMBAfter: mb(r.residentBytesAfter), openSessionsAfter: r.openStreamsAfter)
        },
        afterLeaveGrowthMBPerRound: afterLeaveGrowthBytesPerRound.map { ($0 / 1e4).rounded() / 100 },
        flatToleranceMB: mb(flatToleranceBytes), afterLeaveIsFlat: afterLeaveIsFlat)
    }
  }

  /// What `motus bench serve` prints (text) or writes as JSON.
  public struct Summary: Sendable, Codable, Equatable {
    public struct Quantiles: Sendable, Codable, Equatable {
      public var p50: Double
      public var p99: Double
    }

    public struct RoundMemory: Sendable, Codable, Equatable {
      public var round: Int
      public var batchesSent: Int
      public var refused: Int
      public var residentMBBefore: Double
      public var residentMBPushing: Double
      public var residentMBAfter: Double
      public var openSessionsAfter: Int
    }

    public var batchesSent: Int
    public var refused: Int
    public var refusedForLoad: Int
    public var notSent: Int
    public var batchesWithPredictions: Int
    public var arrivalToPredictionMs: Quantiles
    public var roundTripMs: Quantiles
    public var rounds: [RoundMemory]
    /// Nil (absent from the JSON) with one round, as is `afterLeaveIsFlat`.
    public var afterLeaveGrowthMBPerRound: Double?
    public var flatToleranceMB: Double
    public var afterLeaveIsFlat: Bool?
  }

  /// Runs the test against a new server of `hub` (whose idle rule closes the devices' sessions
  /// once they stop) on a free loopback port.
  public func run(hub: LiveHub) async throws -> Result {
    var result = Result(flatToleranceBytes: flatToleranceBytes)
    trimFreedMemory()
    let before = residentBytes()
    let server = LiveServer(hub: hub, host: "127.0.0.1", port: 0, access: try ServeAccess(host: "127.0.0.1", token: nil))
    let (port, serving) = try await ServeTestHarness.start(server)
    defer { serving.cancel() }
    for round in 0..<max(1, rounds) {
      var figures = try await self.round(round, hub: hub, port: port, into: &result)
      if round == 0 { figures.residentBytesBefore = before }
      result.rounds.append(figures)
    }
    result.arrivalToPrediction = hub.latency
    return result
  }

  /// One round of every device pushing, then leaving; its round trips go into `result`.
  func round(_ round: Int, hub: LiveHub, port: Int, into result: inout Result) async throws -> Round {
    var figures = Round()
    trimFreedMemory()
    figures.residentBytesBefore = residentBytes()
    let refusedForLoadBefore = hub.counts.refusedForLoad
    let perThread = (0..<clientThreads).map { t in Array(stride(from: t, to: devices, by: clientThreads)) }
    let start = Date().timeIntervalSince1970 + 0.5
    let session = "load-\(round + 1)"
    let outcomes = await withTaskGroup(of: ThreadOutcome.self) { group in
      for list in perThread where !list.isEmpty {
        group.addTask {
          (try? await LoopbackClient.offPool {
            self.push(devices: list, session: session, port: port, start: start)
          }) ?? ThreadOutcome(failed: list.count)
        }
      }
      var all: [ThreadOutcome] = []
      for await outcome in group { all.append(outcome) }
      return all
    }
    for o in outcomes {
      figures.batchesSent += o.sent
      figures.refused += o.refused
      figures.failedToSend += o.failed
      for t in o.roundTrips { result.roundTrip.record(t) }
    }
    figures.residentBytesPushing = residentBytes()
    figures.refusedForLoad = hub.counts.refusedForLoad - refusedForLoadBefore
    // The devices have left: wait for the idle rule to close every session.
    let deadline = Date().timeIntervalSince1970 + hub.limits.idleSeconds + 10
    while hub.openStreams > 0 && Date().timeIntervalSince1970 < deadline {
      try await Task.sleep(nanoseconds: 200_000_000)
    }
    figures.openStreamsAfter = hub.openStreams
    trimFreedMemory()
    figures.residentBytesAfter = residentBytes()
    return figures
  }

  struct ThreadOutcome: Sendable {
    var sent = 0
    var refused = 0
    var failed = 0
    var roundTrips: [UInt64] = []
  }

  /// One client thread: its devices' batches in time order, each on the device's own
  /// connection, sleeping until each is due.
  func push(devices list: [Int], session: String, port: Int, start: Double) -> ThreadOutcome {
    var outcome = ThreadOutcome()
    let clients = list.map { _ in LoopbackClient(port: port) }
    let perBatch = Int((Double(rateHz) * batchSeconds).rounded())
    let batches = Int(seconds / batchSeconds)
    var schedule: [(due: Double, slot: Int, batch: Int)] = []
    for (slot, device) in list.enumerated() {
      for b in 0..<batches {
        let due = start + Double(b + 1) * batchSeconds + batchSeconds * Double(device) / Double(devices)
        schedule.append((due, slot, b))
      }
    }
    schedule.sort { $0.due < $1.due }
    let epoch: Int64 = 1_700_000_000_000_000_000
    let step = Int64(1e9 / Double(rateHz))
    for item in schedule {
      let wait = item.due - Date().timeIntervalSince1970
      if wait > 0 { usleep(useconds_t(wait * 1e6)) }
      let device = list[item.slot]
      let body = Self.batch(
        device: device, session: session, messageId: item.batch, firstNanos: epoch + Int64(item.batch * perBatch) * step,
        count: perBatch, stepNanos: step, seed: seed)
      let sent = DispatchTime.now().uptimeNanoseconds
      do {
        let answer = try clients[item.slot].post("/push", body: body)
        outcome.roundTrips.append(DispatchTime.now().uptimeNanoseconds - sent)
        outcome.sent += 1
        if answer.status != 200 { outcome.refused += 1 }
      } catch {
        outcome.failed += 1
      }
    }
    return outcome
  }

  /// One Sensor Logger push of Android `totalacceleration` readings (m/s², Android sign).
  static func batch(
    device: Int, session: String, messageId: Int, firstNanos: Int64, count: Int, stepNanos: Int64, seed: UInt64
  ) -> [UInt8] {
    var generator = SplitMix64(seed: seed &+ UInt64(device) &* 1_000_003 &+ UInt64(messageId))
    var text = "{\"messageId\":\(messageId),\"sessionId\":\"\(session)\",\"deviceId\":\"device-\(device)\",\"payload\":["
    for k in 0..<count {
      let t = firstNanos + Int64(k) * stepNanos
      let seconds = Double(t % 1_000_000_000_000) / 1e9
      let sway = 2.5 * sin(2 * Double.pi * 1.8 * seconds + Double(device))
      let noise = { (Double(generator.next() % 1000) / 1000 - 0.5) * 0.4 }
      if k > 0 { text += "," }
      text += "{\"name\":\"totalacceleration\",\"time\":\(t),\"values\":{\"x\":\(noise()),"
        + "\"y\":\(9.81 + sway + noise()),\"z\":\(noise())}}"
    }
    return Array((text + "]}").utf8)
  }

  private func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
      let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  private func trimFreedMemory() {
    #if os(Linux)
      _ = glibcMallocTrim(0)
    #endif
  }
}

/// Starts a server in a task and waits for its port: for tests and the load test.
public enum ServeTestHarness {
  public static func start(_ server: LiveServer) async throws -> (port: Int, task: Task<Void, Never>) {
    let box = PortBox()
    let task = Task {
      _ = try? await server.run { port in box.set(port) }
    }
    for _ in 0..<600 {
      if let port = box.get() { return (port, task) }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    task.cancel()
    throw ServeError.cannotStart("no port after 30 s")
  }
}

private final class PortBox: @unchecked Sendable {
  private let lock = NSLock()
  private var port: Int?
  func set(_ p: Int) { lock.withLock { port = p } }
  func get() -> Int? { lock.withLock { port } }
}

#if os(Linux)
  /// glibc's malloc_trim: freed heap returned to the system, so resident memory shows what is
  /// still held.
  @_silgen_name("malloc_trim")
  private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
