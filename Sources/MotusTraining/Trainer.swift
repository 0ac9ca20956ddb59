// The training pipeline on a feature table X [N, F] (raw features in FeatureSpec order), N labels
// in 0..<K and N group names: validate -> group split and standardise (training rows) -> fit on
// the training part -> calibrate on the validation part (temperature, confidence cut-offs,
// negative and novelty thresholds) -> refit on every row -> TrainedModel and TrainingReport.

import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels

/// Turns a labelled feature table into a calibrated `TrainedModel`.
public enum Trainer {
  /// Trains a model; the same inputs and options give a byte-identical model file.
  ///
  /// - Parameters:
  ///   - features: `[N, F]` raw feature rows.
  ///   - labels: `N` indices into `classNames`.
  ///   - groups: `N` subject or session names; validation holds out whole groups.
  ///   - classNames: `K >= 2` names, the model's classes in order.
  ///   - spec: The features' description, stored in the model; names exactly `F` features.
  ///   - sampleWeights: `N` per-row loss weights (finite, `>= 0`), multiplied with the class
  ///     weights; `nil` weighs every row 1.
  ///   - negativeClasses: Classes among `classNames` that are none of the real classes (the
  ///     model answers unknown for them); they are left out of the novelty detector's fit.
  ///   - options: Model family, hyperparameters, split and calibration targets.
  ///   - progress: Called per epoch (from the calling thread).
  /// - Returns: The calibrated model and what was measured on the validation part.
  /// - Throws: `TrainingError` for inconsistent inputs or options; `LimitError.memory` when
  ///   the fit would not fit in memory.
  public static func train(
    features: consuming Matrix, labels: [Int], groups: [String], classNames: [String],
    spec: FeatureSpec, sampleWeights: [Float]? = nil, negativeClasses: [String] = [],
    options: TrainingOptions = .init(),
    progress: ((EpochReport) -> Void)? = nil
  ) throws -> (model: TrainedModel, report: TrainingReport) {
    try train(
      spilling: &features, restore: false, labels: labels, groups: groups,
      classNames: classNames, spec: spec, sampleWeights: sampleWeights,
      negativeClasses: negativeClasses, options: options, progress: progress)
  }

  /// `train(features:...)`, with the raw table set aside on disk while the fit holds its
  /// standardised copy (`RawFeatureStore`): `features` is emptied, so that memory holds one
  /// table when the caller kept no other reference, and read back at the end when `restore`.
  static func train(
    spilling features: inout Matrix, restore: Bool, labels: [Int], groups: [String],
    classNames: [String], spec: FeatureSpec, sampleWeights: [Float]?, negativeClasses: [String],
    options: TrainingOptions, progress: ((EpochReport) -> Void)?
  ) throws -> (model: TrainedModel, report: TrainingReport) {
    try validate(
      features: features, labels: labels, groups: groups, classNames: classNames, spec: spec,
      sampleWeights: sampleWeights, options: options)
    try checkFitMemory(features: features, classCount: classNames.count, options: options)
    let digest = FNV1a64.digest(
      features: features, labels: labels, groups: groups, classNames: classNames)
    let raw = RawFeatureStore(taking: &features)
    FreedMemory.release()
    // Calibration and the unknown thresholds are set on held-out windows; without them (no
    // calibration asked) the fit may use every row, rather than validate on none.
    let needsValidation =
      options.calibrate || options.noveltyComponents > 0 || !negativeClasses.isEmpty
    var split = try splitAndStandardize(
      raw, labels: labels, groups: groups, sampleWeights: sampleWeights, options: options,
      needsValidation: needsValidation)
    // One seed for the run: the split's, augmentation's and the estimator's.
    var estimator = options.model
    estimator.shared.seed = options.seed
    let heldOut = try fitHeldOut(
      split, model: estimator, classes: classNames, progress: progress)
    let negatives = Set(negativeClasses.compactMap { classNames.firstIndex(of: $0) })
    let calibration = try calibrate(
      heldOut.classifier, on: split, classCount: classNames.count, negatives: negatives,
      options: options)
    // The refit standardises every row afresh: the parts' rows are not needed any more.
    split.releaseRows()
    FreedMemory.release()
    // Without a validation part the held-out fit has seen every row already.
    let refit =
      try options.refit && !split.partition.validation.isEmpty
      ? refitOnEveryRow(
        raw, labels: labels, classes: classNames, sampleWeights: sampleWeights, model: estimator,
        noveltyComponents: options.noveltyComponents, heldOut: heldOut, split: split,
        calibration: calibration, negatives: negatives,
        progress: progress)
      : nil
    let report = makeReport(
      split: split, heldOut: heldOut, calibration: calibration, refit: refit, dataDigest: digest)
    var settings = recordedSettings(
      estimator, options: options, hasNegatives: !negativeClasses.isEmpty)
    settings.refit = refit != nil
    settings.refitEpochs = refit?.epochs
    var model = makeModel(
      spec: spec, negativeClasses: negativeClasses, options: options,
      settings: settings, split: split, heldOut: heldOut,
      calibration: calibration, refit: refit, report: report)
    model.classStatistics = try ClassStatistics.measure(model: model, features: raw, labels: labels)
    if restore { features = try raw.all() }
    return (model, report)
  }

