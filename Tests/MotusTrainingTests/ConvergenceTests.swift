// Fits on synthetic (generated) data whose answer is known.

import MotusData
import MotusLinearAlgebra
import MotusModels
import MotusTraining
import XCTest

final class ConvergenceTests: XCTestCase {
  func testLogisticLBFGS_SeparatesSyntheticBlobs() throws {
    let data = Synthetic.blobs(separation: 5, seed: 3)
    let x = Standardizer.fit(data.x).transform(data.x)
    var reports: [EpochReport] = []
    var h = LogisticRegression.Hyperparameters()
    h.l2Penalty = 1e-4
    h.maxEpochs = 200
    h.tolerance = 1e-4
    let model = try LogisticRegression.fit(
      x, labels: data.labels, classes: ["a", "b", "c"], hyperparameters: h,
      validation: (x, data.labels), progress: { reports.append($0) })
    let accuracy = ConfusionMatrix(truth: data.labels, predicted: model.predict(x), classCount: 3)
      .accuracy
    XCTAssertGreaterThan(accuracy, 0.97)
    // Each iteration reports; the last one describes the returned model.
    XCTAssertFalse(reports.isEmpty)
    XCTAssertEqual(try XCTUnwrap(reports.last?.validationAccuracy), accuracy, accuracy: 1e-12)
    let network = FeedForwardNetwork(
      widths: [4, 3], parameters: model.linear.weight.values + model.linear.bias)
    let loss = network.lossAndGradient(x: x, labels: data.labels, l2Penalty: 1e-4).loss
    XCTAssertEqual(reports.last!.trainingLoss, loss, accuracy: 1e-6)
  }

  func testLogisticLBFGS_ReachesStationaryPoint() throws {
    // At the optimum of the convex objective the full-batch gradient vanishes.
    let data = Synthetic.blobs(separation: 2, seed: 4)
    let x = Standardizer.fit(data.x).transform(data.x)
    var h = LogisticRegression.Hyperparameters()
    h.l2Penalty = 1
    h.tolerance = 1e-6
    h.maxEpochs = 500
    let model = try LogisticRegression.fit(
      x, labels: data.labels, classes: ["a", "b", "c"], hyperparameters: h)
    let network = FeedForwardNetwork(
      widths: [4, 3], parameters: model.linear.weight.values + model.linear.bias)
    let gradient = network.lossAndGradient(x: x, labels: data.labels, l2Penalty: 1).gradient
    let worst = gradient.map(abs).max()!
    print("L-BFGS final max |gradient| = \(worst)")
    XCTAssertLessThan(worst, 1e-4)
  }

  func testLBFGS_MinimisesQuadratic() {
    // f(x) = Σ (i+1)(x_i - i)², minimum at x_i = i.
    let result = LBFGS.minimize(initial: [Float](repeating: 0, count: 5), maxIterations: 100) { x in
      var f = 0.0
      var g = [Float](repeating: 0, count: 5)
      for i in 0..<5 {
        let d = Double(x[i]) - Double(i)
        f += Double(i + 1) * d * d
        g[i] = Float(2 * Double(i + 1) * d)
      }
      return (f, g)
    }
    for i in 0..<5 { XCTAssertEqual(result.parameters[i], Float(i), accuracy: 1e-4) }
    XCTAssertTrue(result.converged)
  }

  func testLogisticAdam_SeparatesSyntheticBlobs() throws {
    let data = Synthetic.blobs(separation: 5, seed: 5)
    let x = Standardizer.fit(data.x).transform(data.x)
    var h = LogisticRegression.Hyperparameters(solver: .adam)
    h.l2Penalty = 1e-4
    h.patience = 10
    h.learningRate = 0.05
    h.batchSize = 32
    h.maxEpochs = 100
    let model = try LogisticRegression.fit(
      x, labels: data.labels, classes: ["a", "b", "c"], hyperparameters: h)
    let accuracy = ConfusionMatrix(truth: data.labels, predicted: model.predict(x), classCount: 3)
      .accuracy
    XCTAssertGreaterThan(accuracy, 0.97)
  }

  func testMLP_LearnsXOR() throws {
    // XOR of the signs of two features: no linear model can exceed ~50-75 %.
    var generator = SplitMix64(seed: 9)
    var values: [Float] = []
    var labels: [Int] = []
    for _ in 0..<400 {
      let a = 2 * generator.nextUnitFloat() - 1
      let b = 2 * generator.nextUnitFloat() - 1
      values += [a, b]
      labels.append((a > 0) != (b > 0) ? 1 : 0)
    }
    let x = Matrix(rowCount: 400, columnCount: 2, values: values)
    var h = MLPClassifier.Hyperparameters()
    h.hiddenLayerSizes = [16, 8]
    h.l2Penalty = 1e-4
    h.learningRate = 0.02
    h.batchSize = 32
    h.maxEpochs = 300
    h.patience = 30
    var reports: [EpochReport] = []
    let model = try MLPClassifier.fit(
      x, labels: labels, classes: ["same", "different"], hyperparameters: h,
      progress: { reports.append($0) })
    let accuracy = ConfusionMatrix(truth: labels, predicted: model.predict(x), classCount: 2)
      .accuracy
    XCTAssertGreaterThan(accuracy, 0.95)
    XCTAssertEqual(reports.map(\.epoch), Array(1...reports.count))
    XCTAssertLessThan(reports.last!.trainingLoss, reports.first!.trainingLoss)
    let linear = try LogisticRegression.fit(x, labels: labels, classes: ["same", "different"])
    let linearAccuracy = ConfusionMatrix(truth: labels, predicted: linear.predict(x), classCount: 2)
      .accuracy
    XCTAssertLessThan(linearAccuracy, 0.8, "XOR should defeat a linear model")
  }

  func testMLP_EarlyStoppingRestoresBestValidationEpoch() throws {
    let data = Synthetic.blobs(separation: 1.5, noise: 1.5, seed: 6)
    let split = try GroupSplit.split(groups: data.groups, seed: 1)
    let s = Standardizer.fit(data.x.rows(split.training))
    let xTrain = s.transform(data.x.rows(split.training))
    let xValidation = s.transform(data.x.rows(split.validation))
    let yValidation = split.validation.map { data.labels[$0] }
    var h = MLPClassifier.Hyperparameters()
    h.hiddenLayerSizes = [32]
    h.l2Penalty = 0
    h.learningRate = 0.01
    h.patience = 5
    h.maxEpochs = 400
    var reports: [EpochReport] = []
    let model = try MLPClassifier.fit(
      xTrain, labels: split.training.map { data.labels[$0] }, classes: ["a", "b", "c"],
      hyperparameters: h, validation: (xValidation, yValidation), progress: { reports.append($0) })
    XCTAssertLessThan(reports.count, 400, "should stop early")
    let best = reports.compactMap(\.validationLoss).min()!
    let p = model.predictProbabilities(xValidation)
    XCTAssertEqual(Metrics.logLoss(probabilities: p, labels: yValidation), best, accuracy: 1e-5)
  }
}
