// `motus evaluate`: a model file + labelled CSV data -> metrics, breakdowns and an HTML report.

import ArgumentParser
import Foundation
import Motus

struct Evaluate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Score a model file on labelled data: confusion matrix, per-class metrics, "
      + "calibration, per-subject and per-session breakdowns.",
    discussion: """
      Windows and features come from the model (its FeatureSpec), never from flags, so the \
      evaluation sees exactly the training features. The data is read with the model's \
      channel recipes and, when its rate differs from the model's, resampled to it. With \
      --smoothing, each recording's windows are smoothed in time order as `motus stream` \
      smooths them, so the scores are those of the stream's answers. Example:
        motus evaluate ms.motus ../shared/datasets/motionsense/motionsense.csv \\
          --subjects 17-20 --report report.html
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable {
    case text, json, csv
  }

  @Argument(help: ArgumentHelp("Model file written by `motus train`.", valueName: "model"))
  var model: String

  @OptionGroup var data: DataOptions

  @OptionGroup var purity: PurityOptions
  var minimumPurity: Float { purity.minimumPurity }

  @OptionGroup var smoothing: SmoothingOptions

  @Option(help: "Report format.")
  var format: Format = .text

  @Flag(help: "Show the confusion matrix row-normalised (text format).")
  var normalize = false

  @Option(
    name: [.short, .long],
    help: ArgumentHelp(
      "Write the report to this file (atomically) instead of stdout.",
      valueName: "file"))
  var output: String?

  @Option(
    help: ArgumentHelp(
      "Also write a self-contained HTML page with charts (atomically).", valueName: "file"))
  var report: String?

  @Option(
    help: ArgumentHelp(
      "Session drawn in the HTML timeline (default: the first session).", valueName: "name"))
  var timelineSession: String?

  @Option(
    help: ArgumentHelp(
      "Evaluate on the data as another device might record it: rotation=DEG,gain=S,noise=STD.",
      discussion: "Each recording gets one random rotation of its x/y/z vectors, a gain in "
        + "1 +- S, white noise (g) and, with sway=DEG, a slow tilt wobble (intensity=S and "
        + "tempo=S as in motus train --perturbation); a robustness check "
        + "of how much the model leans on one phone's orientation, gain and noise floor. The "
        + "data stays real, the change is simulated.",
      valueName: "spec"))
  var perturb: String?

  @Option(
    parsing: .unconditional, help: "Seed of the simulated devices drawn by --perturb (default: 0).",
    transform: TrainingFlags.seed(_:))
  var perturbSeed: UInt64?

  @OptionGroup var unknown: UnknownBelowOption<Evaluate>

  func validate() throws {
    try data.requireData()
    if let perturb {
      do {
        _ = try DevicePerturbation(parsing: perturb)
      } catch let error as DevicePerturbation.ParseError {
        throw ValidationError("'--perturb': \(error)")
      }
    }
    if data.channels != nil {
      throw ValidationError(
        "'--channels' cannot be used: evaluation reads the channels the model was trained on.")
    }
    if perturbSeed != nil, perturb == nil {
      throw ValidationError.appliesOnly("--perturb-seed", with: "--perturb")
    }
    if timelineSession != nil, report == nil {
      throw ValidationError.appliesOnly("--timeline-session", with: "--report")
    }
    if normalize, format != .text {
      throw ValidationError.appliesOnly("--normalize", with: "--format text")
    }
  }

  func run() throws {
    // Outputs first: a bad path fails before the work, and no input is ever overwritten.
    let inputs = try [model] + data.inputFiles()
    let reportFile = try report.map {
      try OutputFile(path: $0, flag: "--report", inputs: inputs, otherOutputs: [output ?? ""])
    }
    let outputFile = try output.map {
      try OutputFile(path: $0, flag: "--output", inputs: inputs, otherOutputs: [report ?? ""])
    }
    var trained: TrainedModel = try ModelFile.read(path: model)
    try smoothing.evidenceOptions.check(classes: trained.classes)
    var loaded = try load(for: trained)
    if case .whole(var whole) = loaded {
      whole.result.dataset = try perturbed(whole.result.dataset)
      loaded = .whole(whole)
    }
    if let unknownBelow = unknown.unknownBelow { trained.unknownThreshold = unknownBelow }
    var result: EvaluationResult = try Evaluation.run(
      model: trained, loaded: loaded, minimumPurity: minimumPurity, smoothing: smoothing.value,
      trips: smoothing.trips, evidence: smoothing.evidence)
    result.skippedRecordings += EvaluationResult.SkippedRecording.loaderSkips(loaded.outline.report)
    if case .whole(let whole) = loaded {
      for comparison in StepComparison.all(in: whole.result.dataset) {
        Warnings.write(Excerpt.printable(comparison.line) + "\n")
      }
    }
    try write(result, reportFile: reportFile, outputFile: outputFile)
  }

  /// The data, loaded with the model's channels and rate, with its notes and warnings printed:
  /// CSV files windowed as they are read unless `--perturb` needs the samples.
  private func load(for trained: TrainedModel) throws -> Evaluation.ScoringData {
    let loaded = try ProgressLine.reading { progress in
      try Evaluation.loadForScoring(
        data.source(), model: trained, minimumPurity: minimumPurity, smoothing: smoothing.value,
        whole: perturb != nil, progress: progress)
    }
    var outline = loaded.outline
    outline.warnAboutData(spec: trained.featureSpec)
    for note in outline.report.notes where note.hasPrefix("input: ") {
      Warnings.write("note: \(Excerpt.printable(note))\n")
    }
    if case .whole(let whole) = loaded, whole.resampled, data.sampleRate == nil {
      Warnings.write(
        "note: resampled the data to the model's \(trained.featureSpec.sampleRateHz) Hz.\n")
    }
    return loaded
  }

  /// `dataset` under `--perturb`'s simulated device change, or as it is.
  private func perturbed(_ dataset: Dataset) throws -> Dataset {
    guard let perturb else { return dataset }
    let perturbation = try DevicePerturbation(parsing: perturb)
    Warnings.write(
      "note: real data with a simulated device change (\(perturbation), seed \(perturbSeed ?? 0))"
        + ".\n")
    return perturbation.apply(to: dataset, seed: perturbSeed ?? 0)
  }

  /// The HTML report (`--report`) and the result in `--format` to `--output` or standard output.
  private func write(
    _ result: EvaluationResult, reportFile: OutputFile?, outputFile: OutputFile?
  ) throws {
    if reportFile != nil {
      let page: String = try HTMLReport.render(
        result: result, timelineSession: timelineSession,
        title: "Motus evaluation: \(URL(fileURLWithPath: model).lastPathComponent)")
      try reportFile?.write(page)
    }
    let text: Data
    switch format {
    case .text: text = Data(result.text(normalize: normalize).utf8)
    case .json: text = try result.jsonData()
    case .csv: text = Data(result.csv().utf8)
    }
    if let outputFile {
      try outputFile.write([UInt8](text))
      try outputFile.commit()
    } else {
      try StandardOutput.write([UInt8](text))
    }
    try reportFile?.commit()
  }
}

extension Evaluate: UnknownBelowUse {
  static var help: ArgumentHelp {
    ArgumentHelp(
      "Score coverage as if the model answered 'unknown' below this top probability, in [0, 1).",
      discussion: "Default: the model's own threshold. The report adds how many windows get "
        + "a class and how accurate those are; the other metrics score every window.",
      valueName: "p")
  }
}
