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
      RATE accelerometer readings (synthetic) per second for SECONDS; prints batches refused, \
      the time from a batch's arrival to its predictions (p50/p99) and memory before, while \
      pushing and after the devices left. Example:
        motus bench serve models/six-class.motus --devices 200 --seconds 60
      """)

  @OptionGroup var modelFile: ModelFileArgument

  @Option(parsing: .unconditional, help: "Devices pushing at once.") var devices = 200
  @Option(parsing: .unconditional, help: "Readings per second per device.") var rate = 100
  @Option(parsing: .unconditional, help: "How long each device pushes, in seconds.") var seconds = 60.0
  @Option(parsing: .unconditional, help: "Seconds without a batch before a session closes.") var idle = 3.0
  @Option(parsing: .unconditional, help: "Seed of the synthetic signal.") var seed: UInt64 = 1

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
    let r = try box.result!.get()
    func ms(_ h: SampleTimeHistogram, _ q: Double) -> String { String(format: "%.2f", h.quantile(q) / 1e6) }
    func mb(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1e6) }
    try StandardOutput.write(
      """
      serve load: \(devices) devices x \(rate) Hz, 1-s batches, \(Int(seconds)) s (synthetic signal)
      batches: \(r.batchesSent) sent, \(r.refused) refused (\(r.refusedForLoad) for load), \
      \(r.failedToSend) not sent
      arrival to prediction (server): p50 \(ms(r.arrivalToPrediction, 0.5)) ms, \
      p99 \(ms(r.arrivalToPrediction, 0.99)) ms over \(r.arrivalToPrediction.count) batches
      round trip (client): p50 \(ms(r.roundTrip, 0.5)) ms, p99 \(ms(r.roundTrip, 0.99)) ms
      resident memory: \(mb(r.residentBytesBefore)) MB before, \(mb(r.residentBytesPushing)) MB \
      pushing, \(mb(r.residentBytesAfter)) MB after the devices left \
      (\(r.openStreamsAfter) sessions still open)

      """)
  }
}

private final class ResultBox: @unchecked Sendable {
  var result: Result<ServeLoadTest.Result, any Error>?
}
