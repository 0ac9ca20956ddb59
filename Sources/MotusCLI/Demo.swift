// `motus demo`: the whole job on SYNTHETIC data, with no files and no network: simulate
// labelled recordings of the six activities, train, evaluate on unseen synthetic subjects,
// and stream a mixed recording into segments and push-up counts.

import ArgumentParser
import Foundation
import Motus

struct Demo: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Train, evaluate and stream on simulated (synthetic) recordings: no data needed.",
    discussion: """
      Every recording here is SYNTHETIC, made by MotusSimulation's physically motivated \
      generator (gait cadences and amplitudes from the literature, random device \
      orientation, sensor noise). The figures show that the pipeline works end to end; they \
      say nothing about accuracy on real people (see README for measured figures on real data).
      """)

  @Option(
    parsing: .unconditional, help: "Seed for the simulation, the split and training.",
    transform: TrainingFlags.seed(_:))
  var seed: UInt64 = 1

  @Option(
    parsing: .unconditional,
    help: "Synthetic subjects to train on (two more are held out for testing).")
  var subjects: Int = 6

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp("Seconds of each activity per synthetic subject.", valueName: "seconds"))
  var seconds: Double = 40

  @Option(
    name: .shortAndLong, help: ArgumentHelp("Also write the trained model here.", valueName: "file")
  )
  var output: String?

  func validate() throws {
    if output == InputFile.standardInputPath {
      throw ValidationError(
        "'--output -' would mix the model with the demo's report on standard output; "
          + "give a file name.")
    }
    guard (2...50).contains(subjects) else {
      throw ValidationError("'--subjects' must be in 2...50, got \(subjects).")
    }
    guard seconds >= 10 && seconds <= 600 else {
      throw ValidationError("'--seconds' must be in 10...600, got \(seconds).")
    }
  }

  private static let channels = [
    "acceleration.*", "rotationRate.*", "|acceleration|", "|rotationRate|",
  ]

  func run() throws {
    let started = Date()
    // Before the work: a bad path fails at once.
    let outputFile = try output.map { try OutputFile(path: $0, flag: "--output", inputs: []) }
    try StandardOutput.print("motus demo: all data below is SYNTHETIC (simulated), seed \(seed)\n")
    let (trainSet, testSet) = try simulate()
    let model = try train(trainSet, writingTo: outputFile)
    try evaluate(model, on: testSet)
    try stream(model)
    try StandardOutput.print(
      String(
        format: "\ndone in %.1f s. Next: README.md shows the same steps on real data.",
        Date().timeIntervalSince(started)))
  }

  /// Step 1: each synthetic subject does every activity once, in a random order, in one
  /// continuous recording (windows that straddle a change are part of training, as in real
  /// life); the last two subjects are held out.
  private func simulate() throws -> (training: LoadResult, testing: LoadResult) {
    var simulator = ActivitySimulator(seed: seed)
    var training: [SimulatedRecording] = []
    var testing: [SimulatedRecording] = []
    var order = SplitMix64(seed: seed)
    for subject in 1...(subjects + 2) {
      let activities = SimulatedActivity.allCases.shuffled(using: &order)
      let r = simulator.recording(segments: activities.map { ($0, seconds) }, subject: subject)
      if subject <= subjects { training.append(r) } else { testing.append(r) }
    }
    let trainSet = try SimulatedRecording.loadResult(training, channelPatterns: Self.channels)
    let testSet = try SimulatedRecording.loadResult(testing, channelPatterns: Self.channels)
    try StandardOutput.print(
      "1. simulated \(subjects + 2) synthetic subjects, each doing the "
        + "\(SimulatedActivity.allCases.count) activities for \(Int(seconds)) s in a random order "
        + "at 50 Hz; subjects \(subjects + 1)-\(subjects + 2) held out")
    return (trainSet, testSet)
  }

  /// Step 2: the default recipe, as `motus train` fits it unless told otherwise
  /// (`FeatureChoice()`, `TrainingOptions()`), written to `--output` when given.
  private func train(_ trainSet: LoadResult, writingTo outputFile: OutputFile?) throws
    -> TrainedModel
  {
    let spec = try FeatureChoice().spec(for: trainSet)
    var options = TrainingOptions()
    options.seed = seed
    let trained = try Trainer.train(dataset: trainSet.dataset, spec: spec, options: options)
    try StandardOutput.print(
      "2. trained motus train's default recipe, \(Self.describe(options, spec: spec)), on "
        + "\(trained.table.windowCount) windows x \(trained.table.featureNames.count) features; "
        + String(format: "validation macro-F1 %.3f", trained.report.macroF1))
    if let outputFile {
      try outputFile.write([UInt8](ModelFile.encode(trained.model)))
      try outputFile.commit()
      try StandardOutput.print("   model -> \(outputFile.path)")
    }
    return trained.model
  }

  /// `logistic regression on 5.12 s windows (hop 1.70 s), 2 perturbed copies per recording`.
  static func describe(_ options: TrainingOptions, spec: FeatureSpec) -> String {
    let model = options.model.family == .logistic ? "logistic regression" : "an MLP"
    let copies = options.augmentation?.copies ?? 0
    return "\(model) on \(spec.windowSeconds) s windows "
      + String(format: "(hop %.2f s)", Double(spec.hopLength) / spec.sampleRateHz)
      + (copies > 0 ? ", \(copies) perturbed copies per recording" : "")
  }

  /// Step 3: scores on the held-out synthetic subjects, with the confusion matrix.
  private func evaluate(_ model: TrainedModel, on testSet: LoadResult) throws {
    let result = try Evaluation.run(model: model, dataset: testSet.dataset)
    try StandardOutput.print(
      "3. evaluated on the held-out synthetic subjects: "
        + String(
          format: "accuracy %.3f, macro-F1 %.3f, log loss %.3f (%d windows)", result.accuracy,
          result.macroF1, result.logLoss, result.windowCount))
    try StandardOutput.print(
      TextTable.confusion(result.confusion, labels: model.classes, indent: 3))
  }

  /// Step 4: one mixed synthetic recording streamed sample by sample, as segments.
  private func stream(_ model: TrainedModel) throws {
    var streamSimulator = ActivitySimulator(seed: seed &+ 1000)
    let plan: [(SimulatedActivity, Double)] = [
      (.stationary, 20), (.walking, 30), (.running, 20), (.pushUp, 25), (.stationary, 10),
      (.cycling, 30), (.automotive, 30),
    ]
    let mixed = streamSimulator.recording(segments: plan, subject: subjects + 3)
    var configuration = StreamConfiguration()
    configuration.smoothing = .hiddenMarkov(switchProbability: 0.05)
    let engine = try StreamingClassifier(
      model: model, inputChannels: ActivitySimulator.channels, configuration: configuration)
    var segments: [(ActivitySegment, Int)] = []
    var repetitionsBefore = 0
    engine.feed(timestamps: mixed.timestamps, columns: mixed.columns) { event in
      if case .segment(let s) = event {
        segments.append((s, engine.repetitionCount - repetitionsBefore))
        repetitionsBefore = engine.repetitionCount
      }
    }
    let truthPlan = plan.map { "\($0.0.rawValue) \(Int($0.1)) s" }.joined(separator: ", ")
    try StandardOutput.print("4. streamed one synthetic recording sample by sample (\(truthPlan)):")
    var rows = [["start s", "end s", "predicted", "confidence", "push-ups"]]
    for (s, reps) in segments {
      rows.append([
        String(format: "%.1f", s.start), String(format: "%.1f", s.end), s.label,
        String(format: "%.2f", s.meanConfidence), s.label == "push-up" ? "\(reps)" : "",
      ])
    }
    try StandardOutput.print(TextTable.render(rows, rightAligned: [0, 1, 3, 4], indent: 3))
    try StandardOutput.print(
      "   push-ups counted \(engine.repetitionCount), simulated \(mixed.pushUpCount) "
        + "(counter: autocorrelation period, no amplitude thresholds)")
  }
}
