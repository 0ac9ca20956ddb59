// `motus bench adapt`: how many labelled minutes of a source or placement never seen buy how
// much. Each held-out group of `motus bench transfer` (a source, or a placement with its
// people in folds) gets a model trained without it; its people are split in two (the first
// half in natural order lends its minutes, the second is scored; a placement fold of one
// person borrows from the people of the placement's other folds). For each k, the model is
// adapted on k minutes per class of the first half (ModelAdapter, the code `motus adapt` and
// an app run) and, beside it, the recipe is retrained from scratch with those same windows
// added; both are scored window by window on the second half. The classes the minutes do not
// show are also scored on the training sources' own windows, before and after, to show what
// adapting costs them. Deterministic: the seed fixes training, and the minutes are the first
// windows of each class, taken in turn from each lending person.

import Foundation
import MotusAdaptation
import MotusData
import MotusFeatures
import MotusIngest
import MotusModels
import MotusTraining

/// Adaptation against retraining, on held-out sources and placements.
public enum AdaptationBenchmark {
  public struct Configuration: Sendable {
    /// Groups, recipe, validation and parallelism as `motus bench transfer` (first seed only).
    public var transfer = TransferBenchmark.Configuration()
    /// Group names to run (nil: every group `transfer` gives); a source's name runs its
    /// placements too.
    public var groups: [String]? = nil
    /// Minutes per class given to the model.
    public var minutes: [Double] = [0, 0.5, 1, 2, 5]
    public var adaptation = ModelAdapter.Settings()
    /// The adaptation's penalties to compare (each gives its own rows).
    public var penalties = [ModelAdapter.Settings().penalty]
    /// The stand-ins' weights to compare (each gives its own rows).
    public var rehearsalWeights = [ModelAdapter.Settings().rehearsalWeight]
    /// Also retrain from scratch with the same minutes (one training per group, fold and k).
    public var retrain = true

    public init() {}
  }

  /// The scores of one method at one k on one group, folds summed.
  public struct Row: Sendable, Codable {
    public var group: String
    public var method: String
    public var minutes: Double
    /// Windows per class given (summed over folds).
    public var windowsPerClass: [String: Int]
    public var held: WindowScore
    /// The training sources' windows: what happens to the classes the minutes do not show.
    public var reference: WindowScore
    /// Seconds spent adapting (or retraining), summed over folds.
    public var seconds: Double

    /// The change of `measure` of class `c` on one of the row's scores against the same at
    /// `base` (the trained model, k = 0); nil where either has none.
    public func change(
      _ measure: (WindowScore, Int) -> Double?, of c: Int,
      on score: KeyPath<Row, WindowScore>, from base: Row
    ) -> Double? {
      measure(self[keyPath: score], c).flatMap { a in measure(base[keyPath: score], c).map { a - $0 } }
    }
  }

  public struct Report: Sendable, Codable {
    public var classes: [String]
    public var penalties: [Double]
    public var rehearsalWeights: [Double]
    public var hopSeconds: Double
    public var rows: [Row]

    /// The classes `row`'s minutes do not show.
    public func unshown(in row: Row) -> [Int] {
      classes.indices.filter { row.windowsPerClass[classes[$0]] == nil }
    }
  }

