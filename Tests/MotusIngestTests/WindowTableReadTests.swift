import Foundation
import MotusData
import MotusFeatures
import MotusIngest
import MotusLinearAlgebra
import MotusOutput
import MotusTestSupport
import XCTest

/// A window table read back (`WindowTable.read`, `init(columns:spec:specFile:)`): the rows
/// `writeCSV` wrote, bit for bit, in training order, and every bad cell named.
final class WindowTableReadTests: TemporaryFolderTestCase {
  private let spec = FeatureSpec(
    recipes: [.copy("x")], channels: ["x"], sampleRateHz: 2, windowLength: 4, hopLength: 2,
    statistics: [.mean, .max], spectral: [], bandEdgesHz: [])

  /// Two recordings with names CSV must quote, labels in an order natural order changes; values
  /// as large as a feature cell may be (`Limits.featureMagnitude`) and subnormal-small.
  private func table() throws -> WindowTable {
    func recording(_ session: String, _ subject: String, values: [Float]) -> Recording {
      Recording(
        session: session, subject: subject, source: "test",
        timestamps: values.indices.map { 100 + Double($0) / 2 }, columns: [values],
        labelIndices: values.indices.map { Int32($0 < 3 ? 1 : 0) }, sampleRateHz: 2)
    }
    let dataset = Dataset(
      channels: ["x"], labels: ["walk2", "walk10"],
      recordings: [
        recording("s,\"1\"\nb", "7", values: [1e-30, 0.1, 9.9e17, -2, 1 / 3, 7, 0.3, 9]),
        recording("s2", "8", values: (0..<8).map { Float($0) * 0.7 }),
      ])
    return try WindowTable.make(dataset: dataset, extractor: FeatureExtractor(spec: spec))
  }

  private func csv(_ table: WindowTable, _ name: String = "w.csv") throws -> String {
    var bytes: [UInt8] = []
    try table.writeCSV { bytes += $0 }
    return try write(String(decoding: bytes, as: UTF8.self), name)
  }

  private func tableSpec(windowCount: Int? = nil) -> WindowTableSpec {
    WindowTableSpec(featureSpec: spec, minimumPurity: 0, windowCount: windowCount)
  }

  func testCSV_ReadsBackTheRowsItWroteBitForBit() throws {
    let written = try table()
    let read = try WindowTable.read(
      csv(written), spec: tableSpec(windowCount: written.windowCount), specFile: "s.json")
    XCTAssertEqual(read.features.values.map(\.bitPattern), written.features.values.map(\.bitPattern))
    XCTAssertEqual(read.featureNames, written.featureNames)
    XCTAssertEqual((0..<read.windowCount).map(read.label), (0..<written.windowCount).map(written.label))
    // The vocabulary in natural order, as a load's is.
    XCTAssertEqual(read.labels, ["walk2", "walk10"])
    XCTAssertEqual(read.recordingSessions, written.recordingSessions)
    XCTAssertEqual(read.recordingSubjects, written.recordingSubjects)
    XCTAssertEqual(read.recordingIndices, written.recordingIndices)
    XCTAssertEqual(read.purity, written.purity)
    XCTAssertEqual(read.startTimes, written.startTimes)
    XCTAssertEqual(read.starts, written.starts)
  }

