// `motus serve`: phones push, the model classifies each device's session live, a page shows
// it. The flags become a hub and a server (MotusLive, MotusServe); this file holds no more.

import ArgumentParser
import Foundation
import Motus
import MotusLive
import MotusServe

struct Serve: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Classify what phones push, live, and show it on a page.",
    discussion: """
      Takes Sensor Logger's HTTP Push at POST /push (and POST /), CSV rows in the long layout \
      (a header first) at POST /samples?device=NAME, and gives each device's session its own \
      stream, as `motus stream --steps` runs it. The page at GET / shows every device live; \
      GET /api/devices gives the same as JSON. Binds 127.0.0.1 unless --host says otherwise; \
      any other address needs --token. Example:
        motus serve models/six-class.motus --host 0.0.0.0 --token "$(openssl rand -hex 16)"
      """)

  @OptionGroup var modelFile: ModelFileArgument

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Port to listen on (0: any free one).", valueName: "port"))
  var port: Int = 8080

  @Option(
    help: ArgumentHelp(
      "Address to bind: 127.0.0.1 serves this computer only; 0.0.0.0 every network, with --token.",
      valueName: "host"))
  var host = "127.0.0.1"

  @Option(
    help: ArgumentHelp(
      "Token every request must show (Authorization: Bearer, or ?token=); needed off loopback.",
      valueName: "token"))
  var token: String?

  @Option(
    help: ArgumentHelp(
      "Keep what arrives: DIR/<device>-<session>.csv and .predictions.jsonl, appended per batch.",
      valueName: "dir"))
  var record: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Close a session after this many seconds without a batch.", valueName: "seconds"))
  var idle: Double = LiveLimits().idleSeconds

  @Option(parsing: .unconditional, help: ArgumentHelp("Devices served at once.", valueName: "n"))
  var maxDevices: Int = LiveLimits().maxDevices

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Samples per second one device may send.", valueName: "n"))
  var maxRate: Double = LiveLimits().maxSamplesPerSecondPerDevice

  @OptionGroup var smoothing: SmoothingOptions

  @OptionGroup var gaps: GapOptions

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("'--port' must be within 0...65535, got \(port).")
    }
    guard idle > 0 && idle.isFinite else {
      throw ValidationError("'--idle' must be a positive number of seconds, got \(idle).")
    }
    guard maxDevices > 0 else { throw ValidationError("'--max-devices' must be 1 or more.") }
    guard maxRate > 0 && maxRate.isFinite else {
      throw ValidationError("'--max-rate' must be a positive number, got \(maxRate).")
    }
    if let record {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: record, isDirectory: &isFolder),
        isFolder.boolValue
      else {
        throw ValidationError("'--record' \(record): no such folder. HINT: mkdir -p \(record)")
      }
    }
  }

  func run() throws {
    let access = try ServeAccess(host: host, token: token)
    let model: TrainedModel = try ModelFile.read(path: modelFile.path)
    try smoothing.evidenceOptions.check(classes: model.classes)
    var limits = LiveLimits()
    limits.idleSeconds = idle
    limits.maxDevices = maxDevices
    limits.maxSamplesPerSecondPerDevice = maxRate
    var configuration = StreamConfiguration()
    configuration.gapRule = gaps.gapRule
    configuration.smoothing = smoothing.value
    configuration.trips = smoothing.trips
    configuration.evidence = try smoothing.evidence
    configuration.countsSteps = true
    let hub = LiveHub(
      model: model, configuration: configuration, limits: limits, recordFolder: record)
    let server = LiveServer(hub: hub, host: host, port: port, access: access)
    let shown = host.contains(":") ? "[\(host)]" : host
    try ServeRun.blocking(server) { bound in
      Warnings.write(
        "motus serve: http://\(shown):\(bound)/ (the page); Sensor Logger's push URL: "
          + "http://<this computer's address>:\(bound)/push\(token == nil ? "" : "?token=...")\n")
    }
    let counts = hub.counts
    Warnings.write(
      "motus serve: stopped; \(counts.accepted) bodies read, \(counts.refused) refused\n")
  }
}
