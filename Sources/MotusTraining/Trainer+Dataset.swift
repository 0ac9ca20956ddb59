// From a loaded dataset to a trained model: windows -> features -> labels that have windows ->
// groups for the validation split -> Trainer.train. The CLI, the demo and the tests share it.

import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusModels

extension Trainer {
  /// What whole units the validation part holds out.
  public enum ValidationGroup: String, Codable, Sendable, CaseIterable {
    case subject, session
    /// Whole sources of a manifest (subjects named `source:subject`), so that calibration and
    /// the confidence cut-offs are set on predictions for sources the fit never saw; a subject
    /// without a source prefix is its own group, and data of one source is split by subject.
    case source

    /// The group of a window of `subject` in `session`.
    public func group(subject: String, session: String) -> String {
      switch self {
      case .subject: subject
      case .session: session
      case .source: Manifest.source(ofSubject: subject) ?? subject
      }
    }
  }

  /// Each row's validation group; by source only where the rows come from two or more sources
  /// (one source cannot hold itself out), else by subject.
  public static func validationGroups(
    table: WindowTable, rows: [Int], by choice: ValidationGroup
  ) -> [String] {
    let groups = rows.map {
      choice.group(subject: table.subject(at: $0), session: table.session(at: $0))
    }
    guard choice == .source, Set(groups).count < 2 else { return groups }
    return validationGroups(table: table, rows: rows, by: .subject)
  }

  /// Windows `dataset` (plus its perturbed copies when `options.augmentation` is set) with
  /// `spec`, extracts its features and trains.
  ///
  /// Classes are the dataset's labels that have at least one window, in dataset order.
  ///
  /// `sourceWeights` (a manifest's, `WholeLoad.sourceWeights`) gives every window the
  /// weight of the source its recording came from, perturbed copies included; sources not named
  /// weigh 1. The model's metadata records them when they change any window's weight.
  ///
  /// - Throws: `FeatureSpecError` when the spec does not fit the data or a window's feature is
  ///   not finite (naming the window), `LimitError.memory` when the copies or the table would
  ///   not fit in memory,
  ///   `TrainingError.noWindows` when no window is long or pure enough, and whatever
  ///   `train(features:...)` throws.
  public static func train(
    dataset: Dataset, spec: FeatureSpec, minimumPurity: Float = 0,
    validationGroup: ValidationGroup = .source, options: TrainingOptions = .init(),
    sourceWeights: [String: Double] = [:], progress: ((EpochReport) -> Void)? = nil
  ) throws -> (model: TrainedModel, report: TrainingReport, table: WindowTable) {
    try checkAugmentation(options)
    var parts = try WindowTable.makeWithCopies(
      dataset: dataset, extractor: FeatureExtractor(spec: spec), minimumPurity: minimumPurity,
      copies: options.augmentation?.windowCopies(seed: options.seed))
    let table = WindowTable.join(&parts)
    return try train(
      windows: consume table, negativeLabels: dataset.negativeLabels, spec: spec,
      validationGroup: validationGroup, options: options, sourceWeights: sourceWeights,
      progress: progress)
  }

  /// Refuses a negative number of copies.
  public static func checkAugmentation(_ options: TrainingOptions) throws {
    if let augmentation = options.augmentation, augmentation.copies < 0 {
      throw TrainingError.invalidHyperparameter(
        name: "augmentation copies", value: "\(augmentation.copies)", expected: ">= 0")
    }
  }

