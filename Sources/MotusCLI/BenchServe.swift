// `motus bench serve`: the load test of `motus serve` over loopback (MotusServe's
// ServeLoadTest); this file reads flags and prints the figures.

import ArgumentParser
import Foundation
import Motus
import MotusLive
import MotusServe

struct BenchServe: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Load-test `motus serve`: devices pushing Sensor Logger batches over loopback.",
    discussion: """
      Starts a server of MODEL on a free loopback port; DEVICES devices each push one batch of \
      RATE accelerometer readings (synthetic) per second for SECONDS, then stop until the idle \
      rule has closed their sessions: one round. The same server takes ROUNDS rounds (2 by \
      default, the fewest that shows whether memory is left behind once devices leave; each \
      round lasts SECONDS plus IDLE and a little more). Prints batches refused, the time from \
      a batch's arrival to its predictions (p50/p99), memory before, while pushing and after \
      the devices left in every round, and the growth of memory after leaving from the first \
      round to the last, per round: flat when the last round's is within \(ServeLoadTest().flatToleranceBytes / 1_000_000) MB of the first's. \
      Example:
        motus bench serve models/six-class.motus --devices 200 --seconds 60 --rounds 3
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

  @OptionGroup var modelFile: ModelFileArgument

  @Option(parsing: .unconditional, help: "Devices pushing at once.") var devices = 200
  @Option(parsing: .unconditional, help: "Readings per second per device.") var rate = 100
  @Option(parsing: .unconditional, help: "How long each device pushes, in seconds.") var seconds = 60.0
  @Option(parsing: .unconditional, help: "Seconds without a batch before a session closes.") var idle = 3.0
  @Option(parsing: .unconditional, help: "Rounds of every device pushing then leaving, on one server.")
  var rounds = 2
  @Option(parsing: .unconditional, help: "Seed of the synthetic signal.") var seed: UInt64 = 1
  @Option(help: "Output format.") var format: Format = .text

  func validate() throws {
    guard (1...1000).contains(devices) else {
      throw ValidationError("'--devices' must be within 1...1000, got \(devices).")
    }
    guard (1...1000).contains(rate) else {
      throw ValidationError("'--rate' must be within 1...1000 Hz, got \(rate).")
    }
    guard seconds >= 1 && seconds <= 3600 else {
      throw ValidationError("'--seconds' must be within 1...3600, got \(seconds).")
    }
    guard (1...100).contains(rounds) else {
      throw ValidationError("'--rounds' must be within 1...100, got \(rounds).")
    }
    guard idle > 0 && idle <= 60 else {
      throw ValidationError("'--idle' must be within (0, 60] seconds, got \(idle).")
    }
  }

  func run() throws {
    let model: TrainedModel = try ModelFile.read(path: modelFile.path)
    var limits = LiveLimits()
    limits.idleSeconds = idle
    limits.maxDevices = max(limits.maxDevices, devices)
    var configuration = StreamConfiguration()
    configuration.countsSteps = true
    let hub = LiveHub(model: model, configuration: configuration, limits: limits)
    var test = ServeLoadTest()
    (test.devices, test.rateHz, test.seconds, test.seed) = (devices, rate, seconds, seed)
    test.rounds = rounds
    let box = ResultBox()
    let done = DispatchSemaphore(value: 0)
    Task {
      do {
        box.result = .success(try await test.run(hub: hub))
      } catch {
        box.result = .failure(error)
      }
      done.signal()
    }
    done.wait()
    let summary = try box.result!.get().summary
    switch format {
    case .json:
      let json = try JSONEncoder.sortedKeys(prettyPrinted: true).encode(summary)
      try StandardOutput.print(String(decoding: json, as: UTF8.self))
    case .text:
      try StandardOutput.write(text(summary))
    }
  }

  func text(_ s: ServeLoadTest.Summary) -> String {
    func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
    let rounds = s.rounds.map { r in
      "round \(r.round): \(f(r.residentMBBefore)) MB before, \(f(r.residentMBPushing)) MB pushing, "
        + "\(f(r.residentMBAfter)) MB after the devices left (\(r.batchesSent) batches, "
        + "\(r.refused) refused, \(r.openSessionsAfter) sessions still open)\n"
    }
    var growth = "one round: no growth to show (--rounds 2 or more)"
    if let perRound = s.afterLeaveGrowthMBPerRound, let flat = s.afterLeaveIsFlat {
      growth = "after-leave memory grew \(f(perRound, 2)) MB per round from round 1 to "
        + "\(s.rounds.count): \(flat ? "flat" : "NOT flat") (round \(s.rounds.count) within "
        + "\(f(s.flatToleranceMB)) MB of round 1)"
    }
    let memory = rounds.map { "  " + $0 }.joined()
    return """
      serve load: \(devices) devices x \(rate) Hz, 1-s batches, \(Int(seconds)) s, \
      \(s.rounds.count) round(s) (synthetic signal)
      batches: \(s.batchesSent) sent, \(s.refused) refused (\(s.refusedForLoad) for load), \
      \(s.notSent) not sent
      arrival to prediction (server): p50 \(f(s.arrivalToPredictionMs.p50, 2)) ms, \
      p99 \(f(s.arrivalToPredictionMs.p99, 2)) ms over \(s.batchesWithPredictions) batches
      round trip (client): p50 \(f(s.roundTripMs.p50, 2)) ms, p99 \(f(s.roundTripMs.p99, 2)) ms
      resident memory:
      \(memory)\(growth)

      """
  }
}

private final class ResultBox: @unchecked Sendable {
  var result: Result<ServeLoadTest.Result, any Error>?
}
