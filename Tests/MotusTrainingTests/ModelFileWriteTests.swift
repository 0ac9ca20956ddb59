import Foundation
import MotusModels
import MotusTestSupport
import MotusTraining
import XCTest

/// `ModelFile.write` (the trainer's side of the format) goes through the output rule.
final class ModelFileWriteTests: XCTestCase {
  var directory: URL!

  override func setUpWithError() throws { directory = try makeTemporaryDirectory() }
  override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

  func testWrite_RoundTripsTheEncodedBytes() throws {
    let model = try StreamAgreement.model()
    let url = directory.appendingPathComponent("m.motus")
    try ModelFile.write(model, to: url)
    XCTAssertEqual(try Data(contentsOf: url), try ModelFile.encode(model))
    XCTAssertEqual(try ModelFile.read(from: url), model)
  }

  func testWrite_FailureLeavesOldFileIntact() throws {
    let model = try StreamAgreement.model()
    let url = directory.appendingPathComponent("keep.motus")
    try "earlier bytes".write(to: url, atomically: true, encoding: .utf8)
    let before = try Data(contentsOf: url)
    // A model file that is also an input of the run is refused; the file stays as it was.
    XCTAssertThrowsError(try ModelFile.write(model, to: url, inputs: [url.path])) { error in
      guard case .unwritable(let file, let reason) = error as? ModelFileError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(file, url.path)
      XCTAssertTrue(reason.contains("input"), reason)
    }
    XCTAssertEqual(try Data(contentsOf: url), before)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    XCTAssertEqual(left, ["keep.motus"], "no temporary file is left behind")
  }

  func testWrite_MissingDirectoryFails() throws {
    let model = try StreamAgreement.model()
    let url = directory.appendingPathComponent("no/such/dir/m.motus")
    XCTAssertThrowsError(try ModelFile.write(model, to: url)) { error in
      XCTAssertTrue("\(error)".contains(url.path) && "\(error)".contains("HINT"), "\(error)")
    }
  }
}