  func testSpecFile_RoundTripsAndRefusesOtherJSON() throws {
    let path = try write(String(decoding: try tableSpec(windowCount: 3).encoded(), as: UTF8.self), "s.json")
    XCTAssertEqual(try WindowTableSpec.read(path), tableSpec(windowCount: 3))
    let manifest = try write(#"{"sources": []}"#, "m.json")
    XCTAssertThrowsError(try WindowTableSpec.read(manifest)) {
      XCTAssertTrue("\($0)".contains("not a window table's spec"), "\($0)")
    }
    var future = tableSpec()
    future.formatVersion = 9
    let later = try write(String(decoding: try future.encoded(), as: UTF8.self), "later.json")
    XCTAssertThrowsError(try WindowTableSpec.read(later)) {
      XCTAssertTrue("\($0)".contains("format version 9"), "\($0)")
    }
    var broken = tableSpec()
    broken.featureSpec.hopLength = 0
    let bad = try write(String(decoding: try broken.encoded(), as: UTF8.self), "bad.json")
    XCTAssertThrowsError(try WindowTableSpec.read(bad)) {
      XCTAssertTrue("\($0)".contains("featureSpec"), "\($0)")
    }
  }

  /// Text of a table `motus features` wrote, one cell replaced.
  private func text(replacingLine line: Int, column: Int, with cell: String) throws -> String {
    var lines = try String(contentsOfFile: csv(table()), encoding: .utf8)
      .components(separatedBy: "\n")
    // The first recording's session spans three lines; its rows end on line 4 and on.
    var cells = lines[line - 1].components(separatedBy: ",")
    cells[column - 1] = cell
    lines[line - 1] = cells.joined(separator: ",")
    return lines.joined(separator: "\n")
  }

  private func readError(_ text: String, spec: WindowTableSpec? = nil) throws -> String {
    let path = try write(text, "bad-\(UUID().uuidString).csv")
    do {
      _ = try WindowTable.read(path, spec: spec ?? tableSpec(), specFile: "s.json")
      XCTFail("no error for \(text.prefix(200))")
      return ""
    } catch let error as WindowTableError {
      XCTAssertTrue(error.description.contains("HINT:"), error.description)
      return error.description
    }
  }

  func testBadCells_NameFileLineAndColumn() throws {
    // Rows of the second recording start on line 6 (the first's session spans lines 2-4 twice).
    let lines = try String(contentsOfFile: csv(table()), encoding: .utf8)
      .components(separatedBy: "\n")
    let line = lines.firstIndex(where: { $0.hasPrefix("s2,") })! + 1
    var message = try readError(text(replacingLine: line, column: 6, with: "x12"))
    XCTAssertTrue(message.contains(":\(line):6 ('x:mean'): 'x12' is not a number"), message)
    message = try readError(text(replacingLine: line, column: 7, with: "nan"))
    XCTAssertTrue(message.contains(":\(line):7 ('x:max'): 'nan' is not a finite number"), message)
    message = try readError(text(replacingLine: line, column: 3, with: ""))
    XCTAssertTrue(message.contains(":\(line):3 ('label'): the cell is empty"), message)
    message = try readError(text(replacingLine: line, column: 4, with: "1.5"))
    XCTAssertTrue(message.contains(":\(line):4 ('purity'): purity 1.5 is outside 0...1"), message)
    message = try readError(text(replacingLine: line, column: 5, with: "inf"))
    XCTAssertTrue(message.contains("('start_s'): 'inf' is not a finite number"), message)
    message = try readError(text(replacingLine: line, column: 7, with: "1,2"))
    XCTAssertTrue(message.contains(":\(line):8: the row has 8 fields, the header has 7"), message)
  }

  func testFeatureColumns_MustBeTheSpecsNamingTheFirstThatDiffers() throws {
    var other = spec
    other.statistics = [.mean, .std]
    let message = try readError(
      String(contentsOfFile: csv(table()), encoding: .utf8),
      spec: WindowTableSpec(featureSpec: other, minimumPurity: 0, windowCount: nil))
    XCTAssertTrue(
      message.contains("feature column 2 is 'x:max' where s.json has 'x:std'"), message)
    XCTAssertTrue(message.contains("pass the spec written with this table"), message)
  }

  func testRowCountAndPurity_MustBeThoseOfTheSpec() throws {
    let text = try String(contentsOfFile: csv(table()), encoding: .utf8)
    var message = try readError(text, spec: tableSpec(windowCount: 99))
    XCTAssertTrue(message.contains("has 6 windows, and s.json was written with a table of 99"), message)
    message = try readError(
      text, spec: WindowTableSpec(featureSpec: spec, minimumPurity: 0.9, windowCount: nil))
    XCTAssertTrue(message.contains("is below the minimum purity 0.9 of s.json"), message)
  }

  /// Another format: the columns in memory, as a Parquet reader would hand them over.
  private struct MemoryColumns: WindowTableColumns {
    var file = "cohort.parquet"
    var columnNames: [String]
    var cells: [[String]]
    var rowCount: Int { cells.count }
    func strings(_ index: Int) throws -> [String?] { cells.map { $0[index] } }
    func doubles(_ index: Int) throws -> [Double?] { cells.map { Double($0[index]) } }
    func floats(_ indices: [Int]) throws -> [Float] {
      cells.flatMap { row in indices.map { Float(row[$0]) ?? .nan } }
    }
    func place(row: Int, column index: Int) -> String {
      "\(file), row \(row + 1), column '\(columnNames[index])'"
    }
  }

  /// The table with a `recording` column (its session) and, optionally, a `window` column.
  private func cohortRows(_ table: WindowTable, window: Bool) -> MemoryColumns {
    var seen: [String: Int] = [:]
    let rows = (0..<table.windowCount).map { row -> [String] in
      let recording = table.session(at: row) == "s2" ? "day-2.csv" : "day-10.csv"
      let number = seen[recording, default: 0]
      seen[recording] = number + 1
      let features = (0..<table.features.columnCount).map { "\(table.features[row, $0])" }
      return [recording] + (window ? ["\(number)"] : [])
        + [
          table.session(at: row), table.subject(at: row), table.label(at: row),
          "\(table.purity[row])", "\(table.startTimes[row])",
        ] + features
    }
    return MemoryColumns(
      columnNames: ["recording"] + (window ? ["window"] : [])
        + ["session", "subject", "label", "purity", "start_s"] + table.featureNames,
      cells: rows)
  }

  func testRecordingColumn_PutsRecordingsInFolderOrderWhateverTheirOrderInTheFile() throws {
    // In the dataset, "day-10.csv" comes first; a folder reads day-2.csv first.
    let written = try table()
    var columns = cohortRows(written, window: false)
    let read = try WindowTable(columns: columns, spec: tableSpec(), specFile: "s.json")
    XCTAssertEqual(read.recordingSessions, ["s2", written.recordingSessions[0]])
    let secondFirst = (0..<written.windowCount).filter { written.session(at: $0) == "s2" }
      + (0..<written.windowCount).filter { written.session(at: $0) != "s2" }
    XCTAssertEqual(read.features.values, written.features.rows(secondFirst).values)
    // Parts in another order: the same table.
    columns.cells = columns.cells.filter { $0[0] == "day-2.csv" }
      + columns.cells.filter { $0[0] != "day-2.csv" }
    XCTAssertEqual(try WindowTable(columns: columns, spec: tableSpec(), specFile: "s.json"), read)
    // A recording whose rows come in two places, and nothing to order them by: refused.
    columns.cells.swapAt(0, columns.cells.count - 1)
    XCTAssertThrowsError(try WindowTable(columns: columns, spec: tableSpec(), specFile: "s.json")) {
      XCTAssertTrue("\($0)".contains("comes back after other recordings"), "\($0)")
      XCTAssertTrue("\($0)".contains("cohort.parquet, row"), "\($0)")
    }
    // With a window column, rows in any order give the same table.
    var numbered = cohortRows(written, window: true)
    let inOrder = try WindowTable(columns: numbered, spec: tableSpec(), specFile: "s.json")
    XCTAssertEqual(inOrder, read)
    numbered.cells.reverse()
    XCTAssertEqual(try WindowTable(columns: numbered, spec: tableSpec(), specFile: "s.json"), read)
    numbered.cells.removeLast()
    XCTAssertThrowsError(try WindowTable(columns: numbered, spec: tableSpec(), specFile: "s.json")) {
      XCTAssertTrue("\($0)".contains("where window 0 comes next"), "\($0)")
    }
  }

  func testRecordingOrder_IsTheOrderMotusReadsAFolderIn() throws {
    let names = ["day-10.csv", "a1.csv", "day-3.csv", "day-2.csv", "a01.csv", "b.csv"]
    for name in names { _ = try write("", name) }
    let folderOrder = try DatasetLoader.expand([folder.path]).map { PathName.last($0) }
    let ours = names.sorted(by: RecordingOrder.precedes)
    // Natural order calls a01 and a1 equal; the bytes decide where a folder's listing would.
    XCTAssertEqual(ours.filter { !$0.hasPrefix("a") }, folderOrder.filter { !$0.hasPrefix("a") })
    XCTAssertEqual(ours, ["a01.csv", "a1.csv", "b.csv", "day-2.csv", "day-3.csv", "day-10.csv"])
    // Subfolders: each folder's entries in natural order, a subfolder where its name falls.
    XCTAssertEqual(
      ["b/x.csv", "a10.csv", "a2/z.csv", "a2.csv", "a2/b/c.csv"].sorted(by: RecordingOrder.precedes),
      ["a2/b/c.csv", "a2/z.csv", "a2.csv", "a10.csv", "b/x.csv"])
  }
  func testFeatureCellBeyondTheBound_IsRefusedNamingFileRowAndColumn() throws {
    // Issue 42, item 7: 1e30 is a finite Float, and was trained on.
    let lines = try String(contentsOfFile: csv(table()), encoding: .utf8)
      .components(separatedBy: "\n")
    let line = try XCTUnwrap(lines.firstIndex(where: { $0.hasPrefix("s2,") })) + 1
    let message = try readError(text(replacingLine: line, column: 6, with: "1e30"))
    XCTAssertTrue(message.contains(":\(line):6 ('x:mean'): feature 1e+30 is beyond 1e18"), message)
    XCTAssertTrue(message.contains("HINT: feature cells hold what `motus features` computed"), message)
    let negative = try readError(text(replacingLine: line, column: 7, with: "-2e18"))
    XCTAssertTrue(negative.contains(":\(line):7 ('x:max'): feature -2e+18 is beyond"), negative)
  }

  func testRowMissingOrRepeated_IsRefusedWithoutARowCount() throws {
    // Issue 42, item 7: without windowCount (a cluster's spec) a lost or doubled row trained.
    let lines = try String(contentsOfFile: csv(table()), encoding: .utf8)
      .components(separatedBy: "\n")
    let s2 = try XCTUnwrap(lines.firstIndex(where: { $0.hasPrefix("s2,") }))
    XCTAssertEqual(lines.count - s2, 4, "three windows of s2, then the final empty line")
    var missing = lines
    missing.remove(at: s2 + 1)
    var message = try readError(missing.joined(separator: "\n"))
    XCTAssertTrue(
      message.contains(":\(s2 + 2):5 ('start_s'): recording 's2' has a start 2 s after the row "
        + "before, where s.json's hop and rate start windows 1 s apart (a window is missing"),
      message)
    XCTAssertTrue(message.contains("HINT: pass the spec written with this table"), message)
    var repeated = lines
    repeated.insert(lines[s2 + 1], at: s2 + 1)
    message = try readError(repeated.joined(separator: "\n"))
    XCTAssertTrue(
      message.contains(":\(s2 + 3):5 ('start_s'): recording 's2' has the same start as the row "
        + "before (a repeated row)"), message)
    // The table appended twice: its first recording comes back.
    let twice = (lines.dropLast() + lines.dropFirst()).joined(separator: "\n")
    message = try readError(twice)
    XCTAssertTrue(message.contains("comes back after other recordings"), message)
    // Where the minimum purity dropped windows, a step of two hops is a window dropped.
    let dropped = WindowTableSpec(featureSpec: spec, minimumPurity: 0.1, windowCount: nil)
    let path = try write(missing.joined(separator: "\n"), "dropped.csv")
    XCTAssertEqual(try WindowTable.read(path, spec: dropped, specFile: "s.json").windowCount, 5)
  }

  func testSpecOfAnotherRateOrHop_IsRefusedByTheWindowsStarts() throws {
    let text = try String(contentsOfFile: csv(table()), encoding: .utf8)
    // The table's windows start 1 s apart (hop 2 at 2 Hz).
    for (rate, hop, apart) in [(8.0, 2, "0.25"), (2.0, 6, "3")] {
      var other = spec
      other.sampleRateHz = rate
      other.hopLength = hop
      let message = try readError(
        text, spec: WindowTableSpec(featureSpec: other, minimumPurity: 0, windowCount: nil))
      XCTAssertTrue(
        message.contains("where s.json's hop and rate start windows \(apart) s apart"), message)
    }
  }

  func testSpecEditedByHand_IsRefusedByItsDigest() throws {
    // Issue 42, item 7: the window, the rate or a recipe's scale edited in the spec file trained
    // a model whose windows are not those of its features.
    let written = String(decoding: try tableSpec(windowCount: 6).encoded(), as: UTF8.self)
    XCTAssertTrue(written.contains("\"featureSpecDigest\" : \""), written)
    let edits = [
      (#""windowLength" : 4"#, #""windowLength" : 8"#),
      (#""sampleRateHz" : 2"#, #""sampleRateHz" : 4"#),
      (#""scale" : 1"#, #""scale" : 9.81"#),
    ]
    for (from, to) in edits {
      XCTAssertTrue(written.contains(from), "\(from) in \(written)")
      let path = try write(written.replacingOccurrences(of: from, with: to), "edited.json")
      XCTAssertThrowsError(try WindowTableSpec.read(path)) { error in
        guard case .specEdited(let file, _, _) = error as? WindowTableError else {
          return XCTFail("\(to): \(error)")
        }
        XCTAssertEqual(file, path)
        XCTAssertTrue("\(error)".contains("edited after `motus features` wrote it"), "\(error)")
        XCTAssertTrue("\(error)".contains("HINT: pass the spec as `motus features"), "\(error)")
      }
    }
    // Layout, key order and the row count are not the feature spec: re-encoded, the same.
    let object = try JSONSerialization.jsonObject(with: Data(written.utf8))
    var dict = try XCTUnwrap(object as? [String: Any])
    dict["windowCount"] = 7
    let rewritten = try JSONSerialization.data(withJSONObject: dict)
    let path = try write(String(decoding: rewritten, as: UTF8.self), "rewritten.json")
    XCTAssertEqual(try WindowTableSpec.read(path).windowCount, 7)
    // A spec written before the digest (none) is read as it was.
    dict["featureSpecDigest"] = nil
    let old = try write(
      String(decoding: try JSONSerialization.data(withJSONObject: dict), as: UTF8.self), "old.json")
    XCTAssertNil(try WindowTableSpec.read(old).featureSpecDigest)
  }
}