  /// Trains on windows already extracted (`WindowedLoad`, or `train(dataset:...)`'s table of
  /// the data and its perturbed copies); `negativeLabels` as `Dataset.negativeLabels`.
  ///
  /// While the fit runs, the table's features wait on disk (`RawFeatureStore`) when every
  /// window is learnt from: pass the caller's only copy (`consume`) for memory to hold one
  /// table, not two. The table comes back unchanged.
  ///
  /// - Throws: `TrainingError.noWindows` when the table has no row to learn from, and
  ///   whatever `train(features:...)` throws.
  public static func train(
    windows table: consuming WindowTable, negativeLabels: [String], spec: FeatureSpec,
    validationGroup: ValidationGroup = .source, options: TrainingOptions = .init(),
    sourceWeights: [String: Double] = [:], progress: ((EpochReport) -> Void)? = nil
  ) throws -> (model: TrainedModel, report: TrainingReport, table: WindowTable) {
    guard table.windowCount > 0 else {
      throw TrainingError.noWindows(
        skippedRecordings: table.skippedRecordingCount, droppedImpure: table.droppedImpureCount)
    }
    // Rows the classifier learns from: every window, less the negatives unless they are
    // learnt as a class of their own.
    let negative = Set(negativeLabels)
    let rows = (0..<table.windowCount).filter {
      options.negatives == .learnAsClass || !negative.contains(table.label(at: $0))
    }
    guard !rows.isEmpty else {
      throw TrainingError.noWindows(
        skippedRecordings: table.skippedRecordingCount, droppedImpure: table.droppedImpureCount)
    }
    var counts = [Int](repeating: 0, count: table.labels.count)
    for row in rows { counts[Int(table.labelIndices[row])] += 1 }
    let kept = table.labels.indices.filter { counts[$0] > 0 }
    var newIndex = [Int](repeating: -1, count: table.labels.count)
    for (k, old) in kept.enumerated() { newIndex[old] = k }
    let classNames = kept.map { table.labels[$0] }
    let labels = rows.map { newIndex[Int(table.labelIndices[$0])] }
    let groups = validationGroups(table: table, rows: rows, by: validationGroup)
    let effective = balancedSourceWeights(
      table: table, rows: rows, sourceWeights: sourceWeights, balance: options.sourceBalance)
    let weights = rowWeights(table: table, rows: rows, sourceWeights: effective)
    let everyRow = rows.count == table.windowCount
    var features = everyRow ? table.features : table.features.rows(rows)
    // Every row: the table's only reference moves to the fit, which sets it aside and returns it.
    if everyRow { table.features = Matrix(rowCount: 0, columnCount: features.columnCount) }
    var trained = try train(
      spilling: &features, restore: everyRow, labels: labels, groups: groups,
      classNames: classNames, spec: spec, sampleWeights: weights,
      negativeClasses: classNames.filter(negative.contains), options: options,
      progress: progress)
    if everyRow { table.features = features }
    if weights != nil {
      trained.model.metadata.settings.sourceWeights = effective
    }
    if options.sourceBalance != .none {
      trained.model.metadata.settings.sourceBalance = options.sourceBalance
    }
    return (trained.model, trained.report, table)
  }

  /// The weight of each source's windows: the manifest's (`sourceWeights`, default 1) times
  /// `balance`'s factor, scaled so that the mean window of `rows` weighs what it weighed
  /// before balancing. Sources are the `source:` prefixes of the recordings' subjects; without
  /// prefixes there is one source and nothing changes.
  public static func balancedSourceWeights(
    table: WindowTable, rows: [Int], sourceWeights: [String: Double], balance: SourceBalance
  ) -> [String: Double] {
    guard balance != .none else { return sourceWeights }
    var counts: [String: Int] = [:]
    let sourceOfRecording = table.recordingSubjects.map { Manifest.source(ofSubject: $0) }
    for row in rows {
      guard let source = sourceOfRecording[table.recordingIndices[row]] else { continue }
      counts[source, default: 0] += 1
    }
    guard counts.count >= 2 else { return sourceWeights }
    var before = 0.0
    var after = 0.0
    var factors: [String: Double] = [:]
    for (source, count) in counts {
      let manifest = sourceWeights[source] ?? 1
      let factor = 1 / Double(count).squareRoot()
      factors[source] = factor
      before += manifest * Double(count)
      after += manifest * factor * Double(count)
    }
    var weights = sourceWeights
    for (source, factor) in factors {
      weights[source] = (sourceWeights[source] ?? 1) * factor * before / after
    }
    return weights
  }

  /// The weight of each of `rows` of `table`: its recording's source's (the `source:` prefix of
  /// the subject, as a manifest names subjects; copies keep their subject). `nil` when every
  /// row weighs 1, so that an unweighted manifest trains exactly as before, bit for bit.
  public static func rowWeights(
    table: WindowTable, rows: [Int], sourceWeights: [String: Double]
  ) -> [Float]? {
    guard sourceWeights.values.contains(where: { $0 != 1 }) else { return nil }
    let perRecording = table.recordingSubjects.map { subject in
      Float(sourceWeights[Manifest.source(ofSubject: subject) ?? subject] ?? 1)
    }
    let weights = rows.map { perRecording[table.recordingIndices[$0]] }
    return weights.contains(where: { $0 != 1 }) ? weights : nil
  }
}
