// Training hyperparameter flags, shared by `motus train` and `motus cross-validate`.

import ArgumentParser
import Foundation
import Motus

struct TrainingFlags: ParsableArguments {
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

    var trainerGroup: Trainer.ValidationGroup { self == .subject ? .subject : .session }
  }

  @Option(help: "The model family to fit.")
  var model: ModelChoice = .logistic

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "MLP hidden layer sizes: one or two comma-separated widths.", valueName: "n[,n]"))
  var hidden: String = "64"

  @Option(help: "Logistic regression solver (the MLP always uses Adam).")
  var solver: SolverChoice = .lbfgs

  @Option(
    parsing: .unconditional, help: "Seed for the validation split, initialisation and shuffling.")
  var seed: UInt64 = 0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Maximum epochs (Adam) or iterations (L-BFGS).",
      discussion: "Default: 1000 for L-BFGS, 200 for Adam."))
  var epochs: Int?

  @Option(parsing: .unconditional, help: "Adam step size.")
  var learningRate: Float = 1e-3

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "L2 penalty (scikit-learn's alpha; logistic C = 1/alpha).",
      discussion: "Default: 1 for logistic (scikit-learn's C = 1), 30 for mlp.",
      valueName: "alpha"))
  var l2: Float?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Stopping tolerance: L-BFGS max |gradient|; Adam minimum validation-loss improvement.",
      discussion: "Default: 1e-6 for L-BFGS, 1e-4 for Adam.", valueName: "tol"))
  var tolerance: Float?

  @Option(parsing: .unconditional, help: "Adam mini-batch size in windows.")
  var batchSize: Int = 200

  @Option(help: "Class weights in the loss: balanced (n / (k * count)) or none.")
  var classWeights: ClassWeightChoice = .balanced

  @Option(help: "Hold out whole subjects or whole sessions for validation.")
  var validationGroup: GroupChoice = .subject

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Share of windows held out for validation, in (0, 1).", valueName: "fraction"))
  var validationFraction: Double = 0.2

  @Option(
    parsing: .unconditional, help: "Epochs without validation improvement before stopping (Adam).")
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

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Report 'unknown' when the calibrated top probability is below this, in [0, 1).",
      discussion: "Stored in the model; 0 (the default) always names a class.",
      valueName: "p"))
  var unknownThreshold: Float = 0

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Perturbed copies of each recording to train on beside the original.",
      discussion: "Each copy is the recording as another device and placement might give it "
        + "(see --perturbation); copies keep their subject, so validation never sees a twin "
        + "of a training window. 0 (the default) trains on the data as it is.",
      valueName: "copies"))
  var augment = 0

  @Option(
    help: ArgumentHelp(
      "How augmented copies differ: rotation=DEGREES,gain=SPREAD,noise=STD[,sway=DEGREES].",
      discussion: "One random device per copy of a recording: every x/y/z vector rotated "
        + "(180 = any orientation), scaled by 1 +- gain, plus white noise of a standard "
        + "deviation up to STD (channel units, g for acceleration), plus a slow tilt wobble "
        + "of up to sway degrees RMS (0.05-0.5 Hz, a body-worn phone); magnitudes are "
        + "recomputed.",
      valueName: "spec"))
  var perturbation = "rotation=180,gain=0.1,noise=0.005"

  /// Bounds on sizes that cost time and memory in proportion, with the reason in the message.
  static let maximumAugment = 32
  static let maximumHiddenWidth = 4096
  static let maximumEpochs = 100_000
  static let maximumBatchSize = 1 << 20

  func validate() throws {
    guard (0...Self.maximumAugment).contains(augment) else {
      throw ValidationError(
        "'--augment' must be in 0...\(Self.maximumAugment) (each copy adds the whole training "
          + "set again, in time and memory), got \(augment). Example: --augment 2")
    }
    do {
      _ = try DevicePerturbation(parsing: perturbation)
    } catch let error as DevicePerturbation.ParseError {
      throw ValidationError("'--perturbation': \(error)")
    }
    let sizes = try hiddenLayerSizes()
    guard (1...2).contains(sizes.count) else {
      throw ValidationError(
        "'--hidden' takes one or two widths, got \(sizes.count). Example: --hidden 64,32")
    }
    if let epochs, !(1...Self.maximumEpochs).contains(epochs) {
      throw ValidationError(
        "'--epochs' must be in 1...\(Self.maximumEpochs) (early stopping ends far sooner), "
          + "got \(epochs).")
    }
    guard learningRate > 0 && learningRate.isFinite else {
      throw ValidationError("'--learning-rate' must be > 0, got \(learningRate).")
    }
    if let l2, !(l2 >= 0 && l2.isFinite) {
      throw ValidationError("'--l2' must be >= 0, got \(l2).")
    }
    guard (1...Self.maximumBatchSize).contains(batchSize) else {
      throw ValidationError(
        "'--batch-size' must be in 1...\(Self.maximumBatchSize) windows, got \(batchSize).")
    }
    if let tolerance, !(tolerance >= 0 && tolerance.isFinite) {
      throw ValidationError("'--tolerance' must be >= 0, got \(tolerance).")
    }
    guard (1...Self.maximumEpochs).contains(patience) else {
      throw ValidationError(
        "'--patience' must be in 1...\(Self.maximumEpochs) epochs, got \(patience).")
    }
    guard unknownThreshold >= 0 && unknownThreshold < 1 else {
      throw ValidationError("'--unknown-threshold' must be in [0, 1), got \(unknownThreshold).")
    }
    guard validationFraction > 0 && validationFraction < 1 else {
      throw ValidationError("'--validation-fraction' must be in (0, 1), got \(validationFraction).")
    }
  }

  func hiddenLayerSizes() throws -> [Int] {
    try DataOptions.list(hidden).map { item in
      guard let n = Int(item), n >= 1 else {
        throw ValidationError(
          "'--hidden' item '\(Excerpt.text(item))' is not a positive width. "
            + "Example: --hidden 64,32")
      }
      guard n <= Self.maximumHiddenWidth else {
        throw ValidationError(
          "'--hidden' width \(n) is above \(Self.maximumHiddenWidth): time and memory grow with "
            + "the width, and activity features need far fewer units. Example: --hidden 64,32")
      }
      return n
    }
  }

  /// The library options these flags describe.
  func trainingOptions() throws -> TrainingOptions {
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
    options.unknownThreshold = unknownThreshold
    if augment > 0 {
      options.augmentation = Augmentation(
        copies: augment, perturbation: try DevicePerturbation(parsing: perturbation))
    }
    return options
  }
}