  // MARK: Validate

  /// Throws the first inconsistency between the table, its labels, groups, weights and spec, or
  /// among the calibration options, so that no later step meets one halfway through a fit.
  private static func validate(
    features: Matrix, labels: [Int], groups: [String], classNames: [String], spec: FeatureSpec,
    sampleWeights: [Float]?, options: TrainingOptions
  ) throws {
    guard features.rowCount == labels.count else {
      throw TrainingError.sampleCountMismatch(features: features.rowCount, labels: labels.count)
    }
    guard groups.count == features.rowCount else {
      throw TrainingError.groupCountMismatch(rows: features.rowCount, groups: groups.count)
    }
    guard features.rowCount > 0 else { throw TrainingError.emptyTrainingSet }
    if let sampleWeights, sampleWeights.count != features.rowCount {
      throw TrainingError.sampleWeightCount(given: sampleWeights.count, rows: features.rowCount)
    }
    guard spec.featureNames.count == features.columnCount else {
      throw TrainingError.featureCountMismatch(
        spec: spec.featureNames.count, table: features.columnCount)
    }
    for (row, y) in labels.enumerated() where !(0..<classNames.count).contains(y) {
      throw TrainingError.labelOutOfRange(row: row, label: y, classCount: classNames.count)
    }
    if let j = features.values.firstIndex(where: { !$0.isFinite }) {
      throw TrainingError.nonFiniteFeature(
        row: j / features.columnCount, column: j % features.columnCount)
    }
    guard options.unknownThreshold >= 0 && options.unknownThreshold <= 1 else {
      throw TrainingError.invalidHyperparameter(
        name: "unknownThreshold", value: "\(options.unknownThreshold)", expected: "in [0, 1]")
    }
    guard 0 < options.mediumConfidenceAccuracy,
      options.mediumConfidenceAccuracy <= options.highConfidenceAccuracy,
      options.highConfidenceAccuracy <= 1
    else {
      throw TrainingError.invalidHyperparameter(
        name: "confidenceAccuracy",
        value: "\(options.mediumConfidenceAccuracy), \(options.highConfidenceAccuracy)",
        expected: "0 < medium <= high <= 1")
    }
    guard options.noveltyComponents <= 0 || features.columnCount >= 2 else {
      throw TrainingError.invalidHyperparameter(
        name: "noveltyComponents", value: "\(options.noveltyComponents)",
        expected: "0 with fewer than 2 features")
    }
    // More directions than the features less one would be cut back silently by the fit.
    guard options.noveltyComponents < features.columnCount else {
      throw TrainingError.invalidHyperparameter(
        name: "noveltyComponents", value: "\(options.noveltyComponents)",
        expected: "at most \(features.columnCount - 1) (the features less one)")
    }
  }

