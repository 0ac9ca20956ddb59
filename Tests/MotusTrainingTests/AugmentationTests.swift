// Training on perturbed copies: the copies keep their groups, training stays deterministic
// and the model records how it was augmented. Data are synthetic.

import MotusData
import MotusFeatures
import MotusIngest
import MotusModels
import XCTest

@testable import MotusTraining

final class AugmentationTests: XCTestCase {
  /// Two activities on a 3-axis accelerometer: still (gravity only) and a 2 Hz bounce.
  private func dataset() -> Dataset {
    var generator = SplitMix64(seed: 11)
    var recordings: [Recording] = []
    for subject in 1...4 {
      for active in [false, true] {
        let n = 300
        var columns = [[Float]](repeating: [], count: 4)
        for t in 0..<n {
          let bounce = active ? 0.3 * sin(2 * Double.pi * 2 * Double(t) / 25) : 0
          let v = [0, 0, -(1 + bounce)].map { Float($0 + 0.01 * generator.gaussian()) }
          for a in 0..<3 { columns[a].append(v[a]) }
          columns[3].append((v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot())
        }
        recordings.append(
          Recording(
            session: "\(subject)-\(active)", subject: "\(subject)", source: "synthetic",
            timestamps: (0..<n).map { Double($0) / 25 }, columns: columns,
            labelIndices: [Int32](repeating: active ? 1 : 0, count: n), sampleRateHz: 25))
      }
    }
    return Dataset(
      channels: ["a.x", "a.y", "a.z", "|a|"], labels: ["still", "moving"],
      recordings: recordings)
  }

  /// Means and deviations of 2 s windows, hop 1 s.
  private let spec = FeatureSpec(
    recipes: ["a.x", "a.y", "a.z", "|a|"].map { ChannelRecipe.copy($0) },
    channels: ["a.x", "a.y", "a.z", "|a|"], sampleRateHz: 25, windowLength: 50, hopLength: 25,
    statistics: [.mean, .std], spectral: [], bandEdgesHz: [])

  private let augmentation = Augmentation(
    copies: 2,
    perturbation: DevicePerturbation(
      maxRotationDegrees: 180, gainSpread: 0.1, noiseStandardDeviation: 0.005))

  func testApply_AddsCopiesThatKeepSubjectsAndSessions() {
    let data = dataset()
    let augmented = augmentation.apply(to: data, seed: 1)
    XCTAssertEqual(augmented.recordings.count, 3 * data.recordings.count)
    XCTAssertEqual(Array(augmented.recordings.prefix(data.recordings.count)), data.recordings)
    for (i, copy) in augmented.recordings.enumerated().dropFirst(data.recordings.count) {
      let source = data.recordings[i % data.recordings.count]
      XCTAssertEqual(copy.subject, source.subject)
      XCTAssertEqual(copy.session, source.session)
      XCTAssertNotEqual(copy.columns[0], source.columns[0])
    }
    XCTAssertEqual(
      Augmentation(copies: 0, perturbation: augmentation.perturbation)
        .apply(to: data, seed: 1), data)
  }

  func testTrain_WithAugmentationIsDeterministicAndRecordsIt() throws {
    var options = TrainingOptions()
    options.augmentation = augmentation
    options.seed = 3
    let first = try Trainer.train(dataset: dataset(), spec: spec, options: options)
    let second = try Trainer.train(dataset: dataset(), spec: spec, options: options)
    XCTAssertEqual(try ModelFile.encode(first.model), try ModelFile.encode(second.model))
    XCTAssertEqual(first.table.windowCount, 3 * 8 * 11)
    XCTAssertEqual(
      first.model.metadata.settings.text["augmentation"],
      "copies=2,rotation=180,gain=0.1,noise=0.005")
    var plain = options
    plain.augmentation = nil
    let unaugmented = try Trainer.train(dataset: dataset(), spec: spec, options: plain)
    XCTAssertNil(unaugmented.model.metadata.settings.augmentation)
    XCTAssertNotEqual(first.model.metadata.dataDigest, unaugmented.model.metadata.dataDigest)
  }

  func testWindowCopies_GiveTheTableOfTheAugmentedDataset() throws {
    let data = dataset()
    let extractor = try FeatureExtractor(spec: spec)
    let copies = augmentation.windowCopies(seed: 5)
    var parts = try WindowTable.makeWithCopies(
      dataset: data, extractor: extractor, minimumPurity: 0.9, copies: copies)
    let oneCopyAtATime = WindowTable.join(&parts)
    XCTAssertTrue(parts.isEmpty)
    let allAtOnce = try WindowTable.make(
      dataset: augmentation.apply(to: data, seed: 5), extractor: extractor, minimumPurity: 0.9)
    XCTAssertEqual(oneCopyAtATime.windowCount, 3 * 8 * 11)
    XCTAssertEqual(oneCopyAtATime, allAtOnce)

    // A part at a time (as `WindowedLoad` windows a file): each part's copies are that part
    // of the whole's copies, so joining each kind in order gives the same table.
    var kinds: [WindowTable] = []
    for range in [0..<3, 3..<5, 5..<data.recordings.count] {
      var part = data
      part.recordings = Array(data.recordings[range])
      let tables = try WindowTable.makeWithCopies(
        dataset: part, extractor: extractor, minimumPurity: 0.9, copies: copies,
        firstIndex: range.lowerBound)
      if kinds.isEmpty {
        kinds = tables
      } else {
        for k in kinds.indices { kinds[k].append(tables[k]) }
      }
    }
    XCTAssertEqual(WindowTable.join(&kinds), allAtOnce)
  }
}
