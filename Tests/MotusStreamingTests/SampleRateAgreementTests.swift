// A file loaded for training and the same file streamed get one sampling rate: both read it
// through `estimateSampleRateHz`, the loader's refined median.

import Foundation
import MotusData
import MotusFeatures
@testable import MotusIngest
import MotusLinearAlgebra
import MotusModels
import MotusStreaming
import XCTest

final class SampleRateAgreementTests: XCTestCase {
  /// 32 rows (all the stream waits for before it estimates) at 15 Hz, printed to the
  /// millisecond with up to ±0.4 ms of jitter: the steps are mostly 0.066 and 0.067 s.
  private func jitteredFile() -> String {
    var generator = SplitMix64(seed: 3)
    var text = "timestamp,session,subject,label,a\n"
    for i in 0..<32 {
      let jitter = (Double(generator.next() % 801) - 400) * 1e-6
      let time = String(format: "%.3f", 10 + Double(i) / 15 + jitter)
      text += "\(time),s,1,walk,\(i % 3)\n"
    }
    return text
  }

  private let model = TrainedModel(
    featureSpec: FeatureSpec(
      recipes: [.copy("a")], channels: ["a"], sampleRateHz: 15, windowLength: 4, hopLength: 4,
      statistics: [.mean], spectral: [], bandEdgesHz: []),
    standardizer: Standardizer(mean: [0], scale: [1]),
    classifier: .logistic(
      LogisticRegression(
        classes: ["still", "moving"],
        linear: Linear(weight: Matrix(rows: [[-2], [2]]), bias: [0, 0]))),
    confidenceCutoffs: ConfidenceCutoffs(medium: 0.6, high: 0.9),
    metadata: TrainingMetadata(dataDigest: "0000000000000000", seed: 0, motusVersion: "test"))

  func testJitteredTimestamps_LoaderAndStreamEstimateTheSameRate() throws {
    let text = jitteredFile()
    let loaded = try DatasetLoader.load(
      inputs: [InputBytes(name: "jittered.csv", bytes: Array(text.utf8))], options: LoadOptions())
    let loaderRate = loaded.dataset.recordings[0].sampleRateHz

    // The stream's path: rows parsed by its reader, the rate from their times.
    var lines = text.split(separator: "\n").map { Array($0.utf8) }
    var reader = try StreamRowReader(
      header: lines.removeFirst(), file: "jittered.csv", model: model)
    var times: [Double] = []
    var values = [Float](repeating: 0, count: reader.inputs.count)
    for line in lines {
      let row = values.withUnsafeMutableBufferPointer { reader.read(line, into: $0) }
      guard case .sample(let time, _) = row else { return XCTFail("row not read: \(row)") }
      times.append(time)
    }
    let streamRate = try XCTUnwrap(estimateSampleRateHz(timestamps: times))

    XCTAssertEqual(streamRate, loaderRate)
    XCTAssertEqual(loaded.report.sessions[0].detectedRateHz, loaderRate)
    XCTAssertEqual(loaderRate, 15, accuracy: 0.05)
    // The data needs the refinement: a plain median of the steps lands on a rounded step.
    let steps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
    let plainMedianRate = 1 / ((steps[15] + steps[16]) / 2)
    XCTAssertGreaterThan(abs(plainMedianRate - loaderRate), 0.05)
  }
}
