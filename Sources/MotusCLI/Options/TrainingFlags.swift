// Training flags, shared by `motus train`, `motus cross-validate` and the benchmarks that train.
// Every flag is optional: an absent flag keeps the library's value (the estimator's
// `Hyperparameters` for its settings, `TrainingOptions()` for the rest), so the library holds the
// one set of defaults and the help text prints them from there.

import ArgumentParser
import Foundation
import Motus

extension ModelFamily: ExpressibleByArgument {}
extension LogisticRegression.Solver: ExpressibleByArgument {}
extension NegativeUse: ExpressibleByArgument {}
extension SourceBalance: ExpressibleByArgument {}

struct TrainingFlags: ParsableArguments {
  /// `balanced`, `none`, `sqrt-balanced` or `balanced^P`: the weighting by the name a model
  /// file records it under.
  struct ClassWeightChoice: ExpressibleByArgument {
    var weighting: ClassWeighting

    init?(argument: String) {
      guard let weighting = ClassWeighting.read(argument) else { return nil }
      switch weighting {
      case .none, .balanced: break
      case .balancedPower(let power) where ClassWeighting.isValidPower(power): break
      case .balancedPower, .given: return nil
      }
      self.weighting = weighting
    }

    static var defaultCompletionKind: CompletionKind {
      .list(["balanced", "none", "sqrt-balanced", "balanced^0.75"])
    }
  }

  enum GroupChoice: String, ExpressibleByArgument, CaseIterable {
    case subject, session, source

    var trainerGroup: Trainer.ValidationGroup {
      switch self {
      case .subject: .subject
      case .session: .session
      case .source: .source
      }
    }
  }

  // Computed, not stored: a stored static read from these property initialisers crashed in
  // swift_once when `motus train` parsed its flags (Swift 6.3, Linux).
  private static var defaults: TrainingOptions { TrainingOptions() }
  private static var logistic: LogisticRegression.Hyperparameters { .init() }
  private static var mlp: MLPClassifier.Hyperparameters { .init() }

