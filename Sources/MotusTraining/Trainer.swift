// The training pipeline on a feature table X [N, F] (raw features in FeatureSpec order), N labels
// in 0..<K and N group names: group split -> standardise (training rows) -> fit -> temperature
// scaling and confidence cut-offs on validation -> metrics -> TrainedModel.

import MotusData
import MotusFeatures
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
    features: Matrix, labels: [Int], groups: [String], classNames: [String], spec: FeatureSpec,
    sampleWeights: [Float]? = nil, negativeClasses: [String] = [],
    options: TrainingOptions = .init(),
    progress: ((EpochReport) -> Void)? = nil
  ) throws -> (model: TrainedModel, report: TrainingReport) {
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

    // Weights, gradients and Adam's two moments, plus standardised copies of the table.
    let widths =
      [features.columnCount] + (options.model == .mlp ? options.hiddenLayerSizes : [])
      + [classNames.count]
    let parameters = zip(widths, widths.dropFirst()).reduce(0.0) {
      $0 + Double($1.0 + 1) * Double($1.1)
    }
    try Limits.checkMemory(
      parameters * 16 + Double(features.values.count) * 8,
      for: "fitting \(Int(parameters)) parameters to \(features.rowCount) windows",
      hint: "use narrower --hidden layers, fewer features or fewer windows.")

    let split = try GroupSplit.split(
      groups: groups, labels: labels, validationFraction: options.validationFraction,
      seed: options.seed)
    let rawTraining = features.rows(split.training)
    let rawValidation = features.rows(split.validation)
    let trainingLabels = split.training.map { labels[$0] }
    let trainingWeights = sampleWeights.map { w in split.training.map { w[$0] } }
    // Validation stays unweighted, as with class weights: the weights shape the fit, while
    // early stopping and calibration measure the held-out groups as they were recorded.
    let validationLabels = split.validation.map { labels[$0] }
    var standardizer = Standardizer.fit(rawTraining)
    let xTrain = standardizer.transform(rawTraining)
    let xValidation = standardizer.transform(rawValidation)
    let validation = (x: xValidation, labels: validationLabels)

    var epochs: [EpochReport] = []
    let record: (EpochReport) -> Void = { report in
      epochs.append(report)
      progress?(report)
    }
    let l2Penalty = options.l2Penalty ?? TrainingOptions.defaultL2Penalty(options.model)
    let usesLBFGS = options.model == .logistic && options.solver == .lbfgs
    let tolerance = options.tolerance ?? (usesLBFGS ? 1e-6 : 1e-4)
    let maxEpochs = options.maxEpochs ?? (usesLBFGS ? 1000 : 200)
    var hyperparameters: [String: String] = [
      "model": options.model.rawValue, "l2Penalty": "\(l2Penalty)",
      "maxEpochs": "\(maxEpochs)", "tolerance": "\(tolerance)",
      "classWeighting": describe(options.classWeighting),
      "validationFraction": "\(options.validationFraction)",
      "refit": "\(options.refit)", "calibrate": "\(options.calibrate)",
    ]
    if options.model == .logistic { hyperparameters["solver"] = options.solver.rawValue }
    if !negativeClasses.isEmpty {
      hyperparameters["negatives"] = options.negatives.rawValue
      hyperparameters["negativeRate"] = "\(options.negativeRate)"
    }
    if options.noveltyComponents > 0 {
      hyperparameters["noveltyComponents"] = "\(options.noveltyComponents)"
      hyperparameters["noveltyRate"] = "\(options.noveltyRate)"
    }
    if let augmentation = options.augmentation, augmentation.copies > 0 {
      hyperparameters["augmentation"] =
        "copies=\(augmentation.copies),\(augmentation.perturbation)"
    }
    if options.model == .mlp || options.solver == .adam {
      hyperparameters["learningRate"] = "\(options.learningRate)"
      hyperparameters["batchSize"] = "\(options.batchSize)"
      hyperparameters["patience"] = "\(options.patience)"
    }
    if options.model == .mlp {
      hyperparameters["hiddenLayerSizes"] = options.hiddenLayerSizes.map(String.init).joined(
        separator: ",")
    }
    let fit = FitRecipe(
      options: options, l2Penalty: l2Penalty, tolerance: tolerance, classNames: classNames)

    let clock = ContinuousClock()
    let fitStart = clock.now
    let fitCPUStart = ThreadCPUTime.seconds()
    // L-BFGS does not stop early: a validation pass per iteration (a third of its cost) would
    // only feed progress reports.
    var classifier = try fit.run(
      xTrain, labels: trainingLabels, sampleWeights: trainingWeights,
      validation: usesLBFGS ? nil : validation,
      maxEpochs: maxEpochs,
      earlyStopping: true, progress: record)
    var fitTime = clock.now - fitStart
    var fitCPUSeconds = ThreadCPUTime.seconds() - fitCPUStart
    // Calibration on the held-out groups.
    let network = classifier.network
    let logits = network.logits(xValidation)
    let calibrationStart = clock.now
    let temperature =
      options.calibrate ? TemperatureScaling.fit(logits: logits, labels: validationLabels) : 1
    let before = Softmax.rows(logits)
    let after = Softmax.rows(logits, temperature: temperature)
    let cutoffs = ConfidenceCutoffs.fit(
      probabilities: after, labels: validationLabels,
      mediumAccuracy: options.mediumConfidenceAccuracy, highAccuracy: options.highConfidenceAccuracy
    )
    let confusion = ConfusionMatrix(
      truth: validationLabels, predicted: Metrics.argmax(after), classCount: classNames.count)
    // Novelty: the principal subspace of the training rows; the threshold lets through all
    // but `noveltyRate` of the held-out people's windows.
    let negativeIndices = Set(negativeClasses.compactMap { classNames.firstIndex(of: $0) })
    func realRows(_ x: Matrix, _ y: [Int]) -> Matrix {
      negativeIndices.isEmpty ? x : x.rows(y.indices.filter { !negativeIndices.contains(y[$0]) })
    }
    var negativeThreshold: Float = 0.5
    if !negativeIndices.isEmpty {
      let real = validationLabels.indices.filter { !negativeIndices.contains(validationLabels[$0]) }
      let claimed = real.map { i in negativeIndices.reduce(Float(0)) { $0 + after[i, $1] } }
      let quantile = NoveltyDetector.quantile(claimed, 1 - options.negativeRate)
      // Above every real window's claim when none reached it; never 0 (that would answer
      // unknown for everything).
      negativeThreshold = min(1, max(quantile.nextUp, Float.leastNormalMagnitude))
    }
    var novelty: NoveltyDetector? = nil
    if options.noveltyComponents > 0 {
      var detector = try NoveltyDetector.fit(
        realRows(xTrain, trainingLabels), componentCount: options.noveltyComponents)
      detector.threshold = NoveltyDetector.quantile(
        detector.scores(realRows(xValidation, validationLabels)), 1 - options.noveltyRate)
      novelty = detector
    }
    let calibrationTime = clock.now - calibrationStart

    // The final model: every row, the held-out fit's stopping point and temperature.
    var refitEpochs: Int? = nil
    if options.refit {
      let refitStart = clock.now
      let refitCPUStart = ThreadCPUTime.seconds()
      let heldOutStandardizer = standardizer
      standardizer = Standardizer.fit(features)
      let xAll = standardizer.transform(features)
      // L-BFGS: start from the held-out optimum, carried over to the new standardisation.
      var initial: LogisticRegression? = nil
      if usesLBFGS, case .logistic(let heldOut) = classifier {
        initial = restandardized(heldOut, from: heldOutStandardizer, to: standardizer)
      }
      // Adam: the best validation epoch (what early stopping returned); L-BFGS: to tolerance.
      let epochCount = usesLBFGS ? maxEpochs : bestEpoch(epochs) ?? maxEpochs
      var done = 0
      classifier = try fit.run(
        xAll, labels: labels, sampleWeights: sampleWeights, validation: nil,
        maxEpochs: epochCount, earlyStopping: usesLBFGS,
        initial: initial,
        progress: { report in
          done = report.epoch
          progress?(report)
        })
      refitEpochs = done
      hyperparameters["refitEpochs"] = "\(done)"
      // The same subspace rule on every row; scores are per feature, so the threshold carries.
      if let threshold = novelty?.threshold {
        novelty = try NoveltyDetector.fit(
          realRows(xAll, labels), componentCount: options.noveltyComponents,
          threshold: threshold)
      }
      fitTime += clock.now - refitStart
      fitCPUSeconds += ThreadCPUTime.seconds() - refitCPUStart
    }
    let digest = FNV1a64.digest(
      features: features, labels: labels, groups: groups, classNames: classNames)
    let report = TrainingReport(
      trainingRowCount: split.training.count, validationRowCount: split.validation.count,
      validationGroups: split.validationGroups, epochs: epochs, temperature: temperature,
      validationLogLossBefore: Metrics.logLoss(probabilities: before, labels: validationLabels),
      validationLogLossAfter: Metrics.logLoss(probabilities: after, labels: validationLabels),
      eceBefore: Metrics.expectedCalibrationError(probabilities: before, labels: validationLabels),
      eceAfter: Metrics.expectedCalibrationError(probabilities: after, labels: validationLabels),
      confusion: confusion, dataDigest: digest, refitEpochs: refitEpochs,
      fitSeconds: seconds(fitTime), fitCPUSeconds: fitCPUSeconds,
      calibrationSeconds: seconds(calibrationTime))
    let metadata = TrainingMetadata(
      dataDigest: digest, seed: options.seed, hyperparameters: hyperparameters,
      validationMetrics: [
        "accuracy": report.accuracy, "macroF1": report.macroF1,
        "balancedAccuracy": report.balancedAccuracy,
        "logLossBefore": report.validationLogLossBefore,
        "logLossAfter": report.validationLogLossAfter,
        "eceBefore": report.eceBefore, "eceAfter": report.eceAfter,
      ],
      trainingRowCount: split.training.count, validationRowCount: split.validation.count,
      validationGroups: split.validationGroups, motusVersion: MotusVersion.string)
    let model = TrainedModel(
      featureSpec: spec, standardizer: standardizer, classifier: classifier,
      temperature: temperature, confidenceCutoffs: cutoffs,
      unknownThreshold: options.unknownThreshold, negativeClasses: negativeClasses,
      negativeThreshold: negativeThreshold, novelty: novelty, metadata: metadata)
    return (model, report)
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

  private static func seconds(_ duration: Duration) -> Double {
    let (s, attoseconds) = duration.components
    return Double(s) + Double(attoseconds) * 1e-18
  }

  private static func describe(_ weighting: ClassWeighting) -> String {
    switch weighting {
    case .none: return "none"
    case .balanced: return "balanced"
    case .given(let weights): return weights.map { "\($0)" }.joined(separator: ",")
    }
  }
}