  /// Throws `LimitError.memory` when the weights, gradients and Adam's two moments, plus the
  /// standardised copy of the table and the raw one (counted although it is usually set aside
  /// on disk), would not fit: refusing up front beats swapping or trapping mid-fit.
  private static func checkFitMemory(
    features: Matrix, classCount: Int, options: TrainingOptions
  ) throws {
    let widths = [features.columnCount] + options.model.hiddenLayerSizes + [classCount]
    let parameters = zip(widths, widths.dropFirst()).reduce(0.0) {
      $0 + Double($1.0 + 1) * Double($1.1)
    }
    try Limits.checkMemory(
      parameters * 16 + Double(features.values.count) * 8,
      for: "fitting \(Int(parameters)) parameters to \(features.rowCount) windows",
      hint: "use narrower --hidden layers, fewer features or fewer windows.")
  }

  // MARK: Split

  /// The table split by whole groups, both parts standardised with the training part's
  /// statistics, so that validation measures people the fit (and its scaling) never saw.
  struct HeldOutSplit {
    var partition: GroupSplit.Result
    /// Fitted on the training rows only.
    var standardizer: Standardizer
    var training: (x: Matrix, labels: [Int], sampleWeights: [Float]?)
    var validation: (x: Matrix, labels: [Int])

    /// Drops both parts' standardised rows (labels, weights and the split stay).
    mutating func releaseRows() {
      training.x = Matrix(rowCount: 0, columnCount: training.x.columnCount)
      validation.x = Matrix(rowCount: 0, columnCount: validation.x.columnCount)
    }
  }

  /// Splits the rows by group (`options.validationFraction`, `options.seed`) and standardises
  /// both parts; returns them with the split and the standardiser.
  ///
  /// - Throws: `TrainingError.noValidationWindows` when `needsValidation` and no group can be
  ///   held out (each class is in one group only); without `needsValidation`, a single group
  ///   or such classes leave every row to training.
  private static func splitAndStandardize(
    _ raw: RawFeatureStore, labels: [Int], groups: [String], sampleWeights: [Float]?,
    options: TrainingOptions, needsValidation: Bool
  ) throws -> HeldOutSplit {
    let distinctGroups = Set(groups).count
    let split =
      !needsValidation && distinctGroups < 2
      ? GroupSplit.Result(training: Array(groups.indices), validation: [], validationGroups: [])
      : try GroupSplit.split(
        groups: groups, labels: labels, validationFraction: options.validationFraction,
        seed: options.seed)
    if needsValidation && split.validation.isEmpty {
      throw TrainingError.noValidationWindows(groupCount: distinctGroups)
    }
    // Each part is standardised where it lies: the table is not copied twice.
    var xTrain = try raw.rows(split.training)
    var xValidation = try raw.rows(split.validation)
    let trainingLabels = split.training.map { labels[$0] }
    let trainingWeights = sampleWeights.map { w in split.training.map { w[$0] } }
    // Validation stays unweighted, as with class weights: the weights shape the fit, while
    // early stopping and calibration measure the held-out groups as they were recorded.
    let validationLabels = split.validation.map { labels[$0] }
    let standardizer = Standardizer.fit(xTrain)
    standardizer.transform(inPlace: &xTrain)
    standardizer.transform(inPlace: &xValidation)
    return HeldOutSplit(
      partition: split, standardizer: standardizer,
      training: (xTrain, trainingLabels, trainingWeights),
      validation: (xValidation, validationLabels))
  }

  // MARK: Fit on the training part

  /// The classifier fitted on the training part, with its per-epoch reports (the refit takes
  /// its epoch count from them) and the time the fit took.
  struct HeldOutFit {
    var classifier: ModelClassifier
    var epochs: [EpochReport]
    var time: Duration
    var cpuSeconds: Double
  }

  /// Fits `model` on the training part, stopping early on the validation part (Adam), and
  /// forwards each epoch's report to `progress`.
  private static func fitHeldOut(
    _ split: HeldOutSplit, model: ModelChoice, classes: [String],
    progress: ((EpochReport) -> Void)?
  ) throws -> HeldOutFit {
    var epochs: [EpochReport] = []
    let clock = ContinuousClock()
    let start = clock.now
    let cpuStart = ThreadCPUTime.seconds()
    // L-BFGS does not stop early: a validation pass per iteration (a third of its cost) would
    // only feed progress reports.
    let classifier = try model.fit(
      split.training.x, labels: split.training.labels, classes: classes,
      sampleWeights: split.training.sampleWeights,
      validation: model.usesLBFGS ? nil : split.validation,
      maxEpochs: model.shared.maxEpochs,
      earlyStopping: true,
      progress: { report in
        epochs.append(report)
        progress?(report)
      })
    let time = clock.now - start
    let cpuSeconds = ThreadCPUTime.seconds() - cpuStart
    return HeldOutFit(classifier: classifier, epochs: epochs, time: time, cpuSeconds: cpuSeconds)
  }

