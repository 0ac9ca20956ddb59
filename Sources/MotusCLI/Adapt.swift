// `motus adapt`: a model file + a person's own labelled recordings -> the model adapted to
// them (MotusAdaptation, the code an app runs on the phone), every class and the spec kept.

import ArgumentParser
import Foundation
import Motus

struct Adapt: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Adapt a model to your own labelled recordings and write the adapted model.",
    discussion: """
      Windows the recordings with the model's own spec, then refits the model's last layer \
      on those windows (each class they show weighted equally) with a penalty towards the \
      original weights. The classes the recordings do not show keep their weights, and \
      stand-in windows drawn from the per-class statistics the model file keeps from \
      training hold their regions against the classes that move (--rehearsal-weight). The \
      spec, classes, temperature, cut-offs and thresholds are kept: stream, evaluate, export \
      and the Spark job read the adapted model unchanged, and `motus model-info` shows what \
      it was adapted from and on how many windows. The data must be at the model's rate \
      (--sample-rate resamples it). The same model, data and flags give the same bytes. \
      Example:
        motus adapt models/six-class.motus my-push-ups.csv -o mine.motus
      """)

  @OptionGroup var modelFile: ModelFileArgument
  @OptionGroup var data: DataOptions

  @Option(
    help: ArgumentHelp(
      "Pull towards the original weights (larger keeps the model closer to them).",
      valueName: "lambda"))
  var penalty = ModelAdapter.Settings().penalty

  @Option(
    help: ArgumentHelp(
      "Weight of the stand-in windows that hold the classes the data does not show, against "
        + "1 for the data (0: none; larger keeps those classes, at some recall of the shown "
        + "ones).", valueName: "w"))
  var rehearsalWeight = ModelAdapter.Settings().rehearsalWeight

  @Option(help: ArgumentHelp("Fewest windows of each class the data shows.", valueName: "n"))
  var minWindows = ModelAdapter.Settings().minimumWindowsPerClass

  @Option(name: [.short, .long], help: ArgumentHelp("Model file to write.", valueName: "file"))
  var output: String

  func validate() throws {
    try data.requireData()
    if data.channels != nil {
      throw ValidationError(
        "'--channels' cannot be used: adapting reads the channels the model was trained on.")
    }
    guard penalty.isFinite, penalty > 0 else {
      throw ValidationError("'--penalty' must be a number above 0, e.g. 0.01; got \(penalty).")
    }
    guard rehearsalWeight.isFinite, rehearsalWeight >= 0 else {
      throw ValidationError(
        "'--rehearsal-weight' must be a number of at least 0, e.g. 0.3; got \(rehearsalWeight).")
    }
    guard minWindows >= 1 else {
      throw ValidationError("'--min-windows' must be at least 1, got \(minWindows).")
    }
  }

  func run() throws {
    // Outputs first: a bad path fails before the work, and no input is ever overwritten.
    let file = try OutputFile(
      path: output, flag: "--output", inputs: [modelFile.path] + data.inputFiles())
    let model = try ModelFile.read(path: modelFile.path)
    var source = try data.source()
    source.options.modelRecipes = model.featureSpec.recipes
    let loaded = try ProgressLine.reading { progress in try source.load(progress: progress) }
    let clock = ContinuousClock()
    let started = clock.now
    let windows = try AdaptationWindows(dataset: loaded.result.dataset, model: model)
    var settings = ModelAdapter.Settings()
    settings.penalty = penalty
    settings.minimumWindowsPerClass = minWindows
    settings.rehearsalWeight = rehearsalWeight
    let adapted = try ModelAdapter.adapt(model, to: windows, settings: settings)
    let seconds = (clock.now - started) / .seconds(1)
    try file.write([UInt8](ModelFile.encode(adapted)))
    try file.commit()
    let counts = windows.countsByLabel.sorted { $0.key < $1.key }
      .map { "\(Excerpt.printable($0.key)) \($0.value)" }.joined(separator: ", ")
    let standIns = adapted.metadata.adaptation?.settings["standInWindows"] ?? "0"
    try StandardOutput.printSummary(
      "adapted \(Excerpt.printable(modelFile.path)) on \(windows.count) windows (\(counts)) and "
        + "\(standIns) stand-ins for the classes they do not show in "
        + String(format: "%.2f", seconds) + " s; classes kept: "
        + "\(model.classes.count); wrote \(Excerpt.printable(output))",
      besideOutput: output)
  }
}
