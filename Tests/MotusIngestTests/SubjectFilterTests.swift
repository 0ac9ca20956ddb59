import MotusData
import MotusIngest
import XCTest

final class SubjectFilterTests: XCTestCase {
  func testSourcePrefixedRanges_MatchOnlyTheirSource() throws {
    let filter = try SubjectFilter(parsing: "motionsense:17-20,qrowd:3,gains_pushup:Eric,5")
    XCTAssertTrue(filter.contains("motionsense:17"))
    XCTAssertTrue(filter.contains("motionsense:20"))
    XCTAssertFalse(filter.contains("motionsense:16"))
    XCTAssertFalse(filter.contains("qrowd:17"))
    XCTAssertTrue(filter.contains("qrowd:3"))
    XCTAssertTrue(filter.contains("gains_pushup:Eric"))
    XCTAssertFalse(filter.contains("gains_pushup:unknown"))
    XCTAssertTrue(filter.contains("5"))
    XCTAssertFalse(filter.contains("motionsense:5"))
    XCTAssertEqual(filter.description, "5,motionsense:17-20,qrowd:3,gains_pushup:Eric")
  }

  func testPrefixedRange_BackwardsIsAnError() {
    XCTAssertThrowsError(try SubjectFilter(parsing: "motionsense:20-17", flag: "--subjects")) {
      XCTAssertTrue("\($0)".contains("--subjects"), "\($0)")
    }
  }
}
