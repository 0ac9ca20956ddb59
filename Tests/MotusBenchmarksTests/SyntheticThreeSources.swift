// A small synthetic manifest for the benchmarks' tests (synthetic signals, not real data):
// three sources of two subjects each, two classes and a negative label.

import Foundation
import MotusFeatures

@testable import MotusBenchmarks
@testable import MotusData
@testable import MotusIngest

enum SyntheticThreeSources {
  /// 50 Hz acceleration: walking is a 2 Hz swing, stationary gravity with a little noise, the
  /// negative label `other` a slow 0.4 Hz sway; each recording is 20 s of each in turn.
  static func load() -> WholeLoad {
    let rate = 50.0
    var state: UInt64 = 3
    func noise() -> Float {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(Double(state >> 11) / Double(1 << 53) - 0.5)
    }
    var recordings: [Recording] = []
    for source in ["a", "b", "c"] {
      for subject in 1...2 {
        let gain = Float(1 + 0.1 * Double(subject))
        var columns: [[Float]] = [[], [], []]
        var labels: [Int32] = []
        for (label, hz, amplitude) in [(0, 2.0, 0.8), (1, 0.0, 0.0), (2, 0.4, 0.5)] {
          for t in 0..<1000 {
            let swing = Float(amplitude * sin(2 * Double.pi * hz * Double(t) / rate))
            columns[0].append(gain * swing + 0.05 * noise())
            columns[1].append(0.3 * swing + 0.05 * noise())
            columns[2].append(1 + 0.5 * swing + 0.05 * noise())
            labels.append(Int32(label))
          }
        }
        recordings.append(
          Recording(
            session: "\(source):s\(subject)", subject: "\(source):\(subject)", source: source,
            timestamps: (0..<labels.count).map { Double($0) / rate }, columns: columns,
            labelIndices: labels, sampleRateHz: rate))
      }
    }
    let channels = AccuracyBenchmark.acceleration
    let labels = ["walking", "stationary", "other"]
    let manifest = Manifest(
      sampleRateHz: rate, channels: channels, labels: labels,
      sources: ["a", "b", "c"].map {
        Manifest.Source(name: $0, files: ["\($0).csv"], channels: channels, labels: [:])
      })
    let dataset = Dataset(
      channels: channels, labels: labels, recordings: recordings, negativeLabels: ["other"])
    return WholeLoad(
      result: LoadResult(
        dataset: dataset, recipes: channels.map { .copy($0) }, report: LoadReport()),
      sourceWeights: [:], knownRepetitions: [:], manifest: manifest, manifestFile: "m.json")
  }
}
