// bench accuracy scores every held-out source apart as well as pooled: on the synthetic
// three-source manifest, test subjects from two sources, given by a prefixed range and a name.

import Foundation
import MotusIngest
import XCTest

@testable import MotusBenchmarks

final class AccuracyBySourceTests: XCTestCase {
  func testBySource_SplitsThePooledCountsBySourceInOrder() throws {
    var configuration = AccuracyBenchmark.Configuration()
    configuration.testSubjects = try SubjectFilter(parsing: "b:2,a:2", flag: "--test-subjects")
    configuration.training.augmentation = nil
    let report = try AccuracyBenchmark.run(
      data: SyntheticThreeSources.load(), configuration: configuration)
    XCTAssertEqual(report.testSubjects, ["a:2", "b:2"], "in the data's order, not the flag's")
    let classifying = report.methods.filter { $0.confusion != nil }
    XCTAssertGreaterThanOrEqual(classifying.count, 5, "two learned and three threshold rows")
    for method in classifying {
      let sources = try XCTUnwrap(method.bySource, method.method)
      XCTAssertEqual(sources.map(\.method), ["a", "b"], method.method)
      // Each source's confusion counts add up to the pooled ones, cell by cell.
      let pooled = try XCTUnwrap(method.confusion)
      var summed = pooled.map { $0.map { _ in 0 } }
      for source in sources {
        let confusion = try XCTUnwrap(source.confusion)
        XCTAssertGreaterThan(confusion.joined().reduce(0, +), 0, "\(method.method) \(source.method)")
        for (i, row) in confusion.enumerated() {
          for (j, count) in row.enumerated() { summed[i][j] += count }
        }
      }
      XCTAssertEqual(summed, pooled, method.method)
      XCTAssertNil(sources.first?.bySource, "no nesting")
    }
    let counters = report.methods.filter { $0.confusion == nil }
    XCTAssertTrue(counters.allSatisfy { $0.bySource == nil }, "counters do not classify")
  }

  func testUnknownTestSubjects_AreNamedWithTheSubjectsThereAre() {
    var configuration = AccuracyBenchmark.Configuration()
    configuration.testSubjects = SubjectFilter(names: ["z:9"])
    XCTAssertThrowsError(
      try AccuracyBenchmark.run(data: SyntheticThreeSources.load(), configuration: configuration)
    ) { error in
      let text = "\(error)"
      XCTAssertTrue(text.contains("'z:9'") && text.contains("a:1"), text)
    }
  }
}
