// From a loaded dataset to a trained model: windows -> features -> labels that have windows ->
// groups for the validation split -> Trainer.train. The CLI, the demo and the tests share it.

import MotusData
import MotusFeatures
import MotusModels

extension Trainer {
  /// What whole units the validation part holds out.
  public enum ValidationGroup: String, Codable, Sendable, CaseIterable {
    case subject, session
  }

  /// Windows `dataset` (plus its perturbed copies when `options.augmentation` is set) with
  /// `spec`, extracts its features and trains.
  ///
  /// Classes are the dataset's labels that have at least one window, in dataset order.
  ///
  /// `sourceWeights` (a manifest's, `ManifestLoadResult.sourceWeights`) gives every window the
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
    validationGroup: ValidationGroup = .subject, options: TrainingOptions = .init(),
    sourceWeights: [String: Double] = [:], progress: ((EpochReport) -> Void)? = nil
  ) throws -> (model: TrainedModel, report: TrainingReport, table: WindowTable) {
    if let augmentation = options.augmentation {
      guard augmentation.copies >= 0 else {
        throw TrainingError.invalidHyperparameter(
          name: "augmentation copies", value: "\(augmentation.copies)", expected: ">= 0")
      }
      // One copy is held beside the data at a time: refuse what would not fit rather than
      // swap or trap.
      let bytesPerSample = Double(4 * dataset.channels.count + 12)
      try Limits.checkMemory(
        Double(dataset.sampleCount) * bytesPerSample * Double(min(augmentation.copies, 1) + 1),
        for: "a perturbed copy of \(dataset.sampleCount) samples",
        hint: "use --augment 0, or less data at once.")
    }
    let table = try augmentedTable(
      dataset, spec: spec, minimumPurity: minimumPurity, augmentation: options.augmentation,
      seed: options.seed)
    guard table.windowCount > 0 else {
      throw TrainingError.noWindows(
        skippedRecordings: table.skippedRecordingCount, droppedImpure: table.droppedImpureCount)
    }
    // Rows the classifier learns from: every window, less the negatives unless they are
    // learnt as a class of their own.
    let negative = Set(dataset.negativeLabels)
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
    let groups = rows.map {
      validationGroup == .subject ? table.subject(at: $0) : table.session(at: $0)
    }
    let features = rows.count == table.windowCount ? table.features : table.features.rows(rows)
    let weights = rowWeights(table: table, rows: rows, sourceWeights: sourceWeights)
    var trained = try train(
      features: features, labels: labels, groups: groups, classNames: classNames,
      spec: spec, sampleWeights: weights, negativeClasses: classNames.filter(negative.contains),
      options: options, progress: progress)
    if weights != nil {
      trained.model.metadata.settings.sourceWeights = sourceWeights
    }
    return (trained.model, trained.report, table)
  }

  /// The windows of `dataset`, then of each perturbed copy in turn: the table of
  /// `augmentation.apply(to: dataset, seed:)`, row for row, with one copy's samples held at a
  /// time instead of all of them.
  static func augmentedTable(
    _ dataset: Dataset, spec: FeatureSpec, minimumPurity: Float, augmentation: Augmentation?,
    seed: UInt64
  ) throws -> WindowTable {
    let extractor = try FeatureExtractor(spec: spec)
    let copyCount = augmentation?.copyNumbers.count ?? 0
    let window = SlidingWindow(length: spec.windowLength, hop: spec.hopLength)
    try WindowTable.checkMemory(
      windowCount: window.count(in: dataset.recordings) * (1 + copyCount),
      featureCount: extractor.featureCount,
      hint: "use a longer --hop, fewer features or --augment copies, or less data at once.")
    var table = try WindowTable.makeConcurrently(
      dataset: dataset, extractor: extractor, minimumPurity: minimumPurity)
    guard let augmentation else { return table }
    for number in augmentation.copyNumbers {
      table.append(
        try WindowTable.makeConcurrently(
          dataset: augmentation.copy(number, of: dataset, seed: seed), extractor: extractor,
          minimumPurity: minimumPurity))
    }
    return table
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