  // MARK: Calibrate

  /// What the validation part sets besides the weights: the model file stores the temperature,
  /// cut-offs and thresholds, the report the probabilities' quality before and after.
  struct Calibration {
    var temperature: Float
    /// Validation probabilities at temperature 1 and at `temperature`.
    var before: Matrix
    var after: Matrix
    var cutoffs: ConfidenceCutoffs
    var confusion: ConfusionMatrix
    var negativeThreshold: Float
    /// Fitted on the training part; `nil` when `options.noveltyComponents` is 0.
    var novelty: NoveltyDetector?
    var time: Duration
  }

  /// Calibrates `classifier` on the held-out groups: temperature (when `options.calibrate`),
  /// confidence cut-offs for the accuracy targets, the negative classes' threshold and the
  /// novelty detector's.
  private static func calibrate(
    _ classifier: ModelClassifier, on split: HeldOutSplit, classCount: Int,
    negatives: Set<Int>, options: TrainingOptions
  ) throws -> Calibration {
    let labels = split.validation.labels
    let logits = classifier.network.logits(split.validation.x)
    let clock = ContinuousClock()
    let start = clock.now
    let temperature =
      options.calibrate ? TemperatureScaling.fit(logits: logits, labels: labels) : 1
    let before = Softmax.rows(logits)
    let after = Softmax.rows(logits, temperature: temperature)
    let cutoffs = ConfidenceCutoffs.fit(
      probabilities: after, labels: labels,
      mediumAccuracy: options.mediumConfidenceAccuracy, highAccuracy: options.highConfidenceAccuracy
    )
    let confusion = ConfusionMatrix(
      truth: labels, predicted: Metrics.argmax(after), classCount: classCount)
    let negativeThreshold =
      negatives.isEmpty
      ? 0.5
      : negativeClassThreshold(
        probabilities: after, labels: labels, negatives: negatives, rate: options.negativeRate)
    let novelty =
      try options.noveltyComponents > 0
      ? heldOutNoveltyDetector(split, negatives: negatives, options: options) : nil
    return Calibration(
      temperature: temperature, before: before, after: after, cutoffs: cutoffs,
      confusion: confusion, negativeThreshold: negativeThreshold, novelty: novelty,
      time: clock.now - start)
  }

  /// The share of probability the negative classes may claim before the model answers unknown:
  /// all but `rate` of the real validation windows stay below it.
  private static func negativeClassThreshold(
    probabilities: Matrix, labels: [Int], negatives: Set<Int>, rate: Double
  ) -> Float {
    let real = labels.indices.filter { !negatives.contains(labels[$0]) }
    let claimed = real.map { i in negatives.reduce(Float(0)) { $0 + probabilities[i, $1] } }
    let quantile = NoveltyDetector.quantile(claimed, 1 - rate)
    // Above every real window's claim when none reached it; never 0 (that would answer
    // unknown for everything).
    return min(1, max(quantile.nextUp, Float.leastNormalMagnitude))
  }

  /// Novelty: the principal subspace of the real training rows; the threshold lets through all
  /// but `options.noveltyRate` of the held-out people's real windows.
  private static func heldOutNoveltyDetector(
    _ split: HeldOutSplit, negatives: Set<Int>, options: TrainingOptions
  ) throws -> NoveltyDetector {
    var detector = try NoveltyDetector.fit(
      realRows(split.training.x, labels: split.training.labels, negatives: negatives),
      componentCount: options.noveltyComponents)
    detector.threshold = NoveltyDetector.quantile(
      detector.scores(
        realRows(split.validation.x, labels: split.validation.labels, negatives: negatives)),
      1 - options.noveltyRate)
    return detector
  }

