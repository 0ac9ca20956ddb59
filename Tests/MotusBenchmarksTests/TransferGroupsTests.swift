// TransferBenchmark.groups on a small hand-built WholeLoad: one group per source,
// and per placement folds that never put a test subject's recordings of that source into the
// fold's training. Recordings are synthetic stubs (one sample each).

import MotusFeatures
@testable import MotusIngest
import XCTest

@testable import MotusBenchmarks
@testable import MotusData

final class TransferGroupsTests: XCTestCase {
  /// Sources: `alpha` (2 subjects, no placements); `dsads` (placements after `_`: subjects 1-4
  /// at T, RA and LL, subject 1's LL split by a gap into `#2`, subject 2 also with a session
  /// without a placement); `empty` (declared, no recordings).
  private func data() -> WholeLoad {
    func recording(_ source: String, _ subject: String, _ session: String) -> Recording {
      Recording(
        session: "\(source):\(session)", subject: "\(source):\(subject)", source: source,
        timestamps: [0], columns: [[0]], labelIndices: [0], sampleRateHz: 10)
    }
    var recordings = [
      recording("alpha", "1", "w1"), recording("alpha", "2", "w2"),
    ]
    for subject in 1...4 {
      for placement in ["T", "RA", "LL"] {
        recordings.append(recording("dsads", "\(subject)", "a09_p\(subject)_\(placement)"))
      }
    }
    recordings.append(recording("dsads", "1", "a09_p1_LL#2"))
    recordings.append(recording("dsads", "2", "loose"))
    func source(_ name: String, separator: String? = nil) -> Manifest.Source {
      Manifest.Source(
        name: name, files: ["\(name).csv"], channels: ["x"], labels: ["walk": "walking"],
        placementSeparator: separator)
    }
    let manifest = Manifest(
      sampleRateHz: 10, channels: ["x"], labels: ["walking"],
      sources: [source("alpha"), source("dsads", separator: "_"), source("empty")])
    let dataset = Dataset(channels: ["x"], labels: ["walking"], recordings: recordings)
    return WholeLoad(
      result: LoadResult(dataset: dataset, recipes: [.copy("x")], report: LoadReport()),
      sourceWeights: [:], knownRepetitions: [:], manifest: manifest, manifestFile: "m.json")
  }

  private func configuration(_ body: (inout TransferBenchmark.Configuration) -> Void = { _ in })
    -> TransferBenchmark.Configuration
  {
    var c = TransferBenchmark.Configuration()
    body(&c)
    return c
  }

  func testGroups_OnePerSourceWithRecordingsThenEachPlacement() {
    let groups = TransferBenchmark.groups(data: data(), configuration: configuration())
    XCTAssertEqual(groups.map(\.name), ["alpha", "dsads", "dsads LL", "dsads RA", "dsads T"])
    XCTAssertEqual(groups.map(\.kind), [.source, .source, .placement, .placement, .placement])
  }

  func testSourceGroup_TestsTheSourceAndTrainsOnTheRest() {
    let loaded = data()
    let recordings = loaded.result.dataset.recordings
    let groups = TransferBenchmark.groups(data: loaded, configuration: configuration())
    for group in groups where group.kind == .source {
      XCTAssertEqual(group.folds.count, 1)
      let fold = group.folds[0]
      XCTAssertEqual(
        fold.test, recordings.indices.filter { loaded.sourceName(of: recordings[$0]) == group.name }
      )
      XCTAssertEqual(
        fold.training,
        recordings.indices.filter { loaded.sourceName(of: recordings[$0]) != group.name })
    }
  }

  func testPlacementFolds_KeepTestSubjectsAndThePlacementOutOfTraining() {
    let loaded = data()
    let recordings = loaded.result.dataset.recordings
    let groups = TransferBenchmark.groups(
      data: loaded, configuration: configuration { $0.placementFolds = 2 })
    for group in groups where group.kind == .placement {
      let placement = String(group.name.dropFirst("dsads ".count))
      XCTAssertEqual(group.folds.count, 2, group.name)
      var tested: [Int] = []
      for fold in group.folds {
        let testSubjects = Set(fold.test.map { recordings[$0].subject })
        XCTAssertEqual(testSubjects.count, 2, "4 subjects in 2 folds: \(group.name)")
        for i in fold.test {
          XCTAssertEqual(loaded.sourceName(of: recordings[i]), "dsads")
          XCTAssertEqual(loaded.placement(of: recordings[i]), placement)
        }
        for i in fold.training where loaded.sourceName(of: recordings[i]) == "dsads" {
          XCTAssertFalse(testSubjects.contains(recordings[i].subject), "\(group.name)")
          XCTAssertNotEqual(loaded.placement(of: recordings[i]), placement, "\(group.name)")
        }
        // Everything else trains: the other sources, and the other people's other placements
        // (a session without a placement included).
        let expected = recordings.indices.filter { i in
          let r = recordings[i]
          guard loaded.sourceName(of: r) == "dsads" else { return true }
          return !testSubjects.contains(r.subject) && loaded.placement(of: r) != placement
        }
        XCTAssertEqual(fold.training, expected, group.name)
        tested += fold.test
      }
      // Every recording of the placement is tested once over the folds.
      let all = recordings.indices.filter {
        loaded.sourceName(of: recordings[$0]) == "dsads"
          && loaded.placement(of: recordings[$0]) == placement
      }
      XCTAssertEqual(tested.sorted(), all, group.name)
    }
    let ll = groups.first { $0.name == "dsads LL" }
    XCTAssertEqual(ll?.folds.first?.test.count, 3, "subjects 1 and 2 at LL, with the #2 piece")
  }

  func testPlacementFolds_CountIsClampedToTwoAndTheSubjects() {
    for (asked, expected) in [(1, 2), (3, 3), (10, 4)] {
      let groups = TransferBenchmark.groups(
        data: data(), configuration: configuration { $0.placementFolds = asked })
      for group in groups where group.kind == .placement {
        XCTAssertEqual(group.folds.count, expected, "asked for \(asked)")
      }
    }
  }

  func testConfiguration_SourcesAndPlacementsFilter() {
    let onlyDsads = TransferBenchmark.groups(
      data: data(), configuration: configuration { $0.sources = ["dsads"] })
    XCTAssertEqual(onlyDsads.map(\.name), ["dsads", "dsads LL", "dsads RA", "dsads T"])
    let noPlacements = TransferBenchmark.groups(
      data: data(), configuration: configuration { $0.placements = false })
    XCTAssertEqual(noPlacements.map(\.name), ["alpha", "dsads"])
  }
}
