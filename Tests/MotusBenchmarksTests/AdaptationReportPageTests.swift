// bench adapt's HTML page from a hand-made report (synthetic counts, no training): well-formed
// XML, three charts per group with one line per class and method, the shown class left out of
// the unshown chart, and the table's cells.

import Foundation
import XCTest

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import MotusBenchmarks

final class AdaptationReportPageTests: XCTestCase {
  /// A score of three classes: `truth` windows each, `hits` answered right, `alarms` answered
  /// the class wrongly.
  private func score(_ truth: [Int], _ hits: [Int], _ alarms: [Int]) -> [String: Any] {
    [
      "truth": truth, "hits": hits, "alarms": alarms, "mostProbable": hits,
      "binWindows": [Int](repeating: 0, count: 10), "binConfidence": [Double](repeating: 0, count: 10),
      "binRight": [Int](repeating: 0, count: 10),
    ]
  }

  private func report() throws -> AdaptationBenchmark.Report {
    func row(_ method: String, _ k: Double, pushHits: Int, walkReference: Int) -> [String: Any] {
      [
        "group": "wrist <left>", "method": method, "minutes": k,
        "windowsPerClass": k == 0 ? [:] : ["push-up": 12], "seconds": 0.01,
        "held": score([5, 10, 5], [4, pushHits, 3], [1, 2, 0]),
        "reference": score([100, 0, 50], [walkReference, 0, 40], [3, 4, 5]),
      ]
    }
    let rows = [
      row("trained", 0, pushHits: 2, walkReference: 90),
      row("adapted, a", 1, pushHits: 6, walkReference: 80),
      row("adapted, a", 2, pushHits: 8, walkReference: 70),
      row("adapted, b", 1, pushHits: 5, walkReference: 88),
      row("adapted, b", 2, pushHits: 7, walkReference: 86),
    ]
    let json: [String: Any] = [
      "classes": ["walking", "push-up", "other"], "penalties": [0.01],
      "rehearsalWeights": [0, 0.5], "hopSeconds": 1.7, "rows": rows,
    ]
    return try JSONDecoder().decode(
      AdaptationBenchmark.Report.self, from: JSONSerialization.data(withJSONObject: json))
  }

  func testPageIsWellFormedWithALinePerClassAndMethod() throws {
    let html = AdaptationReportPage.render(try report(), title: "a & b")
    let document = try XMLDocument(xmlString: html, options: [])
    let root = try XCTUnwrap(document.rootElement())
    let svgs = try root.nodes(forXPath: "//*[local-name()='svg']")
    XCTAssertEqual(svgs.count, 3, "recall, false alarms, unshown recall change")
    func lines(_ svg: XMLNode) throws -> [String] {
      try svg.nodes(forXPath: "./*[local-name()='polyline']/*[local-name()='title']").map {
        $0.stringValue ?? ""
      }
    }
    // Three classes on the held half, two methods.
    XCTAssertEqual(try lines(svgs[0]).count, 6)
    XCTAssertEqual(try lines(svgs[1]).count, 6)
    // Unshown: walking and other (push-up is shown, and has no training windows anyway).
    XCTAssertEqual(
      try lines(svgs[2]).sorted(),
      ["other, adapted, a", "other, adapted, b", "walking, adapted, a", "walking, adapted, b"])
    // Method a's push-up recall: 0.2 at k = 0, then 0.6 and 0.8; y runs from 180 (0) to 10 (1).
    let pushA = try XCTUnwrap(
      svgs[0].nodes(forXPath: "./*[local-name()='polyline'][*[local-name()='title']='push-up, adapted, a']")
        .first as? XMLElement)
    let points = try pushA.nodes(forXPath: "@points").first?.stringValue ?? ""
    let ys = points.split(separator: " ").map {
      Double($0.split(separator: ",")[1])!
    }
    XCTAssertEqual(ys, [146, 78, 44])
    XCTAssertTrue(html.contains("wrist &lt;left&gt; held out"), "the group name is escaped")
    // 2 of the 10 windows of other classes answered push-up.
    XCTAssertTrue(html.contains("<td>0.80 / 20.0 %</td>"), "push-up at k = 2 for method a")
  }
}
