import MotusData
@testable import MotusIngest
import XCTest

/// Where JSONLocator places a syntax error, a value and a key, object and list alike.
final class JSONLocatorTests: XCTestCase {
  typealias Key = JSONKeyPath.Key

  private func syntaxError(_ text: String) -> String? {
    JSONLocator.syntaxError(in: Array(text.utf8)).map { "\($0.position): \($0.reason)" }
  }

  func testSyntaxErrors_NameTheContainerAndTheirPlace() {
    XCTAssertEqual(syntaxError("{\"a\": 1 \"b\": 2}"), "1:9: expected ',' or '}' in an object")
    XCTAssertEqual(syntaxError("[1, 2\n 3]"), "2:2: expected ',' or ']' in a list")
    XCTAssertEqual(syntaxError("{\"a\" 1}"), "1:6: expected ':' after a key")
    XCTAssertEqual(syntaxError("{1: 2}"), "1:2: expected a key in double quotes")
    XCTAssertEqual(syntaxError("[1,"), "1:4: the text ends early")
    XCTAssertNil(syntaxError(" { \"a\" : [ ] , \"b\" : { } , \"c\" : [ 1 , { \"d\" : null } ] } "))
  }

  func testPositions_FollowThePathThroughObjectsAndLists() {
    let text = Array("{\"a\": [10, {\"b\": 7}],\n \"c\": {}}".utf8)
    let path: [CodingKey] = [Key(stringValue: "a"), Key(intValue: 1), Key(stringValue: "b")]
    XCTAssertEqual(JSONLocator.position(of: path, in: text)?.description, "1:18")
    XCTAssertEqual(JSONLocator.keyPosition(of: path, in: text)?.description, "1:13")
    // A member that is missing: the object that lacks it.
    let missing: [CodingKey] = [Key(stringValue: "c"), Key(stringValue: "x")]
    XCTAssertEqual(JSONLocator.position(of: missing, in: text)?.description, "2:7")
    XCTAssertNil(JSONLocator.keyPosition(of: missing, in: text))
    // An element beyond the list's end: the list.
    let beyond: [CodingKey] = [Key(stringValue: "a"), Key(intValue: 5)]
    XCTAssertEqual(JSONLocator.position(of: beyond, in: text)?.description, "1:7")
  }
}