  /// The rows of `x` whose label is none of `negatives` (all of `x` when there are none).
  private static func realRows(_ x: Matrix, labels: [Int], negatives: Set<Int>) -> Matrix {
    negatives.isEmpty ? x : x.rows(labels.indices.filter { !negatives.contains(labels[$0]) })
  }

  // MARK: Refit on every row

  /// The final model's parts when it is refitted on every row: no data is left for
  /// validation, so it keeps the held-out fit's stopping point, temperature and thresholds.
  struct Refit {
    var classifier: ModelClassifier
    /// Fitted on every row.
    var standardizer: Standardizer
    var novelty: NoveltyDetector?
    /// Epochs (Adam) or iterations (L-BFGS) the refit ran.
    var epochs: Int
    var time: Duration
    var cpuSeconds: Double
  }

  /// Re-standardises every row and fits `model` on them: Adam for the held-out fit's best
  /// epoch count, L-BFGS to tolerance from the held-out optimum. Refits the novelty subspace
  /// too, keeping the calibrated threshold.
  private static func refitOnEveryRow(
    _ raw: RawFeatureStore, labels: [Int], classes: [String], sampleWeights: [Float]?,
    model: ModelChoice, noveltyComponents: Int, heldOut: HeldOutFit, split: HeldOutSplit,
    calibration: Calibration, negatives: Set<Int>,
    progress: ((EpochReport) -> Void)?
  ) throws -> Refit {
    let clock = ContinuousClock()
    let start = clock.now
    let cpuStart = ThreadCPUTime.seconds()
    var xAll = try raw.all()
    let standardizer = Standardizer.fit(xAll)
    standardizer.transform(inPlace: &xAll)
    // L-BFGS: start from the held-out optimum, carried over to the new standardisation.
    var initial: LogisticRegression? = nil
    if model.usesLBFGS, case .logistic(let heldOutModel) = heldOut.classifier {
      initial = restandardized(heldOutModel, from: split.standardizer, to: standardizer)
    }
    // Adam: the best validation epoch (what early stopping returned); L-BFGS: to tolerance.
    let maxEpochs = model.shared.maxEpochs
    let epochCount = model.usesLBFGS ? maxEpochs : bestEpoch(heldOut.epochs) ?? maxEpochs
    var done = 0
    let classifier = try model.fit(
      xAll, labels: labels, classes: classes, sampleWeights: sampleWeights, validation: nil,
      maxEpochs: epochCount, earlyStopping: model.usesLBFGS,
      initial: initial,
      progress: { report in
        done = report.epoch
        progress?(report)
      })
    // The same subspace rule on every row; scores are per feature, so the threshold carries.
    var novelty: NoveltyDetector? = nil
    if let threshold = calibration.novelty?.threshold {
      novelty = try NoveltyDetector.fit(
        realRows(xAll, labels: labels, negatives: negatives),
        componentCount: noveltyComponents, threshold: threshold)
    }
    let time = clock.now - start
    let cpuSeconds = ThreadCPUTime.seconds() - cpuStart
    return Refit(
      classifier: classifier, standardizer: standardizer, novelty: novelty, epochs: done,
      time: time, cpuSeconds: cpuSeconds)
  }

  /// The epoch with the lowest validation loss (first on ties), as `NetworkFitting.adam` keeps.
  static func bestEpoch(_ epochs: [EpochReport]) -> Int? {
    var bestEpoch: Int? = nil
    var bestLoss = Double.infinity
    for report in epochs {
      guard let loss = report.validationLoss, loss < bestLoss else { continue }
      (bestEpoch, bestLoss) = (report.epoch, loss)
    }
    return bestEpoch
  }

  // MARK: Assemble model and report