  @Option(help: "The model family to fit (default: \(defaults.model.family.rawValue)).")
  var model: ModelFamily?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "MLP hidden layer sizes: one or two comma-separated widths (default: "
        + "\(mlp.hiddenLayerSizes.map(String.init).joined(separator: ","))).",
      valueName: "n[,n]"))
  var hidden: String?

  @Option(
    help: ArgumentHelp(
      "Logistic regression solver (the MLP always uses Adam; default: "
        + "\(logistic.solver.rawValue))."))
  var solver: LogisticRegression.Solver?

  @Option(
    parsing: .unconditional,
    help: "Seed for the validation split, initialisation, shuffling and augmentation.",
    transform: TrainingFlags.seed(_:))
  var seed: UInt64 = defaults.seed

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Maximum epochs (Adam) or iterations (L-BFGS).",
      discussion: "Default: \(LogisticRegression.Solver.lbfgs.defaultMaxEpochs) for L-BFGS, "
        + "\(LogisticRegression.Solver.adam.defaultMaxEpochs) for Adam."))
  var epochs: Int?

  @Option(
    parsing: .unconditional, help: "Adam step size (default: \(mlp.learningRate)).")
  var learningRate: Float?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "L2 penalty (scikit-learn's alpha; logistic C = 1/alpha).",
      discussion: "Default: \(logistic.l2Penalty) for logistic, \(mlp.l2Penalty) for mlp.",
      valueName: "alpha"))
  var l2: Float?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Stopping tolerance: L-BFGS max |gradient|; Adam minimum validation-loss improvement.",
      discussion: "Default: \(LogisticRegression.Solver.lbfgs.defaultTolerance) for both "
        + "(--tolerance 1e-6 reaches scikit-learn's L-BFGS optimum).", valueName: "tol"))
  var tolerance: Float?

  @Option(
    parsing: .unconditional,
    help: "Adam mini-batch size in windows (default: \(mlp.batchSize)).")
  var batchSize: Int?

  @Option(
    help: ArgumentHelp(
      "Class weights in the loss: balanced (n / (k * count)), balanced^P (those raised to a "
        + "power P in (0, 1]), sqrt-balanced (balanced^0.5) or none (default: "
        + "\(ClassWeighting.write(logistic.classWeighting)))."))
  var classWeights: ClassWeightChoice?

  @Option(
    help: ArgumentHelp(
      "How a manifest's sources weigh against each other, on top of their 'weight': "
        + "inverse-sqrt (a source of n windows weighs 1/sqrt(n) a window) or none (default: "
        + "\(defaults.sourceBalance.rawValue)).",
      discussion: "Data without a manifest has one source and is not affected."))
  var sourceBalance: SourceBalance?

  @Option(
    help: ArgumentHelp(
      "Hold out whole subjects, sessions or sources for validation.",
      discussion:
        "'source' (the default: a manifest's sources; data of one source is split by subject) "
        + "sets calibration and the confidence levels on predictions for sources the fit "
        + "never saw."))
  var validationGroup: GroupChoice = .source

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Share of windows held out for validation, in (0, 1) (default: "
        + "\(defaults.validationFraction)).", valueName: "fraction"))
  var validationFraction: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Epochs without validation improvement before stopping (Adam; default: "
        + "\(mlp.patience))."))
  var patience: Int?

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "Fit the final model again on every training row (validation groups included).",
      discussion: "The held-out fit chooses the epoch count (Adam) and the temperature; the "
        + "summary's validation figures are those of the held-out fit."))
  var refit = defaults.refit

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "Temperature scaling on the validation part (--no-calibration keeps temperature 1).",
      discussion: "--no-calibration also lets training use every window when no subject or "
        + "session can be held out (one recording per activity); it then gives no validation "
        + "figures."))
  var calibration = defaults.calibrate

  @OptionGroup var unknown: UnknownBelowOption<TrainingFlags>
  var unknownThreshold: Float? { unknown.unknownBelow }

  @Option(
    help: ArgumentHelp(
      "What to do with windows of negative labels (a manifest's negativeLabels): ignore, or "
        + "learn them as a class the model answers 'unknown' for.",
      discussion: "Default: \(defaults.negatives.rawValue)."))
  var negatives: NegativeUse?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "With --negatives class: share of held-out people's class windows the negative class may "
        + "claim, in (0, 1).",
      discussion: "It sets the probability of the negative class at which the model answers "
        + "'unknown' (default: \(defaults.negativeRate)).", valueName: "fraction"))
  var negativeRate: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Principal directions of the novelty detector, which answers 'unknown' for windows far "
        + "from the training data; 0 for none, at most the number of features less one.",
      discussion: "Default: \(defaults.noveltyComponents).", valueName: "k"))
  var noveltyComponents: Int?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Share of held-out people's windows the novelty detector may call far, in (0, 1).",
      discussion: "It sets the detector's threshold (default: \(defaults.noveltyRate)).",
      valueName: "fraction"))
  var noveltyRate: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Perturbed copies of each recording to train on beside the original.",
      discussion: "Each copy is the recording as another device and placement might give it "
        + "(see --perturbation); copies keep their subject, so validation never sees a twin "
        + "of a training window. Default: \(defaults.augmentation?.copies ?? 0).",
      valueName: "copies"))
  var augment: Int?

  @Option(
    help: ArgumentHelp(
      "How augmented copies differ: rotation=DEG,gain=S,noise=STD[,sway=DEG,intensity=S,tempo=S].",
      discussion: "One random device per copy of a recording: every x/y/z vector rotated "
        + "(180 = any orientation), scaled by 1 +- gain, plus white noise of a standard "
        + "deviation up to STD (channel units, g for acceleration), plus a slow tilt wobble "
        + "of up to sway degrees RMS (0.05-0.5 Hz, a body-worn phone); intensity scales the "
        + "motion about gravity by 1 +- S (another placement or build moves more or less), "
        + "tempo plays the recording 1 +- S times as fast (other cadences); magnitudes are "
        + "recomputed. Default: \(Augmentation.defaultPerturbation).",
      valueName: "spec"))
  var perturbation: String?

  /// Bounds on sizes that cost time and memory in proportion, with the reason in the message.
  static let maximumHiddenWidth = 4096
  static let maximumEpochs = 100_000
  static let maximumBatchSize = 1 << 20

  func validate() throws {
    if let augment, !(0...Augmentation.maxCopies).contains(augment) {
      throw ValidationError(
        "'--augment' must be in 0...\(Augmentation.maxCopies) (each copy adds the whole "
          + "training set again, in time and memory), got \(augment). Example: --augment 2")
    }
    if let perturbation {
      do {
        _ = try DevicePerturbation(parsing: perturbation)
      } catch let error as DevicePerturbation.ParseError {
        throw ValidationError("'--perturbation': \(error)")
      }
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
    if let learningRate, !(learningRate > 0 && learningRate.isFinite) {
      throw ValidationError("'--learning-rate' must be > 0, got \(learningRate).")
    }
    if let l2, !(l2 >= 0 && l2.isFinite) {
      throw ValidationError("'--l2' must be >= 0, got \(l2).")
    }
    if let batchSize, !(1...Self.maximumBatchSize).contains(batchSize) {
      throw ValidationError(
        "'--batch-size' must be in 1...\(Self.maximumBatchSize) windows, got \(batchSize).")
    }
    if let tolerance, !(tolerance >= 0 && tolerance.isFinite) {
      throw ValidationError("'--tolerance' must be >= 0, got \(tolerance).")
    }
    if let patience, !(1...Self.maximumEpochs).contains(patience) {
      throw ValidationError(
        "'--patience' must be in 1...\(Self.maximumEpochs) epochs, got \(patience).")
    }
    if let validationFraction, !(validationFraction > 0 && validationFraction < 1) {
      throw ValidationError("'--validation-fraction' must be in (0, 1), got \(validationFraction).")
    }
    if let noveltyComponents, !(0...256).contains(noveltyComponents) {
      throw ValidationError(
        "'--novelty-components' must be in 0...256, got \(noveltyComponents). Example: 16")
    }
    if let negativeRate, !(negativeRate > 0 && negativeRate < 1) {
      throw ValidationError("'--negative-rate' must be in (0, 1), got \(negativeRate).")
    }
    if let noveltyRate, !(noveltyRate > 0 && noveltyRate < 1) {
      throw ValidationError("'--novelty-rate' must be in (0, 1), got \(noveltyRate).")
    }
    try refuseFlagsThatWouldBeIgnored()
  }

  /// Flags of a part of training that does not run with the others given.
  private func refuseFlagsThatWouldBeIgnored() throws {
    let family = model ?? Self.defaults.model.family
    if hidden != nil, family != .mlp {
      throw ValidationError.appliesOnly("--hidden", with: "--model mlp")
    }
    if solver != nil, family == .mlp {
      throw ValidationError.appliesOnly("--solver", with: "--model logistic (the MLP uses Adam)")
    }
    let usesAdam = family == .mlp || (solver ?? Self.logistic.solver) == .adam
    for (flag, given) in [
      ("--learning-rate", learningRate != nil), ("--batch-size", batchSize != nil),
      ("--patience", patience != nil),
    ] where given && !usesAdam {
      throw ValidationError.appliesOnly(flag, with: "Adam (--model mlp, or --solver adam)")
    }
    if negativeRate != nil, (negatives ?? Self.defaults.negatives) != .learnAsClass {
      throw ValidationError.appliesOnly("--negative-rate", with: "--negatives class")
    }
    if noveltyRate != nil, (noveltyComponents ?? Self.defaults.noveltyComponents) <= 0 {
      throw ValidationError.appliesOnly("--novelty-rate", with: "--novelty-components K, K > 0")
    }
  }

  /// `--negatives` and `--negative-rate` act on a manifest's negative labels: without a
  /// manifest they would be ignored.
  func refuseNegativeFlags(manifest: String?) throws {
    guard manifest == nil else { return }
    let given = [("--negatives", negatives != nil), ("--negative-rate", negativeRate != nil)]
    for (flag, isGiven) in given where isGiven {
      throw ValidationError.appliesOnly(flag, with: "--manifest (its negativeLabels)")
    }
  }

  /// A warning when `--negatives` or `--negative-rate` was given for data without negative
  /// labels (only a manifest's `negativeLabels` gives them): the model learns no negative class.
  func warnIfNoNegatives(_ negativeLabels: [String]) {
    guard negatives != nil || negativeRate != nil, negativeLabels.isEmpty else { return }
    Warnings.write(
      "warning: --negatives and --negative-rate act on a manifest's negativeLabels; this data "
        + "has none, so the model learns no negative class.\n")
  }

  /// A seed as typed: a whole number from 0 to 2^64 - 1 (`-5` is refused by name, not read
  /// as a flag, since seed options parse their value unconditionally).
  static func seed(_ text: String) throws -> UInt64 {
    guard let seed = UInt64(text) else {
      throw ValidationError(
        "a seed must be a whole number from 0 to \(UInt64.max), got \(Excerpt.text(text)).")
    }
    return seed
  }

  func hiddenLayerSizes() throws -> [Int] {
    guard let hidden else { return Self.mlp.hiddenLayerSizes }
    return try DataOptions.list(hidden).map { item in
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

  /// The library options these flags describe: `TrainingOptions()` with each given flag set,
  /// on the chosen estimator's own defaults.
  func trainingOptions() throws -> TrainingOptions {
    var options = TrainingOptions()
    options.model = try modelChoice(family: model ?? options.model.family)
    options.seed = seed
    if let sourceBalance { options.sourceBalance = sourceBalance }
    if let validationFraction { options.validationFraction = validationFraction }
    options.refit = refit
    options.calibrate = calibration
    if let unknownThreshold { options.unknownThreshold = unknownThreshold }
    if let negatives { options.negatives = negatives }
    if let negativeRate { options.negativeRate = negativeRate }
    if let noveltyComponents { options.noveltyComponents = noveltyComponents }
    if let noveltyRate { options.noveltyRate = noveltyRate }
    if augment != nil || perturbation != nil {
      let copies = augment ?? options.augmentation?.copies ?? 0
      let spec =
        try perturbation.map { try DevicePerturbation(parsing: $0) }
        ?? options.augmentation?.perturbation ?? Augmentation.defaultPerturbation
      options.augmentation = copies > 0 ? Augmentation(copies: copies, perturbation: spec) : nil
    }
    return options
  }

  /// `family`'s estimator with its defaults and the given flags' values.
  private func modelChoice(family: ModelFamily) throws -> ModelChoice {
    var choice: ModelChoice
    switch family {
    case .logistic:
      choice = .logistic(solver.map(LogisticRegression.Hyperparameters.init(solver:)) ?? .init())
    case .mlp:
      var h = MLPClassifier.Hyperparameters()
      h.hiddenLayerSizes = try hiddenLayerSizes()
      choice = .mlp(h)
    }
    if let epochs { choice.shared.maxEpochs = epochs }
    if let learningRate { choice.shared.learningRate = learningRate }
    if let l2 { choice.shared.l2Penalty = l2 }
    if let batchSize { choice.shared.batchSize = batchSize }
    if let classWeights {
      choice.shared.classWeighting = classWeights.weighting
    }
    if let patience { choice.shared.patience = patience }
    if let tolerance { choice.shared.tolerance = tolerance }
    return choice
  }
}

extension TrainingFlags: UnknownBelowUse {
  // As `stream` and `evaluate` spell it; `--unknown-threshold` still works.
  static var names: NameSpecification {
    [.customLong("unknown-below"), .customLong("unknown-threshold")]
  }

  static var help: ArgumentHelp {
    ArgumentHelp(
      "Report 'unknown' when the calibrated top probability is below this, in [0, 1).",
      discussion: "Stored in the model (default: \(defaults.unknownThreshold); 0 always names a "
        + "class on confidence alone). `stream` and `evaluate --unknown-below` override it.",
      valueName: "p")
  }
}
