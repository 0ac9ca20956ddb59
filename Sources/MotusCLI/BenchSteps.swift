// `motus bench steps`: step counts against the phone's pedometer and the threshold pedometer,
// and cadence on labelled walking, jogging, sitting and standing sessions.

import ArgumentParser
import Foundation
import Motus

struct BenchSteps: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "steps",
    abstract: "Measure step counts and cadence on real recordings.",
    discussion: """
      Streams each phone-app recording under --app-exports (a recording, an app's folder or a \
      tree of them) that carries the phone's own pedometer \
      (SensorLog's pedometer columns, Sensor Logger's Pedometer.csv) and runs at 15 Hz or more \
      through the model with steps counted, as `motus stream --steps` does, and compares the \
      total with the phone's count over the same interval; beside it, the threshold pedometer \
      (peaks of |a| low-passed with RC 0.3 s) with typical settings (1.1 g, 0.25 s) and with \
      settings tuned on the other recordings. Then cadence at every prediction on MotionSense: \
      the share of walking and jogging predictions inside 90-130 and 140-200 steps/min, and \
      steps per minute while sitting and standing. Example:
        motus bench steps --subjects 17-20
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

  @Option(help: ArgumentHelp("The model to stream with.", valueName: "file"))
  var model = "models/six-class.motus"

  @Option(
    help: ArgumentHelp(
      "A phone-app recording, an app's folder of them, or a tree of such folders.",
      valueName: "path"))
  var appExports = "../shared/datasets/app-exports"

  @Option(help: ArgumentHelp("MotionSense CSV ('' skips the cadence section).", valueName: "file"))
  var motionSense = "../shared/datasets/motionsense/motionsense.csv"

  @Option(help: ArgumentHelp("MotionSense subjects, e.g. 17-20 (default: all).", valueName: "list"))
  var subjects: String?

  @Option(help: "Output format.")
  var format: Format = .table

  func run() throws {
    let trained = try ModelFile.read(path: model)
    let counts = try StepBenchmark.counts(model: trained, recordings: try measuredRecordings())
    var cadences: [StepBenchmark.CadenceResult] = []
    if !motionSense.isEmpty {
      Warnings.write("steps: cadence on \(motionSense)\n")
      let options = StepBenchmark.cadenceOptions(
        subjects: try subjects.map { try SubjectFilter(parsing: $0) })
      let dataset = try DataSource(files: [motionSense], options: options).load().result.dataset
      cadences = try StepBenchmark.cadences(model: trained, dataset: dataset)
    }
    try StandardOutput.print(
      format == .json
        ? try StepReport.json(counts, cadences) : StepReport.table(counts, cadences))
  }

  /// The recordings under `--app-exports` (a recording, an app's folder or a tree of them)
  /// that carry the phone's pedometer and raw acceleration at 15 Hz or more; those passed
  /// over are named on standard error.
  ///
  /// - Throws: `ToolError` when none is left; the loader's errors for a recording it cannot
  ///   read.
  private func measuredRecordings() throws -> [Recording] {
    let paths = try DatasetLoader.appRecordingPaths([appExports])
    let minimumRate = StepBenchmark.minimumRateHz
    var measured: [Recording] = []
    var passed: [(reason: String, name: String)] = []
    for path in paths {
      let name = Excerpt.text(StepReport.relative(path), limit: 80)
      let recordings: [Recording]
      do {
        recordings = try DataSource(files: [path], options: StepBenchmark.recordingOptions)
          .load().result.dataset.recordings
      } catch CSVError.noChannelMatches {
        passed.append(("no raw acceleration", name))
        continue
      }
      let withPedometer = recordings.filter { $0.pedometer != nil }
      if withPedometer.isEmpty {
        passed.append(("no pedometer", name))
      } else if !withPedometer.contains(where: { $0.sampleRateHz >= minimumRate }) {
        passed.append(("under \(Int(minimumRate)) Hz", name))
      }
      measured += withPedometer
    }
    let reasons = Dictionary(grouping: passed, by: \.reason).sorted { $0.key < $1.key }.map {
      "\($0.key): " + $0.value.prefix(Excerpt.listLimit).map(\.name).joined(separator: ", ")
        + ($0.value.count > Excerpt.listLimit
          ? " and \($0.value.count - Excerpt.listLimit) more" : "")
    }.joined(separator: "; ")
    if !passed.isEmpty {
      Warnings.write("steps: passed over \(passed.count) recording(s), \(reasons)\n")
    }
    guard measured.contains(where: { $0.sampleRateHz >= minimumRate }) else {
      throw ToolError(
        "--app-exports \(Excerpt.text(appExports, limit: 200)): no phone-app recording with the "
          + "phone's pedometer at \(Int(minimumRate)) Hz or more among the \(paths.count) found"
          + (passed.isEmpty ? "" : " (\(reasons))") + ".",
        hint: "give a recording, an app's folder or a tree of them holding a SensorLog export "
          + "with pedometer columns or a Sensor Logger folder with Pedometer.csv.")
    }
    return measured
  }
}

/// `motus bench steps` output.
enum StepReport {
  static func table(
    _ counts: [StepBenchmark.CountResult], _ cadences: [StepBenchmark.CadenceResult]
  ) -> String {
    func percent(_ e: Double?) -> String { e.map { String(format: "%+.1f %%", 100 * $0) } ?? "-" }
    var text = "Steps against the phone's pedometer (same interval):\n"
    var rows = [
      [
        "recording", "Hz", "s", "phone", "motus", "error", "threshold typical", "error",
        "threshold tuned", "error", "cadence",
      ]
    ]
    for c in counts {
      rows.append([
        relative(c.recording), String(format: "%.1f", c.rateHz), String(format: "%.0f", c.seconds),
        String(format: "%.0f", c.reference), "\(c.learned)", percent(c.error(c.learned)),
        "\(c.typicalThreshold)", percent(c.error(c.typicalThreshold)),
        c.tunedThreshold.map(String.init) ?? "-", percent(c.error(c.tunedThreshold)),
        String(format: "%.0f", c.medianCadence),
      ])
    }
    text += TextTable.render(rows)
    guard !cadences.isEmpty else { return text }
    text += "\nCadence at each prediction (steps/min):\n"
    var cadenceRows = [
      ["label", "sessions", "min", "predictions", "in range", "p5", "p50", "p95", "steps/min"]
    ]
    for c in cadences {
      let range = c.range.map { "\(Int($0.lowerBound))-\(Int($0.upperBound))" }
      let inRange = c.fractionInRange.map { String(format: "%.3f (%@)", $0, range ?? "") } ?? "-"
      cadenceRows.append(
        [c.label, "\(c.sessions)", String(format: "%.1f", c.minutes), "\(c.predictions)", inRange]
          + c.cadencePercentiles.map { String(format: "%.0f", $0) }
          + [String(format: "%.2f", c.stepsPerMinute)])
    }
    return text + TextTable.render(cadenceRows)
  }

  /// A recording's name below the app-exports folder: app/recording.
  static func relative(_ path: String) -> String {
    var parts = path.split(separator: "/").map(String.init)
    if parts.last?.lowercased().hasSuffix(".csv") == true { parts.removeLast() }
    return parts.suffix(2).joined(separator: "/")
  }

  /// Both tables as one JSON object, through the encoder of every report.
  static func json(
    _ counts: [StepBenchmark.CountResult], _ cadences: [StepBenchmark.CadenceResult]
  ) throws -> String {
    let report = JSONReport(
      counts: counts.map {
        JSONReport.Count(
          recording: relative($0.recording), rateHz: $0.rateHz, seconds: $0.seconds,
          phone: $0.reference, motus: $0.learned, thresholdTypical: $0.typicalThreshold,
          thresholdTuned: $0.tunedThreshold, medianCadence: $0.medianCadence)
      },
      cadence: cadences.map {
        JSONReport.Cadence(
          label: $0.label, sessions: $0.sessions, minutes: $0.minutes,
          predictions: $0.predictions, stepsPerMinute: $0.stepsPerMinute,
          percentiles: $0.cadencePercentiles, fractionInRange: $0.fractionInRange)
      })
    return String(
      decoding: try JSONEncoder.sortedKeys(prettyPrinted: true).encode(report), as: UTF8.self)
  }

  /// The JSON form (nil values left out).
  private struct JSONReport: Encodable {
    struct Count: Encodable {
      var recording: String
      var rateHz: Double
      var seconds: Double
      var phone: Double
      var motus: Int
      var thresholdTypical: Int
      var thresholdTuned: Int?
      var medianCadence: Double

      enum CodingKeys: String, CodingKey {
        case recording, seconds, phone, motus
        case rateHz = "rate_hz", thresholdTypical = "threshold_typical"
        case thresholdTuned = "threshold_tuned", medianCadence = "median_cadence"
      }
    }

    struct Cadence: Encodable {
      var label: String
      var sessions: Int
      var minutes: Double
      var predictions: Int
      var stepsPerMinute: Double
      /// The 5th, 50th and 95th.
      var percentiles: [Double]
      var fractionInRange: Double?

      enum CodingKeys: String, CodingKey {
        case label, sessions, minutes, predictions
        case stepsPerMinute = "steps_per_minute", percentiles = "cadence_p5_p50_p95"
        case fractionInRange = "fraction_in_range"
      }
    }

    var counts: [Count]
    var cadence: [Cadence]
  }
}