  public static func run(
    data: WholeLoad, configuration: Configuration, progress: (@Sendable (String) -> Void)? = nil
  ) throws -> Report {
    var transfer = configuration.transfer
    transfer.seeds = [transfer.seeds.first ?? 1]
    let setup = try TransferBenchmark.Setup(data: data, configuration: transfer)
    // A source's name also names its placements ("wear_pushup" runs "wear_pushup left_wrist").
    let groups = setup.groups.indices.filter { g in
      let name = setup.groups[g].name
      let source = String(name.prefix { $0 != " " })
      return configuration.groups.map { $0.contains(name) || $0.contains(source) } ?? true
    }
    guard !groups.isEmpty else { throw BenchmarkError.noTransferGroups }
    let table = try TransferBenchmark.windowTables(setup)[0]
    progress?("windowed every recording and its copies")
    let jobs = groups.flatMap { g in setup.groups[g].folds.indices.map { (group: g, fold: $0) } }
    let done = ConcurrentSlots<Int>(count: 1)
    let results = try parallelMap(count: jobs.count, parallelism: transfer.parallelism) { index in
      let job = jobs[index]
      let rows = try fold(
        setup: setup, table: table, group: job.group, fold: job.fold,
        configuration: configuration)
      progress?(
        "\(setup.groups[job.group].name), fold \(job.fold + 1): \(done.increment()) of "
          + "\(jobs.count) folds done")
      return rows
    }
    var merged: [Row] = []
    var classes = setup.dataset.labels
    for (modelClasses, rows) in results {
      if !rows.isEmpty { classes = modelClasses }
      for row in rows {
        if let at = merged.firstIndex(where: {
          $0.group == row.group && $0.method == row.method && $0.minutes == row.minutes
        }) {
          merged[at].held.merge(row.held)
          merged[at].reference.merge(row.reference)
          merged[at].seconds += row.seconds
          merged[at].windowsPerClass.merge(row.windowsPerClass, uniquingKeysWith: +)
        } else {
          merged.append(row)
        }
      }
    }
    return Report(
      classes: classes, penalties: configuration.penalties,
      rehearsalWeights: configuration.rehearsalWeights,
      hopSeconds: setup.spec.hopSeconds, rows: merged)
  }

  /// One fold of one group: its base model, then each k adapted (and retrained).
  static func fold(
    setup: TransferBenchmark.Setup, table: WindowTable, group g: Int, fold f: Int,
    configuration: Configuration
  ) throws -> (classes: [String], rows: [Row]) {
    let dataset = setup.dataset
    let recordingCount = dataset.recordings.count
    let test = setup.groups[g].folds[f].test
    let trainingFlags = (0..<recordingCount).map(Set(setup.groups[g].folds[f].training).contains)
    let lenders = setup.groups[g].folds.indices.filter { $0 != f }.flatMap {
      setup.groups[g].folds[$0].test
    }
    guard
      let (lent, scored, reference) = split(
        table, test: test, lenders: lenders, isTraining: trainingFlags, dataset: dataset)
    else { return ([], []) }
    var options = setup.configuration.training
    options.seed = setup.configuration.seeds[0]
    let trainingTable = table.keepingRecordings { trainingFlags[$0 % recordingCount] }
    func train(adding extra: [Int]) throws -> TrainedModel {
      try Trainer.train(
        windows: trainingTable.appendingRows(extra, of: table),
        negativeLabels: dataset.negativeLabels, spec: setup.spec,
        validationGroup: setup.configuration.validationGroup, options: options,
        sourceWeights: setup.data.sourceWeights
      ).model
    }
    let base = try train(adding: [])
    var rows: [Row] = []
    let clock = ContinuousClock()
    func row(
      _ method: String, _ minutes: Double, _ model: TrainedModel, _ counts: [String: Int],
      _ seconds: Double
    ) -> Row {
      Row(
        group: setup.groups[g].name, method: method, minutes: minutes, windowsPerClass: counts,
        held: WindowScore(model: model, table: table, rows: scored),
        reference: WindowScore(model: model, table: table, rows: reference), seconds: seconds)
    }
    rows.append(row("trained", 0, base, [:], 0))
    for minutes in configuration.minutes {
      let chosen = firstMinutes(
        minutes, of: lent, table: table, hopSeconds: setup.spec.hopSeconds,
        minimum: configuration.adaptation.minimumWindowsPerClass)
      if chosen.isEmpty { continue }
      let windows = try AdaptationWindows(
        spec: setup.spec, features: table.features.rows(chosen),
        labels: chosen.map { table.label(at: $0) })
      let counts = windows.countsByLabel
      for (method, adapted, seconds) in try adaptations(of: base, to: windows, configuration) {
        rows.append(row(method, minutes, adapted, counts, seconds))
      }
      guard configuration.retrain else { continue }
      let started = clock.now
      let retrained = try train(adding: chosen)
      rows.append(row("retrained", minutes, retrained, counts, (clock.now - started) / .seconds(1)))
    }
    return (base.classes, rows)
  }

