// The shared training loops: mini-batch Adam with early stopping, and full-batch L-BFGS.
// N = training rows, F = features, K = classes, P = parameters.

import Foundation
import MotusData
import MotusLinearAlgebra
import MotusModels

enum NetworkFitting {
  /// Mini-batch Adam. Rows are shuffled each epoch with `SplitMix64(seed)`. With a validation
  /// part, training stops after `patience` epochs without the validation loss improving by more
  /// than `tolerance`, and the parameters of the best epoch are returned. Without one, the same
  /// rule is applied to the training loss (scikit-learn's `n_iter_no_change`) and the parameters
  /// of the last epoch are returned, as scikit-learn does (a refit runs a fixed epoch count).
  static func adam(
    network initial: FeedForwardNetwork, x: Matrix, labels: [Int], sampleWeights: [Float],
    validation: (x: Matrix, labels: [Int])?, settings: SharedHyperparameters,
    generator: inout SplitMix64,
    progress: ((EpochReport) -> Void)?
  ) -> FeedForwardNetwork {
    let start = Date()
    var network = initial
    var optimizer = Adam(
      parameterCount: network.parameters.count, learningRate: settings.learningRate)
    var order = Array(0..<x.rowCount)
    var best = network
    var bestScore = Double.infinity
    var epochsWithoutImprovement = 0
    var batch = MiniBatch(columnCount: x.columnCount)
    for epoch in 1...settings.maxEpochs {
      generator.shuffle(&order)
      let epochLoss = adamEpoch(
        &network, &optimizer, order: order, x: x, labels: labels, sampleWeights: sampleWeights,
        settings: settings, batch: &batch)
      var report = EpochReport(
        epoch: epoch, maxEpochs: settings.maxEpochs, trainingLoss: epochLoss,
        elapsedSeconds: Date().timeIntervalSince(start))
      let score: Double
      if let validation {
        let (loss, accuracy) = evaluate(network, validation.x, validation.labels)
        report.validationLoss = loss
        report.validationAccuracy = accuracy
        score = loss
      } else {
        score = epochLoss
      }
      progress?(report)
      if !score.isFinite { break }
      if score < bestScore - Double(settings.tolerance) {
        epochsWithoutImprovement = 0
      } else {
        epochsWithoutImprovement += 1
      }
      if score < bestScore {
        bestScore = score
        if validation != nil { best = network }
      }
      if validation == nil { best = network }
      if epochsWithoutImprovement >= settings.patience { break }
    }
    return best
  }

  /// Reused batch buffers: copying the shuffled rows is a memcpy per row, not a new matrix
  /// per batch (on MotionSense the gather cost a third of the epoch).
  struct MiniBatch {
    var x: Matrix
    var labels: [Int] = []
    var weights: [Float] = []

    init(columnCount: Int) { x = Matrix(rowCount: 0, columnCount: columnCount) }
  }

  /// One Adam pass over the rows in `order`, `settings.batchSize` at a time; returns the
  /// epoch's mean training loss.
  static func adamEpoch(
    _ network: inout FeedForwardNetwork, _ optimizer: inout Adam, order: [Int], x: Matrix,
    labels: [Int], sampleWeights: [Float], settings: SharedHyperparameters,
    batch: inout MiniBatch
  ) -> Double {
    var epochLoss = 0.0
    var batchStart = 0
    while batchStart < order.count {
      let rows = order[batchStart..<min(order.count, batchStart + settings.batchSize)]
      batchStart += settings.batchSize
      gather(x, rows: rows, into: &batch.x)
      batch.labels.removeAll(keepingCapacity: true)
      batch.weights.removeAll(keepingCapacity: true)
      for i in rows {
        batch.labels.append(labels[i])
        batch.weights.append(sampleWeights[i])
      }
      let (loss, gradient) = network.lossAndGradient(
        x: batch.x, labels: batch.labels, sampleWeights: batch.weights,
        l2Penalty: settings.l2Penalty)
      epochLoss += loss * Double(rows.count)
      optimizer.update(&network.parameters, gradient: gradient)
    }
    return epochLoss / Double(order.count)
  }

  /// L-BFGS pairs kept. scipy (and so scikit-learn) keeps 10; on MotionSense logistic
  /// regression (P = 2304) scipy needs 363 evaluations with 10, 273 with 30, 189 with 100 and
  /// 167 with 200 to reach the same `max |g| <= 1e-6`. The two-loop recursion costs about
  /// `4 · memory · P` flops per iteration against `4 · N · P` for an evaluation: a few percent.
  static let lbfgsMemory = 100

  /// Copies rows `rows` of `x` into `out` (reallocated only when the row count changes).
  static func gather(_ x: Matrix, rows: ArraySlice<Int>, into out: inout Matrix) {
    let f = x.columnCount
    if out.rowCount != rows.count || out.columnCount != f {
      out = Matrix(rowCount: rows.count, columnCount: f)
    }
    guard f > 0 else { return }
    x.values.withUnsafeBufferPointer { source in
      out.values.withUnsafeMutableBufferPointer { destination in
        for (r, i) in rows.enumerated() {
          precondition(i >= 0 && i < x.rowCount, "row \(i) of \(x.rowCount)")
          (destination.baseAddress! + r * f).update(from: source.baseAddress! + i * f, count: f)
        }
      }
    }
  }

