// bench transfer gives the same report, byte for byte, whatever the number of jobs run at
// once: on a small synthetic manifest (three sources of two subjects, two classes and a
// negative label), with one job at a time and with several.

import Foundation
import MotusFeatures
import XCTest

@testable import MotusBenchmarks
@testable import MotusData
@testable import MotusIngest

final class TransferParallelismTests: XCTestCase {
  private func configuration(parallelism: Int) -> TransferBenchmark.Configuration {
    var c = TransferBenchmark.Configuration()
    c.seeds = [1, 2]
    c.parallelism = parallelism
    return c
  }

  func testWindowTables_PartsJoinToTheWholeDatasetsTablesWithCopies() throws {
    let data = SyntheticThreeSources.load()
    for parallelism in [1, 3] {
      let setup = try TransferBenchmark.Setup(
        data: data, configuration: configuration(parallelism: parallelism))
      let tables = try TransferBenchmark.windowTables(setup)
      XCTAssertEqual(tables.count, 2)
      for (s, seed) in setup.configuration.seeds.enumerated() {
        // What windowing the whole dataset and each whole copy in turn gives.
        var parts = try WindowTable.makeWithCopies(
          dataset: setup.dataset, extractor: FeatureExtractor(spec: setup.spec),
          minimumPurity: 0,
          copies: setup.configuration.training.augmentation?.windowCopies(seed: seed))
        XCTAssertEqual(parts.count, 3, "the recordings and two copies")
        XCTAssertEqual(tables[s], WindowTable.join(&parts), "seed \(seed), \(parallelism) jobs")
      }
      XCTAssertNotEqual(tables[0].features, tables[1].features, "copies differ by seed")
    }
  }

  func testRun_SameJSONWithOneJobAndWithSeveral() throws {
    let data = SyntheticThreeSources.load()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    let serial = try encoder.encode(
      TransferBenchmark.run(data: data, configuration: configuration(parallelism: 1)))
    let parallel = try encoder.encode(
      TransferBenchmark.run(data: data, configuration: configuration(parallelism: 4)))
    XCTAssertEqual(serial, parallel)
    let report = try TransferBenchmark.run(data: data, configuration: configuration(parallelism: 1))
    XCTAssertEqual(report.groups.map(\.name), ["a", "b", "c"])
    // Two classes, every method scored for both, with a negative label to raise false alarms.
    for group in report.groups {
      for method in group.methods {
        XCTAssertEqual(method.falseAlarmRate.count, 2, "\(group.name) \(method.method)")
        XCTAssertEqual(method.precision.count, 2)
      }
    }
  }
}
