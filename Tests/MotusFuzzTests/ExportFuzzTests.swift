// The export target's seeds replayed: each describes the model its name says (the shipped
// shape, the longest window with the autocorrelation and 50 bands, an MLP over every
// vector), passes the model file's checks, and exports within the size the target allows.

import Foundation
import MotusFuzzTargets
import MotusModels
import XCTest

@testable import MotusFuzzTargets

final class ExportFuzzTests: XCTestCase {
  func testExportSeeds_DescribeTheirModelsAndExportWithinTheLimit() throws {
    let folder = FuzzCorpusTests.fuzzFolder.appendingPathComponent("Corpus/export")
    let expected: [String: (window: Int, features: Int?)] = [
      "six-class-shape.bin": (77, 135), "longest-window-acf-bands.bin": (65536, nil),
      "window-8192-acf.bin": (8192, nil), "mlp-vectors-gravity.bin": (256, nil),
      "many-bands.bin": (512, nil),
    ]
    for (name, shape) in expected {
      let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
      var input = FuzzBytes(bytes)
      let model = try XCTUnwrap(FuzzTargets.exportModel(&input), name)
      XCTAssertEqual(model.featureSpec.windowLength, shape.window, name)
      if let features = shape.features { XCTAssertEqual(model.featureCount, features, name) }
      XCTAssertNoThrow(try ModelFile.decode(try ModelFile.encode(model), file: name), name)
      FuzzTargets.exportGraph(bytes)  // traps past the size limit
    }
    // A window of one sample describes a model the export refuses by name.
    let one = [UInt8](try Data(contentsOf: folder.appendingPathComponent("one-sample-window.bin")))
    var input = FuzzBytes(one)
    XCTAssertEqual(FuzzTargets.exportModel(&input)?.featureSpec.windowLength, 1)
    FuzzTargets.exportGraph(one)
  }
}
