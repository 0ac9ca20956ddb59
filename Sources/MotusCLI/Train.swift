// `motus train`: labelled CSV data -> windows -> features -> fitted, calibrated model file.

import ArgumentParser
import Foundation
import Motus

struct Train: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Fit a classifier to labelled data and write a model file.",
    discussion: """
      Windows the recordings, computes features, holds out whole subjects (or sessions) for \
      validation, fits the model, calibrates it on the held-out part and writes it atomically. \
      The same data, flags and seed give a byte-identical file. Example:
        motus train ../shared/datasets/motionsense/motionsense.csv \\
          -o motionsense.motus --model mlp --hidden 64,32 --seed 1
      """)

  enum ModelChoice: String, ExpressibleByArgument, CaseIterable {
    case logistic, mlp
  }

  enum SolverChoice: String, ExpressibleByArgument, CaseIterable {
    case lbfgs, adam
  }

  enum ClassWeightChoice: String, ExpressibleByArgument, CaseIterable {
    case balanced, none
  }

  enum GroupChoice: String, ExpressibleByArgument, CaseIterable {
    case subject, session
  }

  @OptionGroup var data: DataOptions
  @OptionGroup var windows: WindowOptions

  @Option(name: [.short, .long], help: ArgumentHelp("Model file to write.", valueName: "file"))
  var output: String

  @Option(help: "The model family to fit.")
  var model: ModelChoice = .logistic

  @Option(
    help: ArgumentHelp(
      "MLP hidden layer sizes: one or two comma-separated widths.", valueName: "n[,n]"))
  var hidden: String = "64"

  @Option(help: "Logistic regression solver (the MLP always uses Adam).")
  var solver: SolverChoice = .lbfgs

  @Option(help: "Seed for the validation split, initialisation and shuffling.")
  var seed: UInt64 = 0

  @Option(
    help: ArgumentHelp(
      "Maximum epochs (Adam) or iterations (L-BFGS).",
      discussion: "Default: 1000 for L-BFGS, 200 for Adam."))
  var epochs: Int?

  @Option(help: "Adam step size.")
  var learningRate: Float = 1e-3

  @Option(
    help: ArgumentHelp(
      "L2 penalty (scikit-learn's alpha; logistic C = 1/alpha).",
      discussion: "Default: 1 for logistic (scikit-learn's C = 1), 30 for mlp.",
      valueName: "alpha"))
  var l2: Float?

  @Option(
    help: ArgumentHelp(
      "Stopping tolerance: L-BFGS max |gradient|; Adam minimum validation-loss improvement.",
      discussion: "Default: 1e-6 for L-BFGS, 1e-4 for Adam.", valueName: "tol"))
  var tolerance: Float?

  @Option(help: "Adam mini-batch size in windows.")
  var batchSize: Int = 200

  @Option(help: "Class weights in the loss: balanced (n / (k * count)) or none.")
  var classWeights: ClassWeightChoice = .balanced

  @Option(help: "Hold out whole subjects or whole sessions for validation.")
  var validationGroup: GroupChoice = .subject

  @Option(
    help: ArgumentHelp(
      "Share of windows held out for validation, in (0, 1).", valueName: "fraction"))
  var validationFraction: Double = 0.2

  @Option(help: "Epochs without validation improvement before stopping (Adam).")
  var patience: Int = 20

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "Fit the final model again on every training row (validation groups included).",
      discussion: "The held-out fit chooses the epoch count (Adam) and the temperature; the "
        + "summary's validation figures are those of the held-out fit."))
  var refit = true

  @Flag(
    inversion: .prefixedNo,
    help: "Temperature scaling on the validation part (--no-calibration keeps temperature 1).")
  var calibration = true

  func validate() throws {
    // Fail before minutes of training, not after.
    let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory),
      isDirectory.boolValue
    else {
      throw ValidationError("'--output': folder \(folder) does not exist.")
    }
    let sizes = try hiddenLayerSizes()
    guard (1...2).contains(sizes.count) else {
      throw ValidationError(
        "'--hidden' takes one or two widths, got \(sizes.count). Example: --hidden 64,32")
    }
    if let epochs, epochs < 1 {
      throw ValidationError("'--epochs' must be >= 1, got \(epochs).")
    }
    guard learningRate > 0 && learningRate.isFinite else {
      throw ValidationError("'--learning-rate' must be > 0, got \(learningRate).")
    }
    if let l2, !(l2 >= 0 && l2.isFinite) {
      throw ValidationError("'--l2' must be >= 0, got \(l2).")
    }
    guard batchSize >= 1 else {
      throw ValidationError("'--batch-size' must be >= 1, got \(batchSize).")
    }
    if let tolerance, !(tolerance >= 0 && tolerance.isFinite) {
      throw ValidationError("'--tolerance' must be >= 0, got \(tolerance).")
    }
    guard patience >= 1 else {
      throw ValidationError("'--patience' must be >= 1, got \(patience).")
    }
    guard validationFraction > 0 && validationFraction < 1 else {
      throw ValidationError("'--validation-fraction' must be in (0, 1), got \(validationFraction).")
    }
  }

  func hiddenLayerSizes() throws -> [Int] {
    try DataOptions.list(hidden).map { item in
      guard let n = Int(item), n >= 1 else {
        throw ValidationError(
          "'--hidden' item '\(item)' is not a positive width. Example: --hidden 64,32")
      }
      return n
    }
  }

  func run() throws {
    let clock = ContinuousClock()
    let started = clock.now
    let reading = ProgressLine()
    let result: LoadResult
    do {
      result = try data.load { done, total in reading.update(done: done, total: total) }
    } catch let error as CSVError {
      reading.clear()
      throw ToolError(error.description)
    }
    reading.clear()
    let spec = try windows.featureSpec(for: result)

    var options = TrainingOptions()
    options.model = model == .mlp ? .mlp : .logistic
    options.hiddenLayerSizes = try hiddenLayerSizes()
    options.solver = solver == .adam ? .adam : .lbfgs
    options.seed = seed
    options.maxEpochs = epochs
    options.learningRate = learningRate
    options.l2Penalty = l2
    options.batchSize = batchSize
    options.classWeighting = classWeights == .balanced ? .balanced : .none
    options.validationFraction = validationFraction
    options.patience = patience
    options.tolerance = tolerance
    options.refit = refit
    options.calibrate = calibration

    let progress = EpochProgress()
    let trained: (model: TrainedModel, report: TrainingReport, table: WindowTable)
    do {
      trained = try Trainer.train(
        dataset: result.dataset, spec: spec, minimumPurity: windows.minPurity,
        validationGroup: validationGroup == .subject ? .subject : .session, options: options,
        progress: progress.update)
    } catch let error as TrainingError {
      progress.clear()
      throw ToolError(error.description)
    } catch let error as FeatureSpecError {
      progress.clear()
      throw ToolError(error.description)
    }
    progress.clear()
    let trainedAt = clock.now
    do {
      try ModelFile.write(trained.model, to: URL(fileURLWithPath: output))
    } catch let error as ModelFileError {
      throw ToolError(error.description)
    }
    print(
      Self.summary(
        trained.report, classNames: trained.model.classes, windowCount: trained.table.windowCount,
        output: output))
    let fit = trained.report.fitSeconds
    let calibration = trained.report.calibrationSeconds
    let total = Self.seconds(clock.now - started)
    let other = Self.seconds(trainedAt - started) - fit - calibration
    print(
      String(
        format: "timing: fit %.3f s (thread CPU %.3f s), calibration %.3f s, loading + features "
          + "+ other %.3f s, total %.3f s", fit, trained.report.fitCPUSeconds, calibration, other,
        total))
  }

  static func seconds(_ duration: Duration) -> Double {
    let (s, attoseconds) = duration.components
    return Double(s) + Double(attoseconds) * 1e-18
  }

  static func summary(
    _ report: TrainingReport, classNames: [String], windowCount: Int, output: String
  )
    -> String
  {
    func f(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }
    let groups = report.validationGroups
    let heldOut =
      groups.prefix(6).joined(separator: ", ")
      + (groups.count > 6 ? " and \(groups.count - 6) more" : "")
    var lines = [
      "\(windowCount) windows: \(report.trainingRowCount) training, \(report.validationRowCount) "
        + "validation (held out: \(heldOut))",
      "\(report.epochs.count) epochs in \(f(report.epochs.last?.elapsedSeconds ?? 0, 1)) s; "
        + "validation accuracy \(f(report.accuracy)), macro-F1 "
        + "\(f(report.macroF1)), balanced accuracy \(f(report.balancedAccuracy))",
      "calibration: temperature \(f(Double(report.temperature))), log loss "
        + "\(f(report.validationLogLossBefore)) -> \(f(report.validationLogLossAfter)), ECE "
        + "\(f(report.eceBefore)) -> \(f(report.eceAfter))",
    ]
    if let refitEpochs = report.refitEpochs {
      lines.append(
        "final model refit on all \(report.trainingRowCount + report.validationRowCount) "
          + "windows for \(refitEpochs) epochs")
    }
    let perClass = classNames.indices.map { c in
      "\(classNames[c]) \(f(report.confusion.f1(c), 2)) (n=\(report.confusion.support(c)))"
    }
    lines.append("F1 by class: " + perClass.joined(separator: ", "))
    lines.append("model -> \(output)")
    return lines.joined(separator: "\n")
  }
}

/// One updating line per epoch on stderr, only when stderr is a terminal.
final class EpochProgress: @unchecked Sendable {
  private let enabled = isatty(2) != 0  // 2 = standard error
  private var shown = false

  func update(_ report: EpochReport) {
    guard enabled else { return }
    var text =
      "\repoch \(report.epoch)/\(report.maxEpochs)  loss "
      + String(format: "%.4f", report.trainingLoss)
    if let accuracy = report.validationAccuracy {
      text += String(format: "  val acc %.3f", accuracy)
    }
    // An upper bound: early stopping may end sooner.
    let left =
      report.elapsedSeconds / Double(report.epoch) * Double(report.maxEpochs - report.epoch)
    text += String(format: "  <= %.0fs left   ", left)
    FileHandle.standardError.write(Data(text.utf8))
    shown = true
  }

  func clear() {
    guard shown else { return }
    FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: 72) + "\r").utf8))
    shown = false
  }
}