  /// Full-batch L-BFGS on the whole training part (convex for logistic regression).
  static func lbfgs(
    network initial: FeedForwardNetwork, x: Matrix, labels: [Int], sampleWeights: [Float],
    validation: (x: Matrix, labels: [Int])?, settings: SharedHyperparameters,
    progress: ((EpochReport) -> Void)?
  ) -> FeedForwardNetwork {
    let start = Date()
    var network = initial
    // One linear layer (logistic regression): the fused objective, one pass over X per call.
    var fused =
      initial.layerCount == 1
      ? SoftmaxRegressionObjective(
        x: x, labels: labels, sampleWeights: sampleWeights, l2Penalty: settings.l2Penalty,
        classCount: initial.widths[1]) : nil
    let result = LBFGS.minimize(
      initial: network.parameters, maxIterations: settings.maxEpochs,
      gradientTolerance: Double(settings.tolerance), memory: lbfgsMemory,
      function: { parameters in
        if fused != nil {
          var gradient = [Float](repeating: 0, count: parameters.count)
          let loss = parameters.withUnsafeBufferPointer { p in
            gradient.withUnsafeMutableBufferPointer { fused!.evaluate(p, gradient: $0) }
          }
          return (loss, gradient)
        }
        var trial = initial
        trial.parameters = parameters
        return trial.lossAndGradient(
          x: x, labels: labels, sampleWeights: sampleWeights, l2Penalty: settings.l2Penalty)
      },
      iterationDone: { iteration, loss, parameters in
        guard let progress else { return }
        var report = EpochReport(
          epoch: iteration, maxEpochs: settings.maxEpochs, trainingLoss: loss,
          elapsedSeconds: Date().timeIntervalSince(start))
        if let validation {
          var current = initial
          current.parameters = parameters
          (report.validationLoss, report.validationAccuracy) = evaluate(
            current, validation.x, validation.labels)
        }
        progress(report)
      })
    network.parameters = result.parameters
    return network
  }

  /// Unweighted mean cross-entropy and accuracy.
  static func evaluate(_ network: FeedForwardNetwork, _ x: Matrix, _ labels: [Int]) -> (
    Double, Double
  ) {
    guard x.rowCount > 0 else { return (.nan, .nan) }
    let logits = network.logits(x)
    let k = logits.columnCount
    var loss = 0.0
    var correct = 0
    for i in 0..<x.rowCount {
      let lse = LogSumExp(count: k) { logits.values[i * k + $0] }
      loss += lse.crossEntropy(labelLogit: logits.values[i * k + labels[i]])
      var arg = 0
      for c in 1..<k where logits.values[i * k + c] > logits.values[i * k + arg] { arg = c }
      if arg == labels[i] { correct += 1 }
    }
    return (loss / Double(x.rowCount), Double(correct) / Double(x.rowCount))
  }

  /// Shared input checks for `fit`.
  static func validate(
    x: Matrix, labels: [Int], classCount: Int, settings: SharedHyperparameters
  ) throws {
    guard x.rowCount == labels.count else {
      throw TrainingError.sampleCountMismatch(features: x.rowCount, labels: labels.count)
    }
    guard x.rowCount > 0 else { throw TrainingError.emptyTrainingSet }
    for (row, y) in labels.enumerated() where !(0..<classCount).contains(y) {
      throw TrainingError.labelOutOfRange(row: row, label: y, classCount: classCount)
    }
    if let j = x.values.firstIndex(where: { !$0.isFinite }) {
      throw TrainingError.nonFiniteFeature(
        row: j / max(1, x.columnCount), column: j % max(1, x.columnCount))
    }
    let present = Set(labels).count
    guard present >= 2 else { throw TrainingError.tooFewClasses(present: present) }
    func bad(_ name: String, _ value: Any, _ expected: String) -> TrainingError {
      .invalidHyperparameter(name: name, value: "\(value)", expected: expected)
    }
    guard settings.l2Penalty >= 0, settings.l2Penalty.isFinite else {
      throw bad("l2Penalty", settings.l2Penalty, ">= 0")
    }
    guard settings.maxEpochs >= 1 else { throw bad("maxEpochs", settings.maxEpochs, ">= 1") }
    guard settings.learningRate > 0, settings.learningRate.isFinite else {
      throw bad("learningRate", settings.learningRate, "> 0")
    }
    guard settings.batchSize >= 1 else { throw bad("batchSize", settings.batchSize, ">= 1") }
    guard settings.tolerance >= 0 else { throw bad("tolerance", settings.tolerance, ">= 0") }
    guard settings.patience >= 1 else { throw bad("patience", settings.patience, ">= 1") }
  }

  /// Each row's loss weight: its class's weight, times its own weight when `rowWeights` is
  /// given (`nil` leaves the class weights untouched, so unweighted fits round as before).
  static func sampleWeights(
    _ weighting: ClassWeighting, labels: [Int], classCount: Int, rowWeights: [Float]? = nil
  ) throws -> [Float] {
    let perClass = try weighting.classWeights(labels: labels, classCount: classCount)
    guard let rowWeights else { return labels.map { perClass[$0] } }
    guard rowWeights.count == labels.count else {
      throw TrainingError.sampleWeightCount(given: rowWeights.count, rows: labels.count)
    }
    if let row = rowWeights.firstIndex(where: { !($0 >= 0) || !$0.isFinite }) {
      throw TrainingError.invalidSampleWeight(row: row, value: rowWeights[row])
    }
    return zip(labels, rowWeights).map { perClass[$0] * $1 }
  }
}
