// `motus stream`: CSV rows in as they arrive, one line per prediction out, written before
// each wait for more input.

import ArgumentParser
import Foundation
import Motus

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct Stream: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Classify a recording or a live CSV stream sample by sample.",
    discussion: """
      Reads CSV rows (a header first: a time column and the model's input channels; extra \
      columns are ignored) from FILE or standard input (-) as they arrive, and writes one line \
      per prediction, written out before each wait for more input, so it works behind a pipe \
      or `tail -f`. Repetitions of \
      the push-up class and gaps are reported as events. A new value in a `session` column \
      starts a new stream. Inputs are adapted as in training: a file without acceleration.x/y/z \
      gets them as gravity + userAcceleration (Core Motion device motion), and \
      --negate-acceleration flips Android-sign acceleration; `motus model-info MODEL` lists \
      the columns a model needs. Latency and throughput go to standard error at the end. Example:
        tail -f recording.csv | motus stream models/six-class.motus - --smoothing hmm
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case json, csv }

  @OptionGroup var modelFile: ModelFileArgument
  var modelPath: String { modelFile.path }

  @Argument(
    help: ArgumentHelp(
      "CSV file to read, or - for standard input, e.g. recording.csv; or a phone-app recording "
        + "(a Sensor Logger or phyphox folder, a SensorLog, phyphox, Physics Toolbox or "
        + "AndroSensor CSV), converted as `motus inspect` shows.", valueName: "file"))
  var input: String = "-"

  @Option(
    help: ArgumentHelp(
      "Output format: one JSON object per line, or CSV with a header.",
      discussion: "Example: `--format csv > predictions.csv`."))
  var format: Format = .json

  @Flag(
    help: ArgumentHelp(
      "Write activity segments (start, end, label, mean confidence) instead of predictions.",
      discussion: "Example: `motus stream m.motus rec.csv --smoothing hmm --segments`."))
  var segments = false

  @OptionGroup var smoothing: SmoothingOptions

  @OptionGroup(title: "Structure of the motion") var structure: StructureOptions

  @OptionGroup var columns: InputColumnOptions

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Input rate in Hz; estimated from the first rows when omitted.",
      discussion: "Example: `--input-rate 50`.", valueName: "hz"))
  var inputRate: Double?

  @OptionGroup var gaps: GapOptions

  @OptionGroup var unknown: UnknownBelowOption<Stream>

  @Flag(
    help: ArgumentHelp(
      "Replay the input at the pace of its own timestamps.",
      discussion: "Example: `motus stream m.motus rec.csv --realtime` (a live demo). A gap in "
        + "the timestamps (--gap-factor and --min-gap: where the stream restarts its window) or "
        + "a step back in time is not waited through: the replay restarts its clock there."))
  var realtime = false

  @Flag(
    help: ArgumentHelp(
      "Resample to the model's rate even when the input rate matches it (jittered clocks).",
      discussion: "Example: `--resample`."))
  var resample = false

  @Flag(
    help: ArgumentHelp(
      "Count steps: totals, cadence and step events in the JSON lines, steps per segment.",
      discussion: "Example: `motus stream models/six-class.motus walk.csv --steps`. Steps come "
        + "from the periodicity of |acceleration| in any activity, as a phone's pedometer counts."))
  var steps = false

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --steps, estimate distance from steps of this length, in metres.",
      discussion: "Example: `--step-length 0.72`.", valueName: "m"))
  var stepLength: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --steps, estimate distance from this height, in metres (step length 0.415 x height "
        + "walking, longer running).", discussion: "Example: `--height 1.75`.", valueName: "m"))
  var height: Double?

  func validate() throws {
    if steps, format == .csv {
      throw ValidationError.appliesOnly("--steps", with: "--format json (CSV has no step columns)")
    }
    for (flag, value) in [("--step-length", stepLength), ("--height", height)] {
      guard let value else { continue }
      guard steps else { throw ValidationError.appliesOnly(flag, with: "--steps") }
      guard value > 0 && value < 3 else {
        throw ValidationError("'\(flag)' must be in metres, between 0 and 3, got \(value).")
      }
    }
    if let inputRate { try ValidationError.checkSampleRate(inputRate, flag: "--input-rate") }
  }

  func run() throws {
    // Ctrl-C ends the input: the open segment and the summary are still written.
    Interruption.finishOnSignal()
    let model: TrainedModel = try ModelFile.read(path: modelPath)
    try smoothing.evidenceOptions.check(classes: model.classes)
    var source = try StreamInput(input, model: model, columns: columns, gapRule: gaps.gapRule)
    let warnings = Warnings()
    for note in source.notes { Warnings.write("note: \(Excerpt.printable(note))\n") }
    for warning in source.warnings { Warnings.write("warning: \(Excerpt.printable(warning))\n") }
    let adaptations = source.rows.adapter.adaptations
    if !adaptations.isEmpty {
      warnings.warn("input: " + adaptations.joined(separator: "; "), prefix: "note")
    }
    let output = StreamOutput(classes: model.classes, format: format, segmentsOnly: segments)
    output.flushesEachLine = realtime
    source.beforeRead { output.flush() }
    defer { output.flush() }  // lines made before an error still reach the reader
    output.writeHeader()
    let stream = StreamSession(
      model: model, inputChannels: source.rows.inputs, configuration: try configuration(),
      measuresSampleTime: true)
    let rejections = try pump(
      &source, into: stream, output: output, warnings: warnings, model: model)
    output.flush()
    // A full disk is an error; a closed pipe ends the command quietly (MotusCommand.main).
    if let failure = output.failure { throw failure }
    let meter = StreamMeter(times: stream.sampleTimes, statistics: stream.statistics)
    warnings.summarize()
    var summary = meter.summary(model: model)
    if stream.rowsSkipped > 0 {
      summary += "\nrows skipped (unreadable or out of range): \(stream.rowsSkipped)"
    }
    if let number = Interruption.requested {
      summary += "\ninterrupted by signal \(number): the input ended there"
    }
    Warnings.write(summary + "\n")
    Interruption.dieOfRequestedSignal()
    // Nothing usable came out: every row was rejected.
    if stream.rowsSkipped > 0 && stream.statistics.samplesReceived == 0 {
      throw ToolError(
        "\(source.name): every one of its \(stream.rowsSkipped) rows was rejected, so nothing "
          + "was streamed; the first\(rejections.count > 1 ? " \(rejections.count)" : ""): "
          + rejections.map(\.message).joined(separator: " "),
        hint: "compare the columns and their units with `motus model-info MODEL`.")
    }
  }

  private func configuration() throws -> StreamConfiguration {
    var configuration = StreamConfiguration()
    configuration.gapRule = gaps.gapRule
    configuration.alwaysResample = resample
    configuration.unknownThreshold = unknown.unknownBelow
    configuration.smoothing = smoothing.value
    configuration.pushUpGate = structure.gate
    configuration.trips = smoothing.trips
    configuration.evidence = try smoothing.evidence
    configuration.inputRateHz = inputRate  // nil: estimated per session from its first rows
    configuration.countsSteps = steps
    configuration.stride = StrideModel(stepLengthMeters: stepLength, heightMeters: height)
    return configuration
  }

  /// Feeds every row to the session until the input or the reader of the output ends; returns
  /// the first three rows it rejected.
  private func pump(
    _ source: inout StreamInput, into stream: StreamSession, output: StreamOutput,
    warnings: Warnings, model: TrainedModel
  ) throws -> [CSVError] {
    var rejections: [CSVError] = []
    func write(_ streamed: StreamSession.Output) -> Bool {
      switch streamed {
      case .event(let event, let session):
        return output.write(event, session: session)
      case .skippedRow(let error):
        warnings.warn("\(error) (row skipped)", kind: "skipped row")
        if rejections.count < 3 { rejections.append(error) }
        return true
      case .inputRateDisagrees(let session, let given, let timestamps):
        let name = session.map { " of session '\(Excerpt.text($0))'" } ?? ""
        warnings.warn(
          "--input-rate \(given) Hz, but the timestamps\(name) step at "
            + String(format: "%.4g", timestamps) + " Hz (first rows); the stream goes by "
            + "--input-rate. HINT: leave --input-rate out to follow the timestamps.",
          kind: "input rate warning")
        return true
      }
    }
    let name = source.name
    // Engines start inside the session; an estimated rate out of bounds is the input's fault.
    func namingInput<T>(_ body: () throws -> T) throws -> T {
      do {
        return try body()
      } catch let error as LimitError {
        let estimated = inputRate == nil ? " (input rate estimated from the first rows)" : ""
        throw ToolError("\(name)\(estimated): \(error)")
      }
    }
    var values = [Float](repeating: 0, count: source.rows.inputs.count)
    let replay = realtime ? RealtimeClock(gapRule: gaps.gapRule) : nil
    // The step the gap rule measures against: the running engine's rate, else the given or
    // the model's (while a session's first rows wait for its estimate).
    func typicalStep() -> Double {
      1 / (stream.inputRateHz ?? inputRate ?? model.featureSpec.sampleRateHz)
    }
    var keepGoing = true
    while keepGoing,
      let row = try values.withUnsafeMutableBufferPointer({ try source.next(into: $0) })
    {
      if case .sample(let time, _) = row { replay?.wait(until: time, typicalStep: typicalStep()) }
      keepGoing = try namingInput {
        try values.withUnsafeBufferPointer { try stream.append(row, values: $0, consumer: write) }
      }
    }
    try namingInput { try stream.finish(consumer: write) }
    return rejections
  }
}

/// Processing time per sample and the stream's counts, for the report on standard error.
struct StreamMeter {
  let times: SampleTimeHistogram
  let statistics: StreamStatistics

  func summary(model: TrainedModel) -> String {
    func quantile(_ q: Double) -> Double { times.quantile(q) / 1000 }
    let perSample = times.mean / 1000
    let spec = model.featureSpec
    let (windowSeconds, hopSeconds) = (spec.windowSeconds, spec.hopSeconds)
    let skipped = statistics.predictionsSkippedNonFinite
    let nonFinite = skipped > 0 ? ", \(skipped) windows without a finite prediction" : ""
    return """
      stream: \(statistics.samplesReceived) samples, \(statistics.predictions) predictions, \
      \(statistics.gaps) gaps, \(statistics.samplesSkippedNaN) NaN and \
      \(statistics.samplesSkippedOutOfOrder) out-of-order samples skipped\(nonFinite)
      engine time per sample: mean \(String(format: "%.2f", perSample)) µs, median \
      \(String(format: "%.2f", quantile(0.5))) µs, \
      p99 \(String(format: "%.2f", quantile(0.99))) µs \
      (\(String(format: "%.0f", perSample > 0 ? 1e6 / perSample : 0)) samples/s, parsing excluded)
      latency: a prediction covers the last \(String(format: "%.2f", windowSeconds)) s and comes \
      every \(String(format: "%.2f", hopSeconds)) s
      """
  }
}

/// Sleeps so that rows are handled at the pace of their timestamps (`--realtime`). A gap by
/// `gapRule`, where the stream restarts its window anyway, or a step back in time restarts the
/// clock instead: a 10^6 s gap in a recording is not slept through for 11 days.
final class RealtimeClock {
  let gapRule: GapRule
  private var origin: (wall: Double, data: Double)?
  private var last: Double?

  init(gapRule: GapRule) { self.gapRule = gapRule }

  func wait(until dataTime: Double, typicalStep: Double) {
    let now = Date().timeIntervalSince1970
    defer { last = dataTime }
    let step = last.map { dataTime - $0 } ?? 0
    guard let origin, step >= 0, !gapRule.isGap(step: step, typicalStep: typicalStep) else {
      origin = (now, dataTime)
      return
    }
    let due = origin.wall + (dataTime - origin.data)
    if due > now { usleep(useconds_t(min(due - now, 60) * 1_000_000)) }
  }
}

extension Stream: UnknownBelowUse {
  static var help: ArgumentHelp {
    ArgumentHelp(
      "Report 'unknown' below this top probability, in [0, 1) (default: the model's).",
      discussion: "Example: `--unknown-below 0.5`.", valueName: "p")
  }
}
