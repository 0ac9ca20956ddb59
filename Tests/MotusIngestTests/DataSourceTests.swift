// DataSource, the one way in for labelled data: a manifest's source-prefixed subject filters,
// the windows decision (stream, or load whole when the chooser says so: the same table), and
// the files a load reads. Labelled synthetic CSV files.

import Foundation
import MotusFeatures
@testable import MotusIngest
import MotusOutput
import MotusTestSupport
import XCTest

@testable import MotusData

final class DataSourceTests: TemporaryFolderTestCase {
  /// Labelled synthetic: sessions of 300 samples at 20 Hz for subjects 1 and 2.
  private func csv() throws -> String {
    var text = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    for (session, subject) in [("s1", 1), ("s2", 2)] {
      for t in 0..<300 {
        let label = t < 150 ? "walk" : "sit"
        text += "\(Double(t) / 20),\(session),\(subject),\(label),\(t % 7),0,1\n"
      }
    }
    return try write(text, "data.csv")
  }

  private func manifest() throws -> String {
    _ = try csv()
    return try write(
      """
      { "dataRoot": ".", "sampleRateHz": 20, "channels": ["acceleration.x"],
        "labels": ["walking", "sitting"],
        "sources": [ { "name": "lab", "files": ["data.csv"], "channels": ["acceleration.x"],
          "labels": {"walk": "walking", "sit": "sitting"} } ] }
      """, "m.json")
  }

  func testManifestSubjects_AreSourcePrefixedAndAnEmptyResultIsNamed() throws {
    let file = try manifest()
    var options = LoadOptions()
    options.subjects = try SubjectFilter(parsing: "lab:2", flag: "--subjects")
    let kept = try DataSource(manifest: file, options: options).load()
    XCTAssertEqual(kept.result.dataset.subjects, ["lab:2"])
    XCTAssertEqual(kept.sourceWeights, ["lab": 1])
    XCTAssertEqual(try DataSource(manifest: file, options: options).outline().subjects, ["lab:2"])

    options.subjects = try SubjectFilter(parsing: "2", flag: "--subjects")
    XCTAssertThrowsError(try DataSource(manifest: file, options: options).load()) { error in
      XCTAssertEqual(error as? ManifestError, .noRecordingLeft)
      XCTAssertEqual(
        "\(error)",
        "no recording of the manifest is left after --subjects/--exclude-subjects. HINT: "
          + "subjects are source-prefixed there: e.g. --subjects motionsense:1-16,qrowd:1-2 "
          + "(motus inspect --manifest FILE lists them).")
    }
  }

  func testWindows_LoadWholeDecisionGivesTheStreamedTable() throws {
    let source = DataSource(files: [try csv()])
    var choice = FeatureChoice()
    choice.window = .samples(40)
    choice.hop = .samples(20)
    let spec: DataSource.SpecChoice = { try choice.spec(recipes: $0, recordingRates: $1) }
    let streamed = try source.windows(chooseSpec: spec)
    XCTAssertTrue(streamed.streamed)

    var asked = 0
    let declined = try source.windowsAsRead(
      minimumPurity: 0, copies: nil, progress: nil, eachPart: nil
    ) { recipes, rates in
      asked += 1
      return .loadWhole
    }
    XCTAssertEqual(asked, 1, "asked once, for the first recording")
    guard case .whole(let whole) = declined else {
      return XCTFail("declining the first recording hands back the whole load")
    }
    XCTAssertEqual(whole.result.dataset, try source.load().result.dataset)

    var decided = 0
    let windowed = try source.windowsAsRead(
      minimumPurity: 0, copies: nil, progress: nil, eachPart: nil
    ) { recipes, rates in
      decided += 1
      return .use(try spec(recipes, rates))
    }
    XCTAssertEqual(decided, 2, "asked once for the first recording, once for the whole data")
    guard case .windowed(let asRead) = windowed else {
      return XCTFail("a spec that holds for the whole data windows as read")
    }
    XCTAssertEqual(asRead.table, streamed.table)
    XCTAssertEqual(asRead.spec, streamed.spec)
    XCTAssertEqual(asRead.outline.report, streamed.outline.report)
  }

  func testInputFiles_ListFolderFilesAndAManifestsSources() throws {
    let file = try manifest()
    XCTAssertEqual(DataSource(files: [folder.path]).inputFiles().map(PathName.last), ["data.csv"])
    XCTAssertEqual(
      DataSource(manifest: file).inputFiles().map(PathName.last), ["m.json", "data.csv"])
  }
}