  /// What the validation part measured, with the fit's and calibration's times (the refit's
  /// added to the fit's).
  private static func makeReport(
    split: HeldOutSplit, heldOut: HeldOutFit, calibration: Calibration, refit: Refit?,
    dataDigest: String
  ) -> TrainingReport {
    var fitTime = heldOut.time
    var fitCPUSeconds = heldOut.cpuSeconds
    if let refit {
      fitTime += refit.time
      fitCPUSeconds += refit.cpuSeconds
    }
    let labels = split.validation.labels
    let (before, after) = (calibration.before, calibration.after)
    return TrainingReport(
      trainingRowCount: split.partition.training.count,
      validationRowCount: split.partition.validation.count,
      validationGroups: split.partition.validationGroups, epochs: heldOut.epochs,
      temperature: calibration.temperature,
      validationLogLossBefore: Metrics.logLoss(probabilities: before, labels: labels),
      validationLogLossAfter: Metrics.logLoss(probabilities: after, labels: labels),
      eceBefore: Metrics.expectedCalibrationError(probabilities: before, labels: labels),
      eceAfter: Metrics.expectedCalibrationError(probabilities: after, labels: labels),
      confusion: calibration.confusion, dataDigest: dataDigest, refitEpochs: refit?.epochs,
      fitSeconds: seconds(fitTime), fitCPUSeconds: fitCPUSeconds,
      calibrationSeconds: seconds(calibration.time))
  }

  /// The model file's contents: the refit's classifier, standardiser and novelty subspace
  /// when there is one (else the held-out fit's), the calibration, and the metadata that
  /// records how it was trained and what validation measured.
  private static func makeModel(
    spec: FeatureSpec, negativeClasses: [String], options: TrainingOptions,
    settings: TrainingSettings, split: HeldOutSplit, heldOut: HeldOutFit,
    calibration: Calibration, refit: Refit?, report: TrainingReport
  ) -> TrainedModel {
    // No validation part, no figures (never NaN).
    let metadata = TrainingMetadata(
      dataDigest: report.dataDigest, seed: options.seed, settingsText: settings.text,
      validationMetrics: report.validationRowCount == 0
        ? [:]
        : [
          "accuracy": report.accuracy, "macroF1": report.macroF1,
          "balancedAccuracy": report.balancedAccuracy,
          "logLossBefore": report.validationLogLossBefore,
          "logLossAfter": report.validationLogLossAfter,
          "eceBefore": report.eceBefore, "eceAfter": report.eceAfter,
        ],
      trainingRowCount: split.partition.training.count,
      validationRowCount: split.partition.validation.count,
      validationGroups: split.partition.validationGroups, motusVersion: MotusVersion.string)
    let (standardizer, classifier, novelty) =
      refit.map { ($0.standardizer, $0.classifier, $0.novelty) }
      ?? (split.standardizer, heldOut.classifier, calibration.novelty)
    return TrainedModel(
      featureSpec: spec, standardizer: standardizer, classifier: classifier,
      temperature: calibration.temperature, confidenceCutoffs: calibration.cutoffs,
      unknownThreshold: options.unknownThreshold, negativeClasses: negativeClasses,
      negativeThreshold: calibration.negativeThreshold,
      novelty: novelty, metadata: metadata)
  }

  /// The settings a model file records: every hyperparameter of `model` (defaults included;
  /// Adam's for Adam only, as `SharedHyperparameters.recorded` says), and the options of the
  /// parts that ran only (negatives, novelty, augmentation, MLP).
  private static func recordedSettings(
    _ model: ModelChoice, options: TrainingOptions, hasNegatives: Bool
  ) -> TrainingSettings {
    var settings = TrainingSettings()
    settings.model = model.family
    settings.record(model.shared, fittedBy: model)
    settings.validationFraction = options.validationFraction
    settings.refit = options.refit
    settings.calibrate = options.calibrate
    settings.solver = model.solver
    if hasNegatives {
      settings.negatives = options.negatives
      settings.negativeRate = options.negativeRate
    }
    if options.noveltyComponents > 0 {
      settings.noveltyComponents = options.noveltyComponents
      settings.noveltyRate = options.noveltyRate
    }
    if let augmentation = options.augmentation, augmentation.copies > 0 {
      settings.augmentation = augmentation
    }
    if case .mlp(let mlp) = model { settings.hiddenLayerSizes = mlp.hiddenLayerSizes }
    return settings
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (s, attoseconds) = duration.components
    return Double(s) + Double(attoseconds) * 1e-18
  }
}
