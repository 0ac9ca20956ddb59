// The table built on several threads is the table built in one pass, errors included.

import MotusData
import MotusFeatures
import MotusIngest
import XCTest

final class WindowTableConcurrentTests: XCTestCase {
  /// `count` recordings of varied lengths (some too short for a window), two labels.
  private func dataset(count: Int, rateOf: (Int) -> Double = { _ in 2 }, nanIn: Int? = nil) -> Dataset {
    let recordings = (0..<count).map { r -> Recording in
      let n = r % 5 == 4 ? 3 : 8 + (r * 7) % 13
      var values = (0..<n).map { Float(($0 * (r + 3)) % 11) - 5 }
      if r == nanIn { values[n - 1] = .infinity }
      return Recording(
        session: "s\(r)", subject: "\(r % 3)", source: "test",
        timestamps: (0..<n).map { Double($0) / 2 }, columns: [values],
        labelIndices: (0..<n).map { Int32(($0 + r) / 4 % 2) }, sampleRateHz: rateOf(r))
    }
    return Dataset(channels: ["x"], labels: ["sit", "walk"], recordings: recordings)
  }

  private func extractor() throws -> FeatureExtractor {
    try FeatureExtractor(
      spec: FeatureSpec(
        recipes: [.copy("x")], channels: ["x"], sampleRateHz: 2, windowLength: 4, hopLength: 2,
        statistics: [.mean, .std, .max], spectral: [], bandEdgesHz: []))
  }

  func testSameTableAsOnePass() throws {
    let data = dataset(count: 37)
    let single = try WindowTable.make(dataset: data, extractor: extractor(), minimumPurity: 0.6)
    for threads in [2, 3, 8] {
      let table = try WindowTable.makeConcurrently(
        dataset: data, extractor: extractor(), minimumPurity: 0.6, threads: threads)
      XCTAssertEqual(table, single, "\(threads) threads")
    }
    XCTAssertGreaterThan(single.skippedRecordingCount, 0)
    XCTAssertGreaterThan(single.droppedImpureCount, 0)
  }

  func testFirstErrorIsTheOnePassOne() throws {
    // A window with an infinite feature early on, and a rate mismatch later: one pass
    // reports the rate first, since it checks every recording before any window.
    let data = dataset(count: 30, rateOf: { $0 == 25 ? 50 : 2 }, nanIn: 2)
    var single = ""
    var concurrent = ""
    do { _ = try WindowTable.make(dataset: data, extractor: extractor()) } catch { single = "\(error)" }
    do {
      _ = try WindowTable.makeConcurrently(dataset: data, extractor: extractor(), threads: 4)
    } catch { concurrent = "\(error)" }
    XCTAssertTrue(single.contains("s25"), single)
    XCTAssertEqual(concurrent, single)
    // Without the rate mismatch: the infinite feature of recording 2.
    let finite = dataset(count: 30, nanIn: 2)
    do { _ = try WindowTable.make(dataset: finite, extractor: extractor()) } catch { single = "\(error)" }
    do {
      _ = try WindowTable.makeConcurrently(dataset: finite, extractor: extractor(), threads: 4)
    } catch { concurrent = "\(error)" }
    XCTAssertTrue(single.contains("s2"), single)
    XCTAssertEqual(concurrent, single)
  }
}
