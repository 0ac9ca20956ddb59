// Source weights on synthetic (generated) data: a row weight of w is w copies of the row in
// the loss, and the dataset entry point gives each window its source's weight.

import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels
import XCTest

@testable import MotusTraining

final class SourceWeightTests: XCTestCase {
  /// Synthetic blobs, standardised as the trainer does; groups subject0 and subject1 play the
  /// weighted source.
  private let data: (x: Matrix, labels: [Int], groups: [String]) = {
    let blobs = Synthetic.blobs(separation: 2, noise: 1.5, seed: 3)
    return (Standardizer.fit(blobs.x).transform(blobs.x), blobs.labels, blobs.groups)
  }()
  private let classes = ["a", "b", "c"]

  private func isWeighted(_ row: Int) -> Bool {
    ["subject0", "subject1"].contains(data.groups[row])
  }

  private func fit(_ x: Matrix, _ labels: [Int], weights: [Float]? = nil) throws
    -> LogisticRegression
  {
    var h = LogisticRegression.Hyperparameters()
    h.l2Penalty = 1
    h.maxEpochs = 1000
    h.tolerance = 1e-7
    return try LogisticRegression.fit(
      x, labels: labels, classes: classes, hyperparameters: h, sampleWeights: weights)
  }

  private func parameters(_ model: LogisticRegression) -> [Float] {
    model.linear.weight.values + model.linear.bias
  }

  func testSyntheticWeightW_FitsAsWDuplicatesOfTheRows() throws {
    let w = 3
    let weighted = try fit(
      data.x, data.labels, weights: data.labels.indices.map { isWeighted($0) ? Float(w) : 1 })
    // The weighted source's rows repeated w times in all.
    var rows = Array(data.labels.indices)
    for _ in 1..<w { rows += data.labels.indices.filter(isWeighted) }
    let duplicated = try fit(data.x.rows(rows), rows.map { data.labels[$0] })
    let unweighted = try fit(data.x, data.labels)

    let (p, q, u) = (parameters(weighted), parameters(duplicated), parameters(unweighted))
    for j in p.indices { XCTAssertEqual(p[j], q[j], accuracy: 1e-3, "parameter \(j)") }
    let moved = zip(p, u).map { abs($0 - $1) }.max() ?? 0
    XCTAssertGreaterThan(moved, 0.01, "weighting a source must change the fit")
  }

  func testSyntheticUnitWeights_AreTheUnweightedFitExactly() throws {
    let ones = try fit(
      data.x, data.labels, weights: [Float](repeating: 1, count: data.labels.count))
    XCTAssertEqual(parameters(ones), parameters(try fit(data.x, data.labels)))
  }

  func testSampleWeights_RefuseWrongCountAndNegative() {
    XCTAssertThrowsError(try fit(data.x, data.labels, weights: [1, 2])) { error in
      XCTAssertEqual(
        error as? TrainingError, .sampleWeightCount(given: 2, rows: data.labels.count))
    }
    var weights = [Float](repeating: 1, count: data.labels.count)
    weights[4] = -1
    XCTAssertThrowsError(try fit(data.x, data.labels, weights: weights)) { error in
      XCTAssertEqual(error as? TrainingError, .invalidSampleWeight(row: 4, value: -1))
    }
  }

  func testRowWeights_FollowTheSubjectsSourceIncludingPerturbedCopies() throws {
    // Synthetic recordings of two manifest-style sources (`source:subject`).
    var recordings: [Recording] = []
    for subject in ["phone:1", "phone:2", "watch:1", "watch:2"] {
      let n = 200
      let timestamps = (0..<n).map { Double($0) / 50 }
      let wave = timestamps.map { Float(sin(2 * Double.pi * 2 * $0)) }
      recordings.append(
        Recording(
          session: "\(subject)/s", subject: subject, source: "synthetic", timestamps: timestamps,
          columns: [wave], labelIndices: (0..<n).map { Int32($0 / 100) }, sampleRateHz: 50))
    }
    let dataset = Dataset(
      channels: ["synthetic"], labels: ["still", "walk"], recordings: recordings)
    var options = TrainingOptions()
    options.augmentation = Augmentation(copies: 1, perturbation: Augmentation.defaultPerturbation)
    let weights = ["phone": 1.0, "watch": 2.5]
    let (model, _, table) = try Trainer.train(
      dataset: dataset, spec: Synthetic.spec, options: options, sourceWeights: weights)
    XCTAssertEqual(table.recordingSubjects.count, 8, "four recordings and one copy of each")
    let rows = Array(0..<table.windowCount)
    let perRow = try XCTUnwrap(Trainer.rowWeights(table: table, rows: rows, sourceWeights: weights))
    for row in rows {
      XCTAssertEqual(perRow[row], table.subject(at: row).hasPrefix("watch:") ? 2.5 : 1)
    }
    XCTAssertEqual(model.metadata.settings.sourceWeights, ["phone": 1, "watch": 2.5])
    XCTAssertEqual(model.metadata.settings.text["sourceWeights"], "phone=1.0,watch=2.5")
    XCTAssertNil(Trainer.rowWeights(table: table, rows: rows, sourceWeights: ["phone": 1]))
  }
}
