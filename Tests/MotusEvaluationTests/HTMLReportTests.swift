import Foundation
import XCTest

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import MotusEvaluation

final class HTMLReportTests: XCTestCase {
  private func page(session: String? = nil) throws -> String {
    let result = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    return try HTMLReport.render(result: result, timelineSession: session, title: "a <b> & c")
  }

  func testRender_IsWellFormedXMLWithFourCharts() throws {
    let html = try page()
    let document = try XMLDocument(xmlString: html, options: [])
    let root = try XCTUnwrap(document.rootElement())
    XCTAssertEqual(root.name, "html")
    let svgs = try root.nodes(forXPath: "//*[local-name()='svg']")
    XCTAssertEqual(svgs.count, 4, "confusion, reliability, class bars, timeline")
    // Confusion: K² cells plus K² counts; the first chart is 3×3.
    let cells = try svgs[0].nodes(forXPath: "./*[local-name()='rect']")
    XCTAssertEqual(cells.count, 9)
    // Reliability: one bar per non-empty bin, each with its count.
    let result = try Evaluation.run(model: HandMade.model, dataset: HandMade.dataset)
    let bars = try svgs[1].nodes(forXPath: "./*[local-name()='rect' and @fill='#4e79a7']")
    XCTAssertEqual(bars.count, result.reliability.filter { $0.count > 0 }.count)
    // Class bars: 3 bars per class plus a 3-entry legend.
    XCTAssertEqual(try svgs[2].nodes(forXPath: "./*[local-name()='rect']").count, 3 * 3 + 3)
    // Timeline of a1 (the first session): 3 windows on two bands, one error mark, 3 legend keys.
    let timeline = try svgs[3].nodes(forXPath: ".//*[local-name()='rect']")
    XCTAssertEqual(timeline.count, 3 * 2 + 1 + 3)
    for svg in svgs {
      for attribute in ["width", "height", "viewBox"] {
        let value = try svg.nodes(forXPath: "@\(attribute)").first?.stringValue ?? ""
        XCTAssertFalse(value.isEmpty, "svg without \(attribute)")
      }
    }
    // The title was escaped, not injected.
    XCTAssertTrue(html.contains("a &lt;b&gt; &amp; c"))
  }

  func testRender_IsSelfContained() throws {
    let html = try page()
    XCTAssertFalse(html.contains("<script"))
    XCTAssertFalse(html.contains("<link"))
    // Only the XML namespace URIs mention a scheme; nothing is fetched.
    let urls = html.components(separatedBy: "http").count - 1
    XCTAssertEqual(urls, html.components(separatedBy: "xmlns=\"http").count - 1)
    XCTAssertFalse(html.contains("nan"), "a NaN reached the drawing")
  }

  func testRender_TimelineSessionChoosesAndRejects() throws {
    XCTAssertTrue(try page(session: "b1").contains("Timeline: b1"))
    XCTAssertThrowsError(try page(session: "zz")) { error in
      XCTAssertEqual(error as? EvaluationError, .unknownSession("zz", available: ["a1", "b1"]))
    }
  }
}
