// Data flags with --manifest: subject filters apply, flags the manifest owns are refused.

import Foundation
import MotusTestSupport
import XCTest

final class ManifestFlagsTests: XCTestCase {
  private var manifest: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("datasets/six-class.json").path
  }

  func testManifest_RefusesFlagsItOwns() throws {
    for flags in [["--channels", "acceleration.*"], ["--map", "a=b"], ["--sample-rate", "50"]] {
      let run = try MotusRunner.run(["inspect", "--manifest", manifest] + flags)
      XCTAssertNotEqual(run.exitCode, 0)
      XCTAssertTrue(run.standardError.contains(flags[0]), run.standardError)
    }
  }

  func testManifest_SubjectFiltersApply() throws {
    guard SharedData.isAvailable else { throw XCTSkip("../shared/datasets is absent") }
    let run = try MotusRunner.run([
      "inspect", "--manifest", manifest, "--subjects", "motionsense:17-18,gains_pushup:Eric",
    ])
    XCTAssertEqual(run.exitCode, 0, run.standardError)
    let subjectsSection = run.standardOutput.components(separatedBy: "subjects (").dropFirst().first ?? ""
    XCTAssertTrue(subjectsSection.hasPrefix("3)"), String(subjectsSection.prefix(200)))
    XCTAssertTrue(run.standardOutput.contains("motionsense:17"))
    XCTAssertFalse(run.standardOutput.contains("motionsense:19"))
    XCTAssertFalse(run.standardOutput.contains("qrowd:"))
  }
}