  /// `base` adapted to `windows` under each penalty and stand-in weight compared, with the
  /// row's method name and the seconds adapting took.
  static func adaptations(
    of base: TrainedModel, to windows: AdaptationWindows, _ configuration: Configuration
  ) throws -> [(method: String, model: TrainedModel, seconds: Double)] {
    let clock = ContinuousClock()
    var results: [(method: String, model: TrainedModel, seconds: Double)] = []
    for penalty in configuration.penalties {
      for weight in configuration.rehearsalWeights {
        var settings = configuration.adaptation
        settings.penalty = penalty
        settings.rehearsalWeight = weight
        let started = clock.now
        let adapted = try ModelAdapter.adapt(base, to: windows, settings: settings)
        results.append(
          ("adapted, penalty \(penalty), rehearsal \(weight)", adapted,
           (clock.now - started) / .seconds(1)))
      }
    }
    return results
  }

  /// The recorded windows (not the copies) of the lending half of the test people, of the
  /// scored half, and of the training recordings. A fold of one person (a placement of a
  /// source with two people) lends instead from `lenders`, the group's other folds' test
  /// recordings: the same placement, people this fold does not score, and none of it in this
  /// fold's training. Nil when there is no one to lend.
  static func split(
    _ table: WindowTable, test: [Int], lenders: [Int], isTraining: [Bool], dataset: Dataset
  ) -> (lent: [Int], scored: [Int], reference: [Int])? {
    let people = Array(Set(test.map { dataset.recordings[$0].subject })).sorted(by: naturalOrder)
    let testSet = Set(test)
    let lenderSet = Set(lenders.filter { !isTraining[$0] && !testSet.contains($0) })
    guard people.count >= 2 || !lenderSet.isEmpty else { return nil }
    // Rows of copies have recording indices beyond the recordings.
    let recorded = (0..<table.windowCount).filter { table.recordingIndices[$0] < isTraining.count }
    let reference = recorded.filter { isTraining[table.recordingIndices[$0]] }
    let held = recorded.filter { testSet.contains(table.recordingIndices[$0]) }
    guard people.count >= 2 else {
      return (recorded.filter { lenderSet.contains(table.recordingIndices[$0]) }, held, reference)
    }
    let lending = Set(people.prefix(people.count / 2))
    return (
      held.filter { lending.contains(table.subject(at: $0)) },
      held.filter { !lending.contains(table.subject(at: $0)) }, reference
    )
  }

  /// Up to `minutes` of windows per class (count × hop), taken in turn from each person's
  /// windows in table order; classes with fewer than `minimum` windows are left out.
  static func firstMinutes(
    _ minutes: Double, of rows: [Int], table: WindowTable, hopSeconds: Double, minimum: Int
  ) -> [Int] {
    let wanted = Int((minutes * 60 / hopSeconds).rounded())
    guard wanted > 0 else { return [] }
    var byClass: [Int32: [String: [Int]]] = [:]
    for row in rows { byClass[table.labelIndices[row], default: [:]][table.subject(at: row), default: []].append(row) }
    var chosen: [Int] = []
    for label in byClass.keys.sorted() {
      let people = byClass[label]!.keys.sorted(by: naturalOrder).map { byClass[label]![$0]! }
      var taken: [Int] = []
      var position = 0
      while taken.count < wanted, people.contains(where: { $0.count > position }) {
        for windows in people where taken.count < wanted && windows.count > position {
          taken.append(windows[position])
        }
        position += 1
      }
      if taken.count >= minimum { chosen += taken.sorted() }
    }
    return chosen
  }
}

extension WindowTable {
  /// This table with rows `rows` of `other` (same recordings and labels) appended.
  func appendingRows(_ rows: [Int], of other: WindowTable) -> WindowTable {
    guard !rows.isEmpty else { return self }
    var table = self
    table.features.appendRows(other.features.rows(rows))
    table.labelIndices += rows.map { other.labelIndices[$0] }
    table.purity += rows.map { other.purity[$0] }
    table.recordingIndices += rows.map { other.recordingIndices[$0] }
    table.starts += rows.map { other.starts[$0] }
    table.startTimes += rows.map { other.startTimes[$0] }
    return table
  }
}
